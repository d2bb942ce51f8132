# Fuselab prelude: nn.ParameterList and nn.ParameterDict (torch.nn.modules.containers), as torch
# 1.13 behaves: tensors put in become Parameters, entries are attributes named "0", "1", ... or by
# key, a plain dict given to a ParameterDict is taken in sorted key order (an OrderedDict or a
# ParameterDict in its own order), and the reprs list each entry's kind, dtype and size.
# Names provided by the loader: torch, F, math, Parameter, _OrderedDict, init, nn, Module.

__all__ = ["ParameterList", "ParameterDict"]


def _entry_text(p, type_name):
    # 1.13's ParameterList names the dtype, its ParameterDict the legacy tensor type
    if isinstance(p, torch.Tensor):
        size = "x".join(str(s) for s in p.size())
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return kind + " containing: [" + (p.type() if type_name else str(p.dtype)) + " of size " + size + "]"
    return "Object of type: " + type(p).__name__


def _iterable(x):
    try:
        iter(x)
        return True
    except TypeError:
        return False


class ParameterList(Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def _index(self, idx):
        if isinstance(idx, bool) or not isinstance(idx, int):
            raise TypeError("'" + type(idx).__name__ + "' object cannot be interpreted as an integer")
        if not (-len(self) <= idx < len(self)):
            raise IndexError("index " + str(idx) + " is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(len(self))[idx]:
                out.append(self[i])
            return out
        return getattr(self, self._index(idx))

    def __setitem__(self, idx, param):
        name = self._index(idx)
        if isinstance(param, torch.Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, name, param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def append(self, value):
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        if isinstance(values, torch.Tensor) or not _iterable(values):
            raise TypeError("ParameterList.extend should be called with an iterable, but got " + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        lines = []
        for k in range(len(self)):
            lines.append("  (" + str(k) + "): " + _entry_text(self[k], False))
        return "\n".join(lines)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is '"
                            + type(key).__name__ + "'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        name = self._key(key)
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, name, value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(list(self._keys))

    def __reversed__(self):
        return reversed(list(self._keys))

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        return ParameterDict(_OrderedDict([(k, self[k]) for k in self._keys]))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        for k in list(self._keys):
            del self[k]

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def popitem(self):
        k = list(self._keys)[-1]
        val = self[k]
        del self[k]
        return k, val

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict([(k, default) for k in keys])

    def keys(self):
        return self._keys.keys()

    def items(self):
        return [(k, self[k]) for k in self._keys]

    def values(self):
        return [self[k] for k in self._keys]

    def update(self, parameters):
        if isinstance(parameters, ParameterDict) or type(parameters).__name__ == "OrderedDict":
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, dict):
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        else:
            if not _iterable(parameters):
                raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                                + type(parameters).__name__)
            j = 0
            for p in parameters:
                if not _iterable(p):
                    raise TypeError("ParameterDict update sequence element #" + str(j) + " should be Iterable; is" + type(p).__name__)
                if not len(p) == 2:
                    raise ValueError("ParameterDict update sequence element #" + str(j) + " has length " + str(len(p)) + "; 2 is required")
                self[p[0]] = p[1]
                j += 1

    def extra_repr(self):
        lines = []
        for k, p in self.items():
            lines.append("  (" + k + "): " + _entry_text(p, True))
        return "\n".join(lines)

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy
