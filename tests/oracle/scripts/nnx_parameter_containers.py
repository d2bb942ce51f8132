# nn.ParameterList and nn.ParameterDict (reprs, registration, Parameters from tensors, a plain dict
# taken in sorted key order, gradients, state_dict keys, errors) and torch.nn.parameter.
import torch
import torch.nn as nn
from collections import OrderedDict
from torch.nn.parameter import Parameter
import torch.nn.parameter

torch.manual_seed(0)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.randn(2, 3)), torch.zeros(3)])
        self.ws.append(torch.ones(2))
        self.pd = nn.ParameterDict({"b": torch.ones(2), "a": nn.Parameter(torch.zeros(1, 2))})
        self.pd["c"] = torch.full((2,), 3.0)

    def forward(self, x):
        y = x @ self.ws[0] + self.ws[1]
        return y.sum() + self.pd["a"].sum() + sum(p.sum() for p in self.ws)


m = M()
print(m)
print([n for n, _ in m.named_parameters()])
print(len(m.ws), len(m.pd), "a" in m.pd, list(m.pd.keys()), isinstance(m.ws[2], nn.Parameter))
print(m.ws[-1], m.ws[1:][0].shape, m.pd.get("zz", 5))
out = m(torch.ones(1, 2))
out.backward()
print(out, m.ws[0].grad, m.pd["a"].grad)
pd2 = nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("y", torch.zeros(1))]))
print(list(pd2.keys()), pd2.pop("z"), list(pd2))
print(list(m.state_dict().keys()))
for bad in [lambda: m.ws[5], lambda: m.pd[3], lambda: nn.ParameterList().extend(torch.ones(2))]:
    try:
        bad()
    except (IndexError, TypeError) as e:
        print(type(e).__name__, e)
print(Parameter is nn.Parameter, torch.nn.parameter.Parameter is nn.Parameter)
