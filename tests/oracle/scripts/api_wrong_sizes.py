# Sizes given wrongly to view/reshape/zeros/expand/repeat/randn/permute/new_zeros: PyTorch's
# TypeErrors, which name the function, the parameter, what it takes and where the bad element is.
import torch

x = torch.ones(2, 3)
for f in (lambda: x.reshape("a"), lambda: torch.zeros("a"), lambda: x.expand("a"), lambda: x.repeat("a"),
          lambda: torch.randn("a"), lambda: torch.ones(2, "a"), lambda: x.view(2, "a"), lambda: torch.zeros([2, 1.5]),
          lambda: x.permute("a"), lambda: x.new_zeros("a"), lambda: torch.rand(2, None), lambda: torch.empty((2, "b"))):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
print(x.new_zeros(2, 3).shape, x.new_zeros((4,)).shape, x.new_full((2,), 3.0), x.new_ones([1, 2]).shape)
print(x.view(torch.tensor(6)).shape, x.reshape([3, torch.tensor(2)]).shape, x.view(-1).shape, torch.zeros([]).shape)
print(x.permute(1, 0).shape, x.permute([1, 0]).shape, x.repeat(2, 1).shape, x.expand(4, 2, 3).shape)
