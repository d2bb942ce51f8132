# covers: inference under conditions where 1.13 takes its fused "fast paths" (eval mode, no_grad,
# batch_first, even head count): MultiheadAttention self-attention, TransformerEncoderLayer and
# TransformerEncoder with a left-aligned src_key_padding_mask (1.13 converts to a nested tensor and
# pads the output back with zeros, trimmed to the longest sequence). Values agree to float rounding
# (Fuselab computes them with the regular path), so they are printed at 4 decimals.
import warnings
warnings.filterwarnings('ignore')  # 1.13 warns that nested tensors are a prototype
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
enc.eval()
x = torch.randn(3, 5, 8)
with torch.no_grad():
    print(enc(x)[0])
    kpm = torch.tensor([[False] * 4 + [True], [False, False, False, True, True],
                        [False, False, True, True, True]])
    r = enc(x, src_key_padding_mask=kpm)
    print(r.shape)
    print(r[1])
    fk = torch.zeros(3, 5).masked_fill(kpm, float('-inf'))
    print(enc(x, src_key_padding_mask=fk)[2])
    # not left-aligned: no nested conversion in 1.13 either
    kpm2 = torch.tensor([[False] * 5, [False, True, False, True, True], [False, False, True, True, True]])
    r2 = enc(x, src_key_padding_mask=kpm2)
    print(r2.shape, r2[1])
    print(layer(x)[2])
    mha = layer.self_attn
    o, w = mha(x, x, x)
    print(o[1])
    print(w[1])
    o2, w2 = mha(x, x, x, key_padding_mask=kpm, average_attn_weights=False)
    print(o2[2], w2.shape)
# grad enabled: the regular path in 1.13 as well
print(enc(x, src_key_padding_mask=kpm).shape)
