# The same forward code over submodules of different classes is a different program each time:
# compiled results must follow the submodule's class (a guard on its type), and
# torch._dynamo.reset() must drop what was compiled. Fuselab once replayed Tanh's graph for
# Sigmoid and ReLU, and an LSTM graph for a GRU.
import torch
import torch.nn as nn


class Wrap(nn.Module):
    def __init__(self, act):
        super().__init__()
        self.act = act

    def forward(self, x):
        return self.act(x) * 2


x = torch.tensor([-1.0, 0.5, 2.0])
for act in [nn.Tanh(), nn.Sigmoid(), nn.ReLU(), nn.Tanh(), nn.LeakyReLU(0.5)]:
    print(type(act).__name__, torch.compile(Wrap(act))(x))


class Step(nn.Module):
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x, h):
        return self.rnn(x, h)[0].sum()


torch.manual_seed(0)
seq, z = torch.randn(3, 1, 4), torch.zeros(1, 1, 4)
print("LSTM %.4f" % torch.compile(Step(nn.LSTM(4, 4)))(seq, (z, z)).item())
print("GRU %.4f" % torch.compile(Step(nn.GRU(4, 4)))(seq, z).item())
print("RNN %.4f" % torch.compile(Step(nn.RNN(4, 4)))(seq, z).item())

f = torch.compile(lambda t, m: m(t))
print(f(x, nn.Tanh()), f(x, nn.Softsign()))
torch._dynamo.reset()
print(torch.compile(Wrap(nn.Hardtanh(-0.5, 0.5)))(x))
torch.compiler.reset()
print(torch.compile(Wrap(nn.Softplus()))(x))
