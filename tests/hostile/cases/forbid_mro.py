# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__class__|__mro__)\b"
import torch
x = torch.zeros(1)
print(x.__class__.__mro__)
