# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(load)\b"
import torch
f = getattr(torch, 'load')
print(f('/etc/passwd'))
