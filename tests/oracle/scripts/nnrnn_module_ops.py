# covers: recurrent / attention modules under generic Module operations: copy.deepcopy,
# state_dict / load_state_dict round trip, .double() (flat weights refreshed), requires_grad_,
# zero_grad, named_modules / children of a Transformer, parameter counts, apply() re-initialisation
import copy
import torch
from torch import nn

torch.manual_seed(0)
a = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
b = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
x = torch.randn(5, 2, 3)
print(torch.equal(a(x)[0], b(x)[0]))
res = b.load_state_dict(a.state_dict())
print(res)
print(torch.equal(a(x)[0], b(x)[0]))
c = copy.deepcopy(a)
print(c)
print(c.weight_ih_l0 is a.weight_ih_l0, torch.equal(c(x)[1][0], a(x)[1][0]))
with torch.no_grad():
    c.weight_ih_l0.add_(1.0)
print(torch.equal(c(x)[0], a(x)[0]))
print(sum(p.numel() for p in a.parameters()))

g = nn.GRU(3, 2).double()
print(g.weight_hh_l0.dtype, g._flat_weights[0].dtype)
print(g(torch.randn(2, 1, 3, dtype=torch.float64))[1])
g.requires_grad_(False)
print([p.requires_grad for p in g.parameters()])

torch.manual_seed(1)
cell = nn.LSTMCell(2, 3)
h, cc = cell(torch.randn(4, 2))
h.sum().backward()
print(cell.weight_hh.grad.abs().sum() > 0)
cell.zero_grad()
print(cell.weight_hh.grad)

torch.manual_seed(2)
t = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4)
print([n for n, _ in t.named_modules()])
print([n for n, _ in t.named_children()])
print(len(list(t.parameters())), sum(p.numel() for p in t.parameters()))
sd = t.state_dict()
print(len(sd), list(sd.keys())[:5])
t2 = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=4)
print(t2.load_state_dict(sd))
print(torch.equal(t2.decoder.layers[0].multihead_attn.in_proj_weight,
                  t.decoder.layers[0].multihead_attn.in_proj_weight))


def reinit(m):
    if isinstance(m, (nn.LSTM, nn.GRU, nn.RNN)):
        for name, p in m.named_parameters():
            if 'weight' in name:
                nn.init.xavier_uniform_(p)
            else:
                nn.init.zeros_(p)


torch.manual_seed(3)
seq = nn.Sequential(nn.Linear(2, 3))
r = nn.RNN(3, 3)
r.apply(reinit)
print(r.weight_ih_l0)
print(r.bias_hh_l0)
mha = nn.MultiheadAttention(4, 2)
print(isinstance(mha.out_proj, nn.Linear), type(mha.out_proj).__name__)
print(nn.RNNBase, nn.RNNCellBase, issubclass(nn.LSTM, nn.RNNBase), issubclass(nn.GRUCell, nn.RNNCellBase))
