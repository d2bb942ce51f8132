# covers: nn.LSTM construction (seeded init), repr, parameter names/shapes, forward with default and
# given (h0, c0), batch_first, unbatched input, backward of .sum(), state_dict keys
import torch
from torch import nn

torch.manual_seed(0)
lstm = nn.LSTM(4, 3)
print(lstm)
for name, p in lstm.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
print(lstm.weight_ih_l0)
print(lstm.bias_hh_l0)

x = torch.randn(5, 2, 4)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out)
print(h)
print(c)

h0 = torch.randn(1, 2, 3)
c0 = torch.randn(1, 2, 3)
out2, (h2, c2) = lstm(x, (h0, c0))
print(out2[-1])
print(torch.equal(out2[-1], h2[0]))

out.sum().backward()
print(lstm.weight_hh_l0.grad)
print(lstm.bias_ih_l0.grad)
print(list(lstm.state_dict().keys()))

torch.manual_seed(1)
lstm_bf = nn.LSTM(input_size=4, hidden_size=3, num_layers=2, batch_first=True)
print(lstm_bf)
xb = torch.randn(2, 5, 4)
ob, (hb, cb) = lstm_bf(xb)
print(ob.shape, hb.shape, cb.shape)
print(ob[:, -1])
print(hb[-1])

xu = torch.randn(6, 4)
ou, (hu, cu) = lstm_bf(xu)
print(ou.shape, hu.shape, cu.shape)
print(hu)
ou2, (hu2, cu2) = lstm_bf(xu, (hu, cu))
print(ou2[0])
print(len(lstm_bf.all_weights), [tuple(w.shape) for w in lstm_bf.all_weights[1]])
print(lstm_bf._flat_weights_names)
