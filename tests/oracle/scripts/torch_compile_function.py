# covers: torch.compile on functions: torch.compile(fn), @torch.compile, @torch.compile(...) with fullgraph/dynamic/mode/backend, keyword args, repeat calls
import torch
import torch.nn.functional as F

torch.manual_seed(26)


def gelu_mlp(x, w1, w2):
    return F.gelu(x @ w1) @ w2


compiled_mlp = torch.compile(gelu_mlp)
x = torch.randn(4, 8)
w1 = torch.randn(8, 16)
w2 = torch.randn(16, 2)
out = compiled_mlp(x, w1, w2)
print(out)
print(torch.allclose(out, gelu_mlp(x, w1, w2)), compiled_mlp(x, w1, w2).shape)


@torch.compile
def norm(t, eps=1e-5):
    return (t - t.mean(-1, keepdim=True)) / torch.sqrt(t.var(-1, keepdim=True, unbiased=False) + eps)


@torch.compile(fullgraph=True)
def scaled_gelu(t, s):
    return F.gelu(t) * s


@torch.compile(dynamic=True, mode="reduce-overhead")
def softmax_last(t):
    return torch.softmax(t, dim=-1)


@torch.compile(backend="eager")
def add_bias(t, *, bias=1.0):
    return t + bias


print(norm(x)[0], norm(x, eps=1.0)[0])
print(scaled_gelu(torch.randn(4), 2.0).shape, scaled_gelu(torch.linspace(-1, 1, 3), s=0.5))
for n in [2, 3, 5]:
    print(n, softmax_last(torch.arange(float(n))))
print(add_bias(torch.zeros(2)), add_bias(torch.zeros(2), bias=-3))
print(torch.compile(lambda a, b: a * b + 1)(torch.tensor(2.0), 3))
f2 = torch.compile(gelu_mlp, fullgraph=True, mode="max-autotune")
print(torch.equal(f2(x, w1, w2), out))


@torch.compile
def branchy(t, flag):
    if flag:
        return t.relu()
    return -t


print(branchy(torch.tensor([-1.0, 2.0]), True), branchy(torch.tensor([-1.0, 2.0]), False))
grad_x = torch.randn(3, requires_grad=True)
y = scaled_gelu(grad_x, 3.0).sum()
y.backward()
print(y, grad_x.grad)
