# covers: nn.MultiheadAttention with kdim/vdim (separate q/k/v projection weights), bias=False,
# add_bias_kv, add_zero_attn, dropout in train vs eval, distinct query/key/value tensors,
# F.multi_head_attention_forward called directly, shape errors
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(3)
m = nn.MultiheadAttention(6, 2, kdim=4, vdim=5)
print(m)
print([(n, tuple(p.shape)) for n, p in m.named_parameters()])
print(m.in_proj_weight, m._qkv_same_embed_dim)
q = torch.randn(3, 2, 6)
k = torch.randn(5, 2, 4)
v = torch.randn(5, 2, 5)
o, w = m(q, k, v)
print(o[2])
print(w[0])
o.sum().backward()
print(m.k_proj_weight.grad)
print(m.in_proj_bias.grad)

torch.manual_seed(4)
nb = nn.MultiheadAttention(4, 1, bias=False, add_bias_kv=True, add_zero_attn=True)
print(nb)
print([(n, tuple(p.shape)) for n, p in nb.named_parameters()])
print(nb.bias_k, nb.out_proj.bias)
x = torch.randn(3, 2, 4)
o2, w2 = nb(x, x, x, key_padding_mask=torch.tensor([[False, False, True], [False, False, False]]),
            attn_mask=torch.zeros(3, 3))
print(w2.shape)
print(w2[0])
print(o2[0])

torch.manual_seed(5)
dm = nn.MultiheadAttention(4, 2, dropout=0.5)
x = torch.randn(3, 2, 4)
torch.manual_seed(9)
od, wd = dm(x, x, x)
print(wd[0])
dm.eval()
oe, we = dm(x, x, x)
print(we[0])
print(oe[0])

torch.manual_seed(6)
mem = torch.randn(4, 2, 4)
dm.train(False)
oa, wa = dm(x, mem, mem, need_weights=True, average_attn_weights=False)
print(wa.shape)
print(oa[1])

torch.manual_seed(7)
E, H = 4, 2
w_in = torch.randn(3 * E, E)
b_in = torch.randn(3 * E)
w_out = torch.randn(E, E)
b_out = torch.randn(E)
xq = torch.randn(2, 1, E)
r, rw = F.multi_head_attention_forward(xq, xq, xq, E, H, w_in, b_in, None, None, False, 0.0,
                                       w_out, b_out, training=False)
print(r)
print(rw)
r2, rw2 = F.multi_head_attention_forward(xq, xq, xq, E, H, w_in, b_in, None, None, False, 0.0,
                                         w_out, None, training=False, need_weights=False)
print(r2, rw2)

try:
    m(q, k, v, attn_mask=torch.zeros(2, 2))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    nn.MultiheadAttention(6, 4)
except AssertionError as e:
    print('AssertionError:', e)
try:
    m(q, k, v, key_padding_mask=torch.zeros(2, 5, dtype=torch.long))
except AssertionError as e:
    print('AssertionError:', e)
try:
    m(q[0], k, v)
except AssertionError as e:
    print('AssertionError:', e)
