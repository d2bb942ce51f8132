# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__dict__)\b"
import torch
print(len(torch.__dict__))
