# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(from_file)\b"
import torch
t = torch.from_file('/etc/passwd', size=16, dtype=torch.uint8)
print(t)
