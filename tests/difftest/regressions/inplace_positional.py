# In-place flags passed positionally are the same call as by keyword: F.relu(x, True),
# F.leaky_relu(x, 0.2, True), and so nn.LeakyReLU(0.2, inplace=True) (it passes the flag
# positionally), were dropped from the graph.
import torch.nn as nn


def positional(x):
    y = x * 2
    F.relu(y, True)
    z = x - 1
    F.leaky_relu(z, 0.2, True)
    w = x + 0.5
    F.hardtanh(w, -0.25, 0.25, True)
    v = x * 3
    v.relu_()
    return y, z, w, v


torch.manual_seed(0)
_net = nn.Sequential(nn.Linear(4, 4), nn.LeakyReLU(0.2, inplace=True), nn.Linear(4, 2), nn.ReLU(True))
_check("inplace_positional", positional, torch.compile(positional), [(k, lambda: [torch.randn(3, 4)]) for k in range(3)])
_check("leaky_relu_module", _net, torch.compile(_net), [(k, lambda: [torch.randn(3, 4)]) for k in range(3)])
