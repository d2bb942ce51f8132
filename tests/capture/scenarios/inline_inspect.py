import inspect
import torch


def act(x, slope=0.5):
    return torch.nn.functional.leaky_relu(x, slope)


@torch.compile
def f(x):
    n = len(inspect.signature(act).parameters)
    return act(x) * n


x = torch.linspace(-1, 1, 5)
print(f(x))
print(f(x + 1))
