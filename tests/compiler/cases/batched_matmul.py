# Batched matmuls (both sides 3-D or more): attention's q @ k^T on views of one projection,
# broadcast batch dims, a side expanded from a single batch, a transposed side that is not the
# transpose of row-major memory, sides strided along their last dim, zero-size batches, and the
# same under grad mode (eager gradients through the recomputed graph).
import torch


def attn(x):
    B, T, C = x.shape
    q, k, v = x.split(C // 3, dim=2)
    q = q.view(B, T, 2, C // 6).transpose(1, 2)
    k = k.view(B, T, 2, C // 6).transpose(1, 2)
    v = v.view(B, T, 2, C // 6).transpose(1, 2)
    att = torch.softmax((q @ k.transpose(-2, -1)) * 0.5, dim=-1)
    return (att @ v).transpose(1, 2).reshape(B, T, C // 3)


def shapes(a, b, c, d):
    return (a @ b,                       # (2, 1, 4, 5) @ (3, 5, 6): batch dims broadcast to (2, 3)
            a[:, :, :, :3] @ c,          # a sliced lhs, rhs (1, 3, 7) expanded over the batch
            d.transpose(0, 1) @ d.transpose(0, 1).transpose(1, 2),  # permuted batch dims, rhs transposed
            d[:, ::2] @ d[:, 1::2].transpose(-1, -2) + 1.0,
            d[..., :4:2] @ d[..., 1::2].transpose(-1, -2))  # sides strided along their last dim


fa, fs = torch.compile(attn), torch.compile(shapes)
torch.manual_seed(0)
for B, T in [(2, 5), (3, 8), (0, 4)]:
    x = torch.randn(B, T, 24)
    print(B, T, torch.allclose(fa(x), attn(x), rtol=1e-5, atol=1e-6))
a, b, c, d = torch.randn(2, 1, 4, 5), torch.randn(3, 5, 6), torch.randn(1, 3, 7), torch.randn(4, 6, 5)
print([torch.allclose(g, w, rtol=1e-5, atol=1e-6) for g, w in zip(fs(a, b, c, d), shapes(a, b, c, d))])

w = torch.randn(24, 24, requires_grad=True)
x = torch.randn(2, 6, 24)
out = fa(x @ w)
out.sum().backward()
g = w.grad.clone()
w.grad = None
attn(x @ w).sum().backward()
print("grad", torch.allclose(g, w.grad, rtol=1e-4, atol=1e-5))
