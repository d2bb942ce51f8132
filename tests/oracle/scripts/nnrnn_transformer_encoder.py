# covers: nn.TransformerEncoderLayer (relu / 'gelu' / callable activation, norm_first, batch_first),
# nn.TransformerEncoder (cloned layers, final norm), repr, parameter names, forward with square
# subsequent mask and key padding mask, train-mode dropout, eval, backward
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1)
print(layer)
print(layer.activation_relu_or_gelu, layer.activation is F.relu, layer.norm_first)
enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8))
print(enc)
names = [n for n, _ in enc.named_parameters()]
print(len(names), names[:6], names[-4:])
print(torch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight),
      enc.layers[0].linear1.weight is enc.layers[1].linear1.weight)
print(enc.num_layers, enc.enable_nested_tensor, enc.mask_check)

src = torch.randn(5, 3, 8)
mask = nn.Transformer.generate_square_subsequent_mask(5)
torch.manual_seed(1)
out = enc(src, mask=mask)
print(out.shape)
print(out[0])
out.sum().backward()
print(enc.layers[1].self_attn.in_proj_weight.grad[0])
print(enc.layers[0].linear2.bias.grad)

enc.eval()
kpm = torch.tensor([[False] * 5, [False, False, False, True, True], [False, False, False, False, True]])
oe = enc(src, src_key_padding_mask=kpm)
print(oe[:, 1])
with torch.no_grad():
    oe2 = enc(src, mask=mask)
print(oe2[4])

torch.manual_seed(2)
gl = nn.TransformerEncoderLayer(6, 3, 12, dropout=0.0, activation='gelu', batch_first=True, norm_first=True)
print(gl, gl.activation_relu_or_gelu, gl.activation is F.gelu)
xb = torch.randn(2, 4, 6)
yb = gl(xb, src_mask=torch.triu(torch.ones(4, 4, dtype=torch.bool), 1))
print(yb[1])
yu = gl(xb[0])
print(yu.shape)

torch.manual_seed(3)
cl = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation=nn.GELU())
print(cl, cl.activation_relu_or_gelu)
cl2 = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, activation=torch.tanh)
print(cl2.activation_relu_or_gelu)
print(cl(torch.randn(3, 1, 4)).squeeze(1))
try:
    nn.TransformerEncoderLayer(4, 2, activation='swish')
except RuntimeError as e:
    print('RuntimeError:', e)
