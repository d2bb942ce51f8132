# A model split over a package: absolute and relative imports, a submodule bound on its package,
# `from pkg import submodule`, and the package's own __init__ re-exporting names.
import torch

import tinynet
from tinynet import Block, layers
from tinynet.utils import count_params
import tinynet.utils as tu

torch.manual_seed(0)
net = tinynet.TinyNet(8, 2)
print(net)
print(tinynet.__name__, layers.__name__, tu.__name__, tinynet.utils is tu, Block is layers.Block)
print(tinynet.__package__, layers.__package__)
print("params", count_params(net))
x = torch.randn(3, 8)
step = torch.compile(net)
with torch.no_grad():
    y = step(x)
    print(y.shape, y.dtype)
    print(torch.allclose(y, net(x), atol=1e-5))
print(tinynet.VERSION, tinynet.layers.DEFAULT_WIDTH)
