# sys, written in the script language: what a model script may know of its process (argv, the
# Python it stands for, the import path) and write to (stdout, stderr). Nothing here reaches
# files, processes or the network. _argv, _write, _import_paths and _recursion_limit come from
# the interpreter (core/script/stdlib.cpp).


class _VersionInfo:
    def __init__(self, major, minor, micro, releaselevel, serial):
        self._t = (major, minor, micro, releaselevel, serial)
        self.major = major
        self.minor = minor
        self.micro = micro
        self.releaselevel = releaselevel
        self.serial = serial

    def __getitem__(self, i):
        return self._t[i]

    def __len__(self):
        return 5

    def __iter__(self):
        return iter(self._t)

    def _other(self, o):
        return o._t if isinstance(o, _VersionInfo) else tuple(o)

    def __eq__(self, o):
        return self._t == self._other(o)

    def __hash__(self):
        return hash(self._t)

    def __lt__(self, o):
        return self._t < self._other(o)

    def __le__(self, o):
        return self._t <= self._other(o)

    def __gt__(self, o):
        return self._t > self._other(o)

    def __ge__(self, o):
        return self._t >= self._other(o)

    def __repr__(self):
        return "sys.version_info(major=%d, minor=%d, micro=%d, releaselevel=%r, serial=%d)" % self._t


class _Stream:
    def __init__(self, fd, name):
        self._fd = fd
        self.name = name
        self.encoding = "utf-8"

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not %s" % type(text).__name__)
        return _write(self._fd, text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def fileno(self):
        raise OSError("model scripts have no file descriptors")


argv = list(_argv)
version_info = _VersionInfo(3, 11, 2, "final", 0)
version = "3.11.2 (Fuselab's model-script language)"
hexversion = 0x30B02F0
implementation_name = "fuselab"
platform = "linux"
byteorder = "little"
maxsize = 9223372036854775807
path = list(_import_paths)
stdout = _Stream(1, "<stdout>")
stderr = _Stream(2, "<stderr>")
__stdout__ = stdout
__stderr__ = stderr
flags = None
dont_write_bytecode = True


def exit(status=None):
    raise SystemExit(status)


def getrecursionlimit():
    return _recursion_limit(None)


def setrecursionlimit(limit):
    _recursion_limit(limit)
