# teaches: a graph break - a data-dependent branch splits one compiled function into two graphs and a resume frame
# look for: the `if h.sum() > 0:` line marked red: Dynamo cannot trace a branch on a tensor's value, so the graph ends there and the branch taken runs as a resume frame (torch_dynamo_resume_in_forward_at_14)
import torch
from torch import nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)

    def forward(self, x):
        h = torch.relu(self.fc(x))
        if h.sum() > 0:
            return torch.sigmoid(h) * x
        return torch.tanh(h) - x


torch.manual_seed(0)
model = Gate()
compiled = torch.compile(model)
x = torch.randn(16, 64)
y = compiled(x)
y = compiled(x)
print(torch.allclose(y, model(x), atol=1e-5))
