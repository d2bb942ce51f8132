# covers: printing large tensors summarised with ... (threshold 1000, edgeitems 3) for 1-D, 2-D, 3-D, int and float, and just-below-threshold tensors
import torch

torch.manual_seed(20)
print(torch.arange(1000))
print(torch.arange(1001))
print(torch.randn(2000))
print(torch.randn(40, 30))
print(torch.arange(3000).view(10, 300))
print(torch.randn(12, 10, 10))
print(torch.randn(1001, 1).shape, torch.randn(1001, 1)[:2])
print(torch.zeros(100, 100))
print(torch.ones(5, 300, dtype=torch.int64) * 7)
print(torch.linspace(0, 1, 1200)[::300])
print(torch.randint(0, 2, (2000,)).bool())
big = torch.randn(1000, 1000)
print(big.shape, f"{big.mean().item():.4f}", f"{big.std().item():.4f}")
