# os.path, written in the script language: path strings, and whether a path exists (all a model
# script may learn of the file system). _stat and _getcwd come from the interpreter.

sep = "/"


def join(a, *parts):
    path = a
    for b in parts:
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p):
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def basename(p):
    return split(p)[1]


def dirname(p):
    return split(p)[0]


def splitext(p):
    dot = p.rfind(".")
    slash = p.rfind("/")
    if dot > slash:
        i = slash + 1
        while i < dot and p[i] == ".":
            i += 1
        if i < dot:
            return p[:dot], p[dot:]
    return p, ""


def isabs(p):
    return p.startswith("/")


def normpath(p):
    if p == "":
        return "."
    initial = 1 if p.startswith("/") else 0
    if initial and p.startswith("//") and not p.startswith("///"):
        initial = 2
    out = []
    for comp in p.split("/"):
        if comp in ("", "."):
            continue
        if comp != ".." or (not initial and not out) or (out and out[-1] == ".."):
            out.append(comp)
        elif out:
            out.pop()
    p = "/" * initial + "/".join(out)
    return p or "."


def abspath(p):
    if not isabs(p):
        p = join(_getcwd(), p)
    return normpath(p)


def realpath(p):
    return abspath(p)


def expanduser(p):
    if not p.startswith("~"):
        return p
    home = _environ().get("HOME", "/")
    i = p.find("/")
    if i < 0:
        i = len(p)
    if i != 1:
        return p
    return (home.rstrip("/") or "/") + p[i:]


def relpath(p, start="."):
    a = [x for x in abspath(p).split("/") if x]
    b = [x for x in abspath(start).split("/") if x]
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    rel = [".."] * (len(b) - n) + a[n:]
    return join(*rel) if rel else "."


def commonprefix(m):
    if not m:
        return ""
    s1 = min(m)
    s2 = max(m)
    for i in range(len(s1)):
        if s1[i] != s2[i]:
            return s1[:i]
    return s1


def exists(p):
    return _stat(p) != 0


def isfile(p):
    return _stat(p) == 1


def isdir(p):
    return _stat(p) == 2


def lexists(p):
    return exists(p)


def getsize(p):
    raise PermissionError("os.path.getsize is not available in model scripts: a model script cannot read files")
