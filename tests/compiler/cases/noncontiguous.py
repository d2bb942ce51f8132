# Inputs that are transposed, sliced or expanded views of other tensors.
import torch


def f(x, y):
    return (x * y + 1).softmax(-1) + x.sum(0)


cf = torch.compile(f)
base = torch.randn(8, 6)
for x, y in [(torch.randn(6, 8), torch.randn(8)), (base.t(), torch.randn(8)), (torch.randn(6, 16)[:, ::2], torch.randn(8)),
             (torch.randn(1, 8).expand(6, 8), torch.randn(8))]:
    print("contiguous" if x.is_contiguous() else "strided", torch.allclose(cf(x, y), f(x, y), rtol=1e-5, atol=1e-6))

# Library calls on strided operands: a (B, heads, T, d) product transposed and made contiguous
# into a Linear with an epilogue (the attention output's projection), a transposed 3-D input to a
# Linear, and a strided 3-D operand of a matmul with a 2-D weight.
torch.manual_seed(1)
lin = torch.nn.Linear(8, 5)
w = torch.randn(8, 3)


def proj(att, v):
    y = (att @ v).transpose(1, 2).contiguous().view(2, 4, 8)
    return torch.relu(lin(y)) + 1


def strided(x):
    return lin(x.transpose(0, 1)), x.transpose(0, 1) @ w, (x[:, ::2] @ w[:, :2]).sum(-1)


cp, cs = torch.compile(proj), torch.compile(strided)
with torch.no_grad():
    att, v, x = torch.randn(2, 2, 4, 4).softmax(-1), torch.randn(2, 2, 4, 4), torch.randn(4, 2, 8)
    print("proj", torch.allclose(cp(att, v), proj(att, v), rtol=1e-5, atol=1e-6))
    print("strided", all(torch.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(cs(x), strided(x))))
att, v = torch.randn(2, 2, 4, 4, requires_grad=True), torch.randn(2, 2, 4, 4)
cp(att, v).sum().backward()
g = att.grad.clone()
att.grad = None
proj(att, v).sum().backward()
print("proj grad", torch.allclose(g, att.grad, rtol=1e-5, atol=1e-6))
