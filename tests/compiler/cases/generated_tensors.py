# Generated tensors in one kernel: a causal mask from tril(ones), positions from arange (a
# symbolic size read into a local) and a full constant fuse into the masked softmax that reads
# them; none runs eagerly (expected.json), and the values are eager's.
import torch


def f(x):
    b, t = x.size()
    pos = torch.arange(0, t, dtype=torch.long)
    causal = torch.tril(torch.ones(t, t), diagonal=0)
    scores = x.unsqueeze(0) * torch.full_like(x, 0.5) + pos.float()
    return scores.masked_fill(causal == 0, float('-inf')).softmax(-1)


cf = torch.compile(f)
for t in [4, 5, 7]:
    x = torch.randn(t, t)
    print(t, torch.allclose(cf(x), f(x), rtol=1e-5, atol=1e-6))
