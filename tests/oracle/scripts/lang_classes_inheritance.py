# covers: inheritance, super().__init__(), method overriding, super() method calls, isinstance/type
import torch

torch.manual_seed(0)


class Layer:
    kind = "base"

    def __init__(self, name):
        self.name = name
        self.calls = 0

    def forward(self, x):
        return x

    def __call__(self, x):
        self.calls += 1
        return self.forward(x)

    def describe(self):
        return f"{self.kind}:{self.name}"


class Scale(Layer):
    kind = "scale"

    def __init__(self, name, factor):
        super().__init__(name)
        self.factor = factor

    def forward(self, x):
        return x * self.factor


class ScaleShift(Scale):
    kind = "scaleshift"

    def __init__(self, name, factor, shift):
        super().__init__(name, factor)
        self.shift = shift

    def forward(self, x):
        return super().forward(x) + self.shift

    def describe(self):
        return super().describe() + f"(+{self.shift})"


layers = [Layer("id"), Scale("s", 3), ScaleShift("ss", 2, 1)]
x = 5
for layer in layers:
    x = layer(x)
    print(layer.describe(), x, layer.calls)
print(layers[2](0), layers[2].calls)
for layer in layers:
    print(type(layer).__name__, isinstance(layer, Layer), isinstance(layer, Scale),
          isinstance(layer, ScaleShift))
print(issubclass(ScaleShift, Layer), issubclass(Layer, Scale))
print(ScaleShift.kind, Scale.kind, Layer.kind)


class MyError(ValueError):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code


try:
    raise MyError(42)
except ValueError as e:
    print(type(e).__name__, e, e.code, isinstance(e, Exception))
