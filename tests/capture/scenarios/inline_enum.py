import enum
import torch


class Act(enum.Enum):
    RELU = 1
    TANH = 2


@torch.compile
def f(x, act):
    if act is Act.RELU:
        return torch.relu(x) * act.value
    return torch.tanh(x) * act.value


x = torch.linspace(-1, 1, 5)
print(f(x, Act.RELU))
print(f(x, Act.TANH))
print(f(x, Act.RELU))
