# types' type objects against what the interpreter gives (functions, lambdas, generators,
# builtins, modules, None, Ellipsis), MethodType binding a function to an object (as code that
# patches a model's forward does), and new_class with bases, keywords and exec_body.
import math
import sys
import types


def plain(x):
    return x


def gen():
    yield 1


class Model:
    def __init__(self, scale):
        self.scale = scale

    def forward(self, x):
        return x * self.scale

    def __repr__(self):
        return "Model(%r)" % self.scale


things = [("def", plain), ("lambda", lambda: 0), ("generator", gen()), ("genexpr", (i for i in [])),
          ("generator function", gen), ("len", len), ("print", print), ("module math", math),
          ("module sys", sys), ("None", None), ("Ellipsis", ...), ("class", Model), ("int", 3),
          ("instance", Model(1)), ("list", [])]
kinds = [("FunctionType", types.FunctionType), ("LambdaType", types.LambdaType),
         ("GeneratorType", types.GeneratorType), ("BuiltinFunctionType", types.BuiltinFunctionType),
         ("ModuleType", types.ModuleType), ("NoneType", types.NoneType), ("EllipsisType", types.EllipsisType)]
for label, obj in things:
    print("%-18s" % label, [name for name, kind in kinds if isinstance(obj, kind)])
print(types.FunctionType, types.LambdaType, types.GeneratorType, types.BuiltinFunctionType,
      types.BuiltinMethodType, types.ModuleType, types.NoneType, types.EllipsisType)
print(types.FunctionType is types.LambdaType, types.BuiltinFunctionType is types.BuiltinMethodType,
      type(plain) is types.FunctionType, type(None) is types.NoneType, type(...) is types.EllipsisType)
print(callable(types.FunctionType), isinstance(types.FunctionType, type), types.NoneType.__name__)

m = Model(3)


def doubled_forward(self, x):
    return 2 * self.forward_orig(x)


m.forward_orig = m.forward
m.forward = types.MethodType(doubled_forward, m)
print(m.forward(5), m.forward.__self__ is m, m.forward.__func__ is doubled_forward, m.forward.__name__)
print(m.forward, type(m.forward), type(m.forward).__name__, isinstance(m.forward, types.MethodType))
other = Model(10)
print(types.MethodType(Model.forward, other)(2), Model(1).forward(4))
bm = types.MethodType(doubled_forward, m)
print(bm == m.forward, bm != types.MethodType(doubled_forward, other), bm == doubled_forward)
print(types.MethodType(lambda self, *a, **k: (self, a, k), "obj")(1, 2, key=3))


def documented(self):
    """Returns the object."""
    return self


dm = types.MethodType(documented, 7)
print(dm(), dm.__doc__, dm.__qualname__)
for call in [lambda: types.MethodType(plain), lambda: types.MethodType(5, m),
             lambda: types.MethodType(plain, None), lambda: types.MethodType(plain, 1, 2)]:
    try:
        print(call())
    except TypeError as e:
        print("TypeError", e)

Empty = types.new_class("Empty")
print(Empty, Empty.__name__, Empty.__qualname__, Empty.__module__, isinstance(Empty(), Empty))


def body(ns):
    ns["kind"] = "linear"
    ns["describe"] = lambda self: "%s of %r" % (self.kind, self.scale)


Linear = types.new_class("Linear", (Model,), {}, body)
lin = Linear(4)
print(Linear, lin, lin.kind, lin.describe(), lin.forward(2), issubclass(Linear, Model))


class Registry:
    registered = []

    def __init_subclass__(cls, tag="none", **kw):
        Registry.registered.append(tag)


Plugin = types.new_class("Plugin", (Registry,), {"tag": "relu"})
print(Registry.registered, Plugin.__name__)
Both = types.new_class("Both", (Linear, Registry), None, lambda ns: ns.update(extra=1))
print(Both(2).describe(), Both.extra, Registry.registered)
print(types.resolve_bases((Model, Registry)), types.prepare_class("P", (Model,)))
print(types.prepare_class("P", (), {"tag": 1}))
