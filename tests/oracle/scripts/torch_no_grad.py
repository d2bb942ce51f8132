# covers: with torch.no_grad() blocks (nested, with functions, parameter updates), torch.enable_grad, is_grad_enabled, inference-style loops
import torch

torch.manual_seed(24)
w = torch.randn(3, requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    y = w * 2
    print(torch.is_grad_enabled(), y.requires_grad, y.grad_fn)
    with torch.enable_grad():
        z = w * 2
        print("inner enable_grad:", z.requires_grad)
    u = w + 1
print(torch.is_grad_enabled(), u.requires_grad, (w * 2).requires_grad)
loss = (w ** 2).sum()
loss.backward()
print(w.grad)
with torch.no_grad():
    w -= 0.1 * w.grad
    w.grad.zero_()
print(w, w.grad, w.requires_grad, w.is_leaf)


def evaluate(v):
    with torch.no_grad():
        return (v * 3).sum()


r = evaluate(w)
print(r, r.requires_grad)
with torch.no_grad():
    for i in range(3):
        w.add_(torch.ones(3) * 0.01)
print(w)
try:
    w.add_(1.0)
except RuntimeError:
    print("in-place on leaf requiring grad outside no_grad raises RuntimeError")
with torch.no_grad():
    out = torch.nn.functional.linear(torch.randn(2, 3), torch.randn(4, 3))
print(out.shape, out.requires_grad)
