# covers: nn.MultiheadAttention: seeded init (xavier_uniform_ in_proj, zero biases), repr, parameter
# names, self-attention with averaged / per-head weights, bool and float attn_mask, key_padding_mask,
# need_weights=False, batch_first, unbatched input, backward
import torch
from torch import nn

torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
print(mha)
for n, p in mha.named_parameters():
    print(n, tuple(p.shape))
print(list(mha.state_dict().keys()))
print(mha.in_proj_weight[:3])
print(mha.out_proj.weight[0], mha.out_proj.bias)
print(mha.head_dim, mha._qkv_same_embed_dim, mha.bias_k, mha.batch_first)

x = torch.randn(4, 3, 8)
out, w = mha(x, x, x)
print(out.shape, w.shape)
print(out[0])
print(w[1])
out2, w2 = mha(x, x, x, average_attn_weights=False)
print(w2.shape)
print(w2[0, 1])
print(torch.allclose(w2.mean(dim=1), w))

causal = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
oc, wc = mha(x, x, x, attn_mask=causal)
print(wc[0])
fmask = nn.Transformer.generate_square_subsequent_mask(4)
print(fmask)
of, wf = mha(x, x, x, attn_mask=fmask)
print(torch.equal(of, oc), torch.equal(wf, wc))

kpm = torch.tensor([[False, False, False, True], [False, False, True, True], [False, False, False, False]])
ok, wk = mha(x, x, x, key_padding_mask=kpm)
print(wk[1])
print(ok[:, 1])
ok2, wk2 = mha(x, x, x, key_padding_mask=kpm, attn_mask=causal, need_weights=False)
print(wk2, ok2[2])
fkpm = torch.zeros(3, 4).masked_fill(kpm, float('-inf'))
ok3, _ = mha(x, x, x, key_padding_mask=fkpm, attn_mask=fmask)
print(torch.equal(ok3, ok2))

ou, wu = mha(x[:, 0], x[:, 0], x[:, 0])
print(ou.shape, wu.shape, torch.equal(ou, out[:, 0]))

out.sum().backward()
print(mha.in_proj_weight.grad[8:10])
print(mha.in_proj_bias.grad)
print(mha.out_proj.bias.grad)

torch.manual_seed(1)
mbf = nn.MultiheadAttention(6, 3, batch_first=True)
q = torch.randn(2, 5, 6)
kv = torch.randn(2, 7, 6)
ob, wb = mbf(q, kv, kv)
print(ob.shape, wb.shape)
print(ob[1, 0])
m3 = torch.zeros(6, 5, 7)
m3[:, :, -1] = float('-inf')
ob3, wb3 = mbf(q, kv, kv, attn_mask=m3)
print(wb3[0, 0])
