# covers: less common arguments and inputs: dtype= factory argument on RNN / LSTMCell / MHA /
# TransformerEncoderLayer, bidirectional RNN with dropout in eval, unbatched MHA with a 1-D key
# padding mask and 3-D attn_mask, unbatched Transformer decoder layer (norm_first, batch_first),
# float key padding masks, LSTM hidden-state error messages, RNN extra_repr details
import torch
from torch import nn

torch.manual_seed(0)
r = nn.RNN(2, 3, num_layers=2, dropout=0.25, bidirectional=True, dtype=torch.float64)
print(r, r.weight_ih_l1.dtype, r.dropout)
r.eval()
o, h = r(torch.randn(4, 3, 2, dtype=torch.float64))
print(o[-1])
print(h.shape)
print(nn.RNN(2, 3, 1, False, True), nn.GRU(2, 3, 1, True, False, 0.0, True))
print(nn.LSTMCell(2, 3, dtype=torch.float64).weight_ih.dtype, nn.RNNCell(2, 3, False, 'tanh'))

torch.manual_seed(1)
m = nn.MultiheadAttention(4, 2, dtype=torch.float64)
q = torch.randn(3, 4, dtype=torch.float64)
kpm = torch.tensor([False, False, True])
am = torch.zeros(2, 3, 3, dtype=torch.float64)
am[1, 0, 1] = float('-inf')
out, w = m(q, q, q, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False)
print(out.shape, w.shape)
print(w)
out2, w2 = m(q, q, q, key_padding_mask=kpm)
print(w2)

torch.manual_seed(2)
dl = nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0, batch_first=True, norm_first=True)
tgt = torch.randn(3, 4)
mem = torch.randn(5, 4)
yd = dl(tgt, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3),
        memory_key_padding_mask=torch.tensor([False, False, False, True, True]))
print(yd)
yb = dl(tgt.unsqueeze(0), mem.unsqueeze(0))
print(yb.shape)

torch.manual_seed(3)
el = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, layer_norm_eps=1e-6)
print(el.norm1, el.norm1.eps)
src = torch.randn(3, 2, 4)
fk = torch.tensor([[0.0, 0.0, float('-inf')], [0.0, 0.0, 0.0]])
bk = torch.tensor([[False, False, True], [False, False, False]])
print(torch.equal(el(src, src_key_padding_mask=fk), el(src, src_key_padding_mask=bk)))
try:
    el(src, src_key_padding_mask=torch.zeros(2, 3, dtype=torch.int32))
except AssertionError as e:
    print('AssertionError:', e)

lstm = nn.LSTM(2, 3, num_layers=2)
x = torch.randn(4, 2, 2)
try:
    lstm(x, (torch.zeros(2, 2, 3), torch.zeros(1, 2, 3)))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    lstm(x, (torch.zeros(2, 2, 3), torch.zeros(2, 3)))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    lstm(torch.randn(4, 2, 2, 1))
except RuntimeError as e:
    print('RuntimeError:', e)
lp = nn.LSTM(2, 4, proj_size=2)
try:
    lp(x, (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)))
except RuntimeError as e:
    print('RuntimeError:', e)
print(lp(x, (torch.zeros(1, 2, 2), torch.zeros(1, 2, 4)))[0].shape)
