# expect: exit=1 stderr="AssertionError: weights must be finite"
import torch
w = torch.tensor([1.0, float('inf')])
assert torch.isfinite(w).all(), "weights must be finite"
