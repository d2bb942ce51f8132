# Dropout in training mode (p = 0.1) through compiled training: a pre-norm transformer block at a
# small size (width 64, 4 heads, batch 2, sequence 16) with dropout on the attention weights
# (F.dropout), after the attention's projection and after the MLP (nn.Dropout), compiled on one
# copy and eager on a deep copy. Each step seeds the generator before each copy's forward, so the
# compiled forward must draw the masks eager draws (native_dropout's bernoulli_ on the same
# generator) and its backward must scale by them as eager's does: every parameter's gradient and
# value after the step must be eager's within 1e-5 of the tensor's largest magnitude (a different
# mask moves them by about their own size). Two steps (the first call compiles, the second
# replays), then one call in eval mode, where dropout passes its input through. Last, dropout of
# a transposed matmul with p = 0.15, three calls: eager lays its noise out as the input and scales
# by 1 / float32(1 - p), which a mask drawn contiguous or a scale rounded once would miss; and a
# double backward (create_graph=True), which reruns the graph eagerly and must draw the call's
# masks again; and a dropout's and a max_pool2d's results returned as they are (the training
# forward computes both as tuples; the call must hand out their first items). Run by
# tests/training/check_training.py.
import copy
import math
import torch
from torch import nn
import torch.nn.functional as F

from grad_compare import compare


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads, p):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.p = p
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        att = torch.softmax((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim)), dim=-1)
        att = F.dropout(att, self.p, self.training)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.drop(self.proj(y))


class Block(nn.Module):
    def __init__(self, dim, n_heads, p):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, n_heads, p)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim), nn.Dropout(p))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
block = Block(64, 4, 0.1)
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
    torch.manual_seed(100 + step)
    out = compiled(x)
    loss = F.mse_loss(out, target)
    loss.backward()
    torch.manual_seed(100 + step)
    out_ref = ref(x)
    loss_ref = F.mse_loss(out_ref, target)
    loss_ref.backward()
    print(f"loss {loss.item():.6f} eager {loss_ref.item():.6f}")
    bad += compare("output", [("block", out.detach(), out_ref.detach())])
    bad += compare("grad", [(n, p.grad, q.grad) for (n, p), (_, q) in zip(block.named_parameters(), ref.named_parameters())])
    opt.step()
    opt_ref.step()
    bad += compare("after step", [(n, p.detach(), q.detach()) for (n, p), (_, q) in zip(block.named_parameters(), ref.named_parameters())])

block.eval()
ref.eval()
with torch.no_grad():
    bad += compare("eval output", [("block", compiled(x), ref(x))])


def transposed(a, w):
    return F.dropout((a @ w).t(), 0.15, True) * 3.0


a = torch.randn(24, 40)
w = torch.randn(40, 32, requires_grad=True)
w_ref = w.detach().clone().requires_grad_(True)
ct = torch.compile(transposed)
for call in range(3):
    torch.manual_seed(7 + call)
    o = ct(a, w)
    (o * o).sum().backward()
    torch.manual_seed(7 + call)
    o_ref = transposed(a, w_ref)
    (o_ref * o_ref).sum().backward()
    bad += compare("transposed call %d" % call, [("output", o.detach(), o_ref.detach()), ("w", w.grad, w_ref.grad)])


def squared(x, w):
    return (F.dropout(torch.tanh(x @ w), 0.3, True) ** 2).sum()


cs = torch.compile(squared)
xs = torch.randn(4, 8)
w = torch.randn(8, 8, requires_grad=True)
w_ref = w.detach().clone().requires_grad_(True)
for call in range(3):
    torch.manual_seed(5 + call)
    g, = torch.autograd.grad(cs(xs, w), w, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), w)
    torch.manual_seed(5 + call)
    g_ref, = torch.autograd.grad(squared(xs, w_ref), w_ref, create_graph=True)
    gg_ref, = torch.autograd.grad(g_ref.sum(), w_ref)
    bad += compare("double backward call %d" % call, [("w grad", g.detach(), g_ref.detach()), ("w grad of grad", gg, gg_ref)])


def returned(x):
    return F.max_pool2d(x, 2), F.dropout(x * 2.0, 0.2, True)


cr = torch.compile(returned)
xr = torch.randn(2, 3, 8, 8, requires_grad=True)
xr_ref = xr.detach().clone().requires_grad_(True)
for call in range(3):
    torch.manual_seed(11 + call)
    a, d = cr(xr)
    (a.sum() + (d * d).sum()).backward()
    torch.manual_seed(11 + call)
    a_ref, d_ref = returned(xr_ref)
    (a_ref.sum() + (d_ref * d_ref).sum()).backward()
    bad += compare("returned call %d" % call, [("max_pool2d", a.detach(), a_ref.detach()), ("dropout", d.detach(), d_ref.detach()),
                                              ("x", xr.grad, xr_ref.grad)])
assert not bad, "compiled dropout differs from eager's by more than 1e-5 of its size: " + ", ".join(bad)
print("gradients match")
