# A module with a PEP 562 __getattr__: names it does not define are made on first use and cached;
# others raise AttributeError with the module's own message.
EAGER = "eager"
made = []
_cache = {}


def __getattr__(name):
    if name.startswith("layer_"):
        if name not in _cache:
            made.append(name)
            _cache[name] = "built " + name[len("layer_"):]
        return _cache[name]
    if name == "deprecated_size":
        return 42
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (try layer_*)")
