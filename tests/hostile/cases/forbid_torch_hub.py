# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(hub|load)\b"
import torch
m = torch.hub.load('pytorch/vision', 'resnet18')
print(m)
