# A compiled forward with grad on: backward gives eager's gradients.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4))
cm = torch.compile(m)
x = torch.randn(5, 8, requires_grad=True)
for step in range(2):
    loss = cm(x).pow(2).sum()
    loss.backward()
    g1 = [p.grad.clone() for p in m.parameters()] + [x.grad.clone()]
    for p in m.parameters():
        p.grad = None
    x.grad = None
    loss2 = m(x).pow(2).sum()
    loss2.backward()
    g2 = [p.grad.clone() for p in m.parameters()] + [x.grad.clone()]
    for p in m.parameters():
        p.grad = None
    x.grad = None
    print(step, torch.allclose(loss, loss2), all(torch.allclose(a, b, rtol=1e-4, atol=1e-6) for a, b in zip(g1, g2)))
