# covers: nn.Module subclass with __init__/super().__init__(), submodules, Parameters, buffers, plain attributes, forward via __call__, custom extra_repr, nested modules
import torch
from torch import nn
import torch.nn.functional as F


class ScaledResidual(nn.Module):
    def __init__(self, dim, scale=0.5):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.gain = nn.Parameter(torch.ones(dim) * scale)
        self.register_buffer("counter", torch.zeros(1))
        self.scale = scale
        self.name = "res"

    def forward(self, x):
        self.counter += 1
        return x + self.gain * F.gelu(self.fc(x))

    def extra_repr(self):
        return f"scale={self.scale}"


class Net(nn.Module):
    def __init__(self, dim=4, n_blocks=2, n_out=3):
        super().__init__()
        self.blocks = nn.Sequential(*[ScaledResidual(dim) for _ in range(n_blocks)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_out)

    def forward(self, x):
        return self.head(self.norm(self.blocks(x)))

    def num_params(self):
        return sum(p.numel() for p in self.parameters())


torch.manual_seed(37)
net = Net()
print(net)
x = torch.randn(2, 4)
y = net(x)
print(y)
print(torch.equal(y, net.forward(x)), net.num_params(), net.blocks[0].counter, net.blocks[1].name)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()])
print(list(net.state_dict().keys()))
print(net.blocks[0].gain, net.blocks[0].scale)
net.blocks[0].scale = 2.0
print(net.blocks[0])
print(isinstance(net.blocks[0], nn.Module), isinstance(net, Net), type(net.head).__name__)
y.sum().backward()
print(net.blocks[1].gain.grad)
print(net.training, net.blocks[0].training, net.eval().training, net.blocks[0].training)
