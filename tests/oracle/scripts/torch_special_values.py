# covers: nan/inf in tensors: creation, arithmetic, reductions (sum/max/mean with nan), softmax with -inf rows, nan_to_num, clamp of inf, item of nan
import torch
import math

torch.manual_seed(0)
x = torch.tensor([1.0, float("nan"), 3.0])
print(x, x.sum(), x.max(), x.mean(), torch.nan_to_num(x, nan=0.0))
y = torch.tensor([float("inf"), -float("inf"), 0.0])
print(y, y * 0, y + y, y - y, y.exp(), torch.sigmoid(y), y.clamp(-1, 1), y.abs())
print(torch.softmax(torch.tensor([float("-inf"), float("-inf")]), 0), torch.softmax(torch.tensor([0.0, float("-inf")]), 0))
print(torch.tensor(float("nan")).item(), math.isnan(torch.tensor(float("nan")).item()), torch.tensor(float("inf")).item())
print(torch.tensor([1e38]) * 10, torch.tensor([1e-45]), torch.tensor([1e-46]), torch.tensor([-1e-45]) * 0.5)
print(torch.log(torch.tensor([0.0])), torch.tensor([1.0]) / torch.tensor([0.0]), torch.tensor([0]) // torch.tensor([1]))
print(torch.isnan(x).any().item(), (x == x).tolist(), torch.tensor([float("nan")]) != torch.tensor([float("nan")]))
print(torch.max(torch.tensor([float("nan"), 1.0]), dim=0), torch.argmax(torch.tensor([1.0, float("nan"), 2.0])))
print(torch.tensor([math.pi, math.e]), torch.tensor([math.pi], dtype=torch.float64).item())
