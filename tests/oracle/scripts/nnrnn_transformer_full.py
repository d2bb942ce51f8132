# covers: nn.TransformerDecoderLayer / nn.TransformerDecoder / nn.Transformer: seeded init incl.
# Transformer._reset_parameters (xavier_uniform_ on every matrix), repr, parameter count, forward
# with tgt mask, memory and padding masks, batch_first, norm_first, custom encoder, backward, errors
import torch
from torch import nn

torch.manual_seed(0)
dl = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)
print(dl)
dec = nn.TransformerDecoder(dl, 2)
print([n for n, _ in dec.named_parameters()][:8])
tgt = torch.randn(4, 2, 8)
mem = torch.randn(6, 2, 8)
tmask = nn.Transformer.generate_square_subsequent_mask(4)
y = dec(tgt, mem, tgt_mask=tmask,
        memory_key_padding_mask=torch.tensor([[False] * 6, [False] * 4 + [True] * 2]))
print(y[3])
y.sum().backward()
print(dec.layers[0].multihead_attn.in_proj_weight.grad[16:18])

torch.manual_seed(1)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1,
                       dim_feedforward=12, dropout=0.1)
print(model)
print(sum(p.numel() for p in model.parameters()), model.d_model, model.nhead, model.batch_first)
print(model.encoder.layers[0].self_attn.in_proj_weight[0])
print(model.decoder.layers[0].linear1.bias[:4])
src = torch.randn(5, 2, 8)
tgt = torch.randn(3, 2, 8)
torch.manual_seed(2)
out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3))
print(out.shape)
print(out[0])
model.eval()
out_e = model(src, tgt, src_key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2]),
              tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
print(out_e[2])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model.train()
torch.manual_seed(3)
loss = model(src, tgt).pow(2).mean()
loss.backward()
opt.step()
print(loss.item())
print(model.encoder.layers[1].linear1.weight[0])

torch.manual_seed(4)
tb = nn.Transformer(d_model=4, nhead=1, num_encoder_layers=1, num_decoder_layers=1,
                    dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True,
                    activation='gelu')
sb = torch.randn(2, 3, 4)
tg = torch.randn(2, 5, 4)
ob = tb(sb, tg)
print(ob.shape)
print(ob[1])

torch.manual_seed(5)
custom = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), 1)
tc = nn.Transformer(d_model=4, nhead=2, num_decoder_layers=1, dim_feedforward=8, dropout=0.0,
                    custom_encoder=custom)
print(tc.encoder is custom, len(tc.decoder.layers))
print(tc(torch.randn(3, 1, 4), torch.randn(2, 1, 4)))
try:
    tc(torch.randn(3, 2, 4), torch.randn(2, 1, 4))
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    tc(torch.randn(3, 1, 4), torch.randn(2, 1, 5))
except RuntimeError as e:
    print('RuntimeError:', e)
