# covers: import, import ... as, from ... import ..., from ... import ... as, module attribute access
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import nn as tnn
from torch.nn import Linear, ReLU as Rectifier
from torch.nn.functional import relu, softmax as sm
from math import floor, ceil as ceiling
import torch.optim as optim
from torch.optim import SGD

torch.manual_seed(3)
print(nn is tnn, Linear is nn.Linear, Rectifier is nn.ReLU, relu is F.relu, sm is F.softmax)
print(floor(2.5), ceiling(2.5), math.floor(-0.5))
x = torch.tensor([-1.0, 0.0, 2.0])
print(relu(x), Rectifier()(x), sm(x, dim=0))
lin = Linear(3, 1)
opt = SGD(lin.parameters(), lr=0.1)
print(type(opt).__name__, optim.SGD is SGD, isinstance(opt, optim.Optimizer))
print(lin(x).shape, torch.nn.functional.gelu(x))
import torch.nn.functional
print(torch.nn.functional.silu(x))


def local_import():
    import math as m2
    from torch import zeros
    return m2.sqrt(9), zeros(2)


print(local_import())
