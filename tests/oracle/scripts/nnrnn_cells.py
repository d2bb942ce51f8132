# covers: nn.RNNCell (tanh/relu, bias=False), nn.LSTMCell, nn.GRUCell: seeded init, repr, stepping
# over a sequence, unbatched input, default zero state, gradients
import torch
from torch import nn

torch.manual_seed(10)
cell = nn.RNNCell(3, 4)
relu_cell = nn.RNNCell(3, 4, bias=False, nonlinearity='relu')
print(cell, relu_cell)
print([n for n, _ in relu_cell.named_parameters()], relu_cell.bias_ih)
xs = torch.randn(5, 2, 3)
hx = torch.zeros(2, 4)
outs = []
for t in range(5):
    hx = cell(xs[t], hx)
    outs.append(hx)
print(torch.stack(outs).shape)
print(hx)
print(relu_cell(xs[0]))
print(relu_cell(xs[0, 0]))

torch.manual_seed(11)
lc = nn.LSTMCell(3, 2)
print(lc)
h = torch.randn(2, 2)
c = torch.randn(2, 2)
for t in range(5):
    h, c = lc(xs[t], (h, c))
print(h)
print(c)
hu, cu = lc(xs[0, 1])
print(hu.shape, cu.shape, hu, cu)
(h.sum() + c.sum()).backward()
print(lc.weight_ih.grad)
print(lc.bias_hh.grad)

torch.manual_seed(12)
gc = nn.GRUCell(3, 2, bias=False)
print(gc)
g = gc(xs[1])
print(g)
g2 = gc(xs[2, 0], g[0])
print(g2)
g2.sum().backward()
print(gc.weight_hh.grad)
print(list(gc.state_dict().keys()), list(lc.state_dict().keys()))
