# covers: torch.Size printing, indexing, slicing, unpacking, equality with tuples, len, numel, iteration, use as shape argument, concatenation
import torch

torch.manual_seed(22)
x = torch.randn(2, 3, 4)
s = x.shape
print(s, repr(s), str(s), type(s).__name__)
print(s[0], s[-1], s[1:], s[:0], len(s), s.numel())
a, b, c = s
print(a, b, c, [d for d in s], list(s), tuple(s))
print(s == (2, 3, 4), s == torch.Size([2, 3, 4]), s != (2, 3), s == [2, 3, 4])
print(torch.Size([5]), torch.Size([]), torch.Size((1, 2)), torch.tensor(1.0).shape, torch.zeros(0).shape)
print(torch.zeros(s).shape, torch.ones(s[1:]).shape, x.view(s[0], -1).shape, torch.randn(*s).shape)
print(s + (5,), (1,) + tuple(s), s[1] * s[2], max(s), sum(s))
print(x.size() == x.shape, x.size(1) == s[1], isinstance(s, tuple), 3 in s, s.index(4) if hasattr(s, "index") else -1)
print(f"shape={s}", f"{tuple(s)}", "x".join(str(d) for d in s))
B, T, C = x.size()
print(B, T, C, torch.zeros(B, C).shape)
