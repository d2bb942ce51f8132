# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(ops|aten)\b"
import torch
print(torch.ops.aten.add(torch.ones(1), torch.ones(1)))
