# covers: torch.compile of a lambda (captured like a def) computes what the lambda computes
import torch

torch.manual_seed(0)
double_relu = torch.compile(lambda t: (t * 2).relu())
add_scaled = torch.compile(lambda a, b, s=0.5: a + b * s)
x = torch.randn(3, 4)
y = torch.randn(3, 4)
print(double_relu(x))
print(add_scaled(x, y))
print(add_scaled(x, y, s=2.0))
print(add_scaled(x, y, 3))
print(torch.compile(lambda t: t.sum(dim=0))(y))
