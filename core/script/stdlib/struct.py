# struct, as far as Fuselab can provide it: model scripts have no bytes type (bytes, like files,
# are outside what a script may touch), so pack and unpack are errors that say so; calcsize and
# Struct(...).size work, and importing the module works (llama2.c imports it for its export code).


class error(Exception):
    pass


_SIZES = {"x": 1, "c": 1, "b": 1, "B": 1, "?": 1, "h": 2, "H": 2, "i": 4, "I": 4, "l": 8, "L": 8,
          "q": 8, "Q": 8, "n": 8, "N": 8, "e": 2, "f": 4, "d": 8, "s": 1, "p": 1, "P": 8}
_STD_SIZES = {"l": 4, "L": 4}


def calcsize(format):
    if not isinstance(format, str):
        raise TypeError("Struct() argument 1 must be a str or bytes object, not %s" % type(format).__name__)
    native = True
    i = 0
    if format and format[0] in "@=<>!":
        native = format[0] == "@"
        i = 1
    size = 0
    while i < len(format):
        ch = format[i]
        if ch.isspace():
            i += 1
            continue
        count = ""
        while i < len(format) and format[i].isdigit():
            count += format[i]
            i += 1
        if i >= len(format):
            raise error("repeat count given without format specifier")
        ch = format[i]
        i += 1
        if ch not in _SIZES or (not native and ch in "nNP"):
            raise error("bad char in struct format")
        n = int(count) if count else 1
        one = _SIZES[ch] if native else _STD_SIZES.get(ch, _SIZES[ch])
        if native and ch not in "xcbB?sp" and size % one:
            size += one - size % one
        size += n if ch in "sp" else one * n
    return size


def _no_bytes(name):
    raise TypeError("struct.%s needs bytes, which model scripts do not have in Fuselab" % name)


def pack(format, *values):
    calcsize(format)
    _no_bytes("pack")


def unpack(format, buffer):
    calcsize(format)
    _no_bytes("unpack")


def pack_into(format, buffer, offset, *values):
    _no_bytes("pack_into")


def unpack_from(format, buffer, offset=0):
    _no_bytes("unpack_from")


def iter_unpack(format, buffer):
    _no_bytes("iter_unpack")


class Struct:
    def __init__(self, format):
        self.format = format
        self.size = calcsize(format)

    def pack(self, *values):
        return pack(self.format, *values)

    def unpack(self, buffer):
        return unpack(self.format, buffer)
