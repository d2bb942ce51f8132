# covers: torch._dynamo.graph_break/mark_dynamic/disable/reset and torch.compiler.disable/reset are no-ops in eager and inside compiled code
import torch
import torch._dynamo
from torch import nn

torch.manual_seed(25)
x = torch.randn(4, 3)
torch._dynamo.mark_dynamic(x, 0)
print(x.shape)


@torch.compile
def f(t):
    t = t * 2
    torch._dynamo.graph_break()
    return t + 1


print(f(x))


@torch._dynamo.disable
def eager_only(t):
    return t.sum()


@torch._dynamo.disable(recursive=False)
def eager_shallow(t):
    return t.mean()


@torch.compiler.disable
def helper(t):
    return t.max()


@torch.compiler.disable(recursive=True)
def helper2(t):
    return t.min()


print(eager_only(x), eager_shallow(x), helper(x), helper2(x))
wrapped = torch._dynamo.disable(lambda t: t.abs().sum())
print(wrapped(x), torch.compiler.disable(lambda t: t * 0)(x[0]))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, t):
        h = self.lin(t)
        torch._dynamo.graph_break()
        return helper_relu(h)


@torch.compiler.disable
def helper_relu(h):
    return torch.relu(h)


net = Net()
cnet = torch.compile(net)
print(cnet(x))
print(torch._dynamo.reset(), torch.compiler.reset())
print(torch.allclose(cnet(x), net(x)))
try:
    raise torch._dynamo.exc.Unsupported("graph break in fullgraph mode")
except torch._dynamo.exc.Unsupported as e:
    print("caught Unsupported:", e, isinstance(e, Exception))
