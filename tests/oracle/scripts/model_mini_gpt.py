# covers: a tiny GPT-style language model (token + position Embedding, ModuleList of pre-norm blocks, LayerNorm, tied lm head), greedy generation under no_grad, one Adam step
import torch
from torch import nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.attn(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        a = (q @ k.transpose(-2, -1)) * (k.size(-1) ** -0.5)
        a = a.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf")).softmax(-1)
        x = x + self.proj((a @ v).transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab=11, d=16, h=2, n_layer=2, ctx=12):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList([Block(d, h) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


torch.manual_seed(46)
model = TinyGPT()
print(sum(p.numel() for p in model.parameters()), len(model.state_dict()))
idx = torch.tensor([[1, 2, 3, 4]])
logits = model(idx)
print(logits.shape, logits[0, -1])
with torch.no_grad():
    seq = idx
    for _ in range(6):
        nxt = model(seq)[:, -1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], dim=1)
print(seq.tolist())
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = torch.tensor([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]])
for step in range(30):
    logits = model(data[:, :-1])
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), data[:, 1:].view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(f"step {step} loss {loss.item():.3f}")
print(model.head.weight is model.tok.weight)
