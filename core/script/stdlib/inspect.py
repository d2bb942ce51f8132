# inspect, written in the script language for what model code asks of it: signature (of
# functions, methods and classes: their __init__), Parameter, isclass / isfunction / ismethod /
# isbuiltin / isroutine, getmembers, getdoc. _params comes from the interpreter.


class _empty:
    pass


class Parameter:
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4
    empty = _empty
    _kind_names = ["POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"]

    def __init__(self, name, kind, default=_empty):
        self.name = name
        self.kind = kind
        self.default = default
        self.annotation = _empty

    def __str__(self):
        if self.kind == 2:
            return "*" + self.name
        if self.kind == 4:
            return "**" + self.name
        if self.default is _empty:
            return self.name
        return "%s=%r" % (self.name, self.default)

    def __repr__(self):
        return '<Parameter "%s">' % str(self)


class Signature:
    empty = _empty

    def __init__(self, parameters=None):
        self.parameters = _OrderedDict()
        for p in parameters or []:
            self.parameters[p.name] = p
        self.return_annotation = _empty

    def __str__(self):
        parts = []
        star_done = False
        slash_due = False
        for p in self.parameters.values():
            if slash_due and p.kind != 0:
                parts.append("/")
            slash_due = p.kind == 0
            if p.kind == 3 and not star_done:
                parts.append("*")
            if p.kind in (2, 3):
                star_done = True
            parts.append(str(p))
        if slash_due:
            parts.append("/")
        return "(%s)" % ", ".join(parts)

    def __repr__(self):
        return "<Signature %s>" % str(self)

    def bind(self, *args, **kwargs):
        raise NotImplementedError("Signature.bind is not available in model scripts")


def isclass(obj):
    return isinstance(obj, type)


def isfunction(obj):
    return type(obj).__name__ == "function"


def ismethod(obj):
    return hasattr(obj, "__func__") and hasattr(obj, "__self__") and isfunction(obj.__func__)


def isbuiltin(obj):
    return type(obj).__name__ == "builtin_function_or_method" and not ismethod(obj)


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def _function_of(obj):
    if isclass(obj):
        init = getattr(obj, "__init__", None)
        return init, True
    if ismethod(obj):
        return obj.__func__, True
    if callable(obj) and not isfunction(obj) and not isbuiltin(obj) and hasattr(obj, "__call__"):
        return type(obj).__call__, True
    return obj, False


def signature(obj):
    if not callable(obj):
        raise TypeError("%r is not a callable object" % (obj,))
    fn, drop_first = _function_of(obj)
    params = _params(fn, _empty)
    if params is None:
        if isclass(obj):
            return Signature([])
        raise ValueError("no signature found for %r" % (obj,))
    if drop_first and params and params[0][1] in (0, 1):
        params = params[1:]
    return Signature([Parameter(n, k, d) for n, k, d in params])


def getmembers(obj, predicate=None):
    out = []
    for name in _names(obj):
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            out.append((name, value))
    return sorted(out, key=lambda kv: kv[0])


def getdoc(obj):
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    lines = doc.replace("\t", "        ").split("\n")
    indent = None
    for line in lines[1:]:
        stripped = line.lstrip()
        if stripped:
            n = len(line) - len(stripped)
            indent = n if indent is None else min(indent, n)
    if indent:
        lines = [lines[0]] + [l[indent:] for l in lines[1:]]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(l.strip() if i == 0 else l for i, l in enumerate(lines))
