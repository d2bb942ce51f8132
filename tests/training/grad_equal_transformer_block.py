# One training step of the bench transformer block (resources/models/bench/transformer_block.py's
# pre-norm block: LayerNorm, qkv Linear, attention with an explicit q @ k^T and softmax, proj,
# GELU MLP, residuals) at a small size (width 64, 4 heads, batch 2, sequence 16), compiled on one
# copy and eager on a deep copy, on the same input: every parameter's gradient and value after
# the step must be eager's within 1e-5 of the tensor's largest magnitude. Two steps: the first
# call captures and compiles, the second replays the cached graph. Run by
# tests/training/check_training.py.
import copy
import math
import torch
from torch import nn
import torch.nn.functional as F

from grad_compare import compare


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        att = torch.softmax((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim)), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
block = Block(64, 4)
ref = copy.deepcopy(block)
compiled = torch.compile(block)
opt = torch.optim.SGD(block.parameters(), lr=0.05, momentum=0.9)
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(2, 16, 64)
target = torch.randn(2, 16, 64)

bad = []
for step in (1, 2):
    print(f"step {step}")
    opt.zero_grad(set_to_none=True)
    opt_ref.zero_grad(set_to_none=True)
    loss = F.mse_loss(compiled(x), target)
    loss.backward()
    loss_ref = F.mse_loss(ref(x), target)
    loss_ref.backward()
    print(f"loss {loss.item():.6f} eager {loss_ref.item():.6f}")
    bad += compare("grad", [(n, p.grad, q.grad) for (n, p), (_, q) in zip(block.named_parameters(), ref.named_parameters())])
    opt.step()
    opt_ref.step()
    bad += compare("after step", [(n, p.detach(), q.detach()) for (n, p), (_, q) in zip(block.named_parameters(), ref.named_parameters())])
assert not bad, "compiled gradients differ from eager's by more than 1e-5 of their size: " + ", ".join(bad)
print("gradients match")
