import torch

scale = torch.compile(lambda x, y: x * y + 1)
print(scale(torch.ones(3), torch.ones(3) * 2))
print(scale(torch.ones(3), torch.ones(3) * 3))
print(scale(torch.ones(3, 2), torch.ones(3, 2)))
