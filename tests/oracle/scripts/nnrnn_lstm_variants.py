# covers: nn.LSTM with proj_size, bidirectional + num_layers, dropout between layers in train vs
# eval mode, bias=False, .double(), assigning a new weight Parameter, shape/argument errors
import torch
from torch import nn

torch.manual_seed(20)
lp = nn.LSTM(4, 6, proj_size=3, num_layers=2, bidirectional=True)
print(lp)
for n, p in lp.named_parameters():
    print(n, tuple(p.shape))
x = torch.randn(3, 2, 4)
o, (h, c) = lp(x)
print(o.shape, h.shape, c.shape)
print(o[1])
print(c[3])
o.sum().backward()
print(lp.weight_hr_l1_reverse.grad)

torch.manual_seed(21)
ld = nn.LSTM(2, 3, num_layers=3, dropout=0.5)
print(ld, ld.dropout)
xd = torch.randn(4, 2, 2)
torch.manual_seed(7)
a, _ = ld(xd)
torch.manual_seed(7)
b, _ = ld(xd)
print(torch.equal(a, b))
print(a[-1])
ld.eval()
e1, _ = ld(xd)
e2, _ = ld(xd)
print(torch.equal(e1, e2), ld.training)
print(e1[-1])

torch.manual_seed(22)
lnb = nn.LSTM(2, 2, bias=False, batch_first=True).double()
print(lnb, lnb.weight_ih_l0.dtype)
yd, (hd, cd) = lnb(torch.randn(1, 3, 2, dtype=torch.float64))
print(yd)
with torch.no_grad():
    lnb.weight_hh_l0 = nn.Parameter(torch.zeros(8, 2, dtype=torch.float64))
print(lnb._flat_weights[1] is lnb.weight_hh_l0)
yd2, _ = lnb(torch.ones(1, 2, 2, dtype=torch.float64))
print(yd2)

lstm = nn.LSTM(4, 3)
try:
    lstm(torch.randn(2, 2, 5))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    lstm(torch.randn(2, 2, 4), (torch.zeros(1, 3, 3), torch.zeros(1, 3, 3)))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    lstm(torch.randn(2, 4), (torch.zeros(1, 1, 3), torch.zeros(1, 1, 3)))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    nn.GRU(3, 4, proj_size=2)
except ValueError as e:
    print('ValueError:', e)
try:
    nn.LSTM(3, 4, proj_size=4)
except ValueError as e:
    print('ValueError:', e)
try:
    nn.RNN(3, 4, nonlinearity='sigmoid')
except ValueError as e:
    print('ValueError:', e)
try:
    nn.LSTM(3, 4, dropout=1.5)
except ValueError as e:
    print('ValueError:', e)
try:
    nn.GRU(3, 4)(torch.randn(2, 1, 3), torch.zeros(1, 4))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    nn.GRUCell(3, 4)(torch.randn(2, 1, 3))
except AssertionError as e:
    print('AssertionError:', e)
