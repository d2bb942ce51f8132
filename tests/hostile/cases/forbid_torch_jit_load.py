# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(jit|load)\b"
import torch
m = torch.jit.load('/etc/passwd')
print(m)
