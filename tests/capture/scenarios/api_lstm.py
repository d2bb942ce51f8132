import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.LSTM(8, 16, batch_first=True)
head = nn.Linear(16, 2)


@torch.compile
def step(x):
    out, (h, c) = rnn(x)
    return head(out[:, -1]) + h.sum()


x = torch.randn(3, 5, 8)
y = step(x)
print(y.shape, round(y.sum().item(), 3))
