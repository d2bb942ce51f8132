# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(load)\b"
import torch
sd = torch.load('/etc/passwd')
print(sd)
