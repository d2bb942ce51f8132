# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(save)\b" nofile="/tmp/fuselab_hostile_saved.pt"
import torch
torch.save(torch.zeros(2), '/tmp/fuselab_hostile_saved.pt')
