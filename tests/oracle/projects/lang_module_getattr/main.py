# covers: a module-level __getattr__ (PEP 562): `mod.name` and `from mod import name` fall back to
# it for names the module lacks, defined names never reach it, its AttributeError keeps its
# message (getattr with a default and hasattr still see "absent"), and `from mod import name`
# turns that AttributeError into CPython's ImportError
import lazy_registry
from lazy_registry import layer_conv, EAGER, deprecated_size

print(layer_conv, EAGER, deprecated_size)
print(lazy_registry.layer_norm, lazy_registry.layer_norm, lazy_registry.made)
print(getattr(lazy_registry, "missing", "fallback"), hasattr(lazy_registry, "missing"), hasattr(lazy_registry, "layer_x"))
print(lazy_registry.made, callable(lazy_registry.__getattr__))
try:
    lazy_registry.missing
except AttributeError as e:
    print("AttributeError:", e)
try:
    getattr(lazy_registry, "other")
except AttributeError as e:
    print("AttributeError:", e)
try:
    from lazy_registry import nothing_here
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0])
