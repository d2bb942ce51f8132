# expect: exit=1 stderr="RuntimeError: torch.from_file is not available in Fuselab: model scripts cannot read files"
# Operators from LibTorch's registry that read files are refused, like open().
import torch
t = torch.native_channel_shuffle
try:
    t(torch.randn(1, 4, 2, 2), 0)
except RuntimeError as e:
    print(e)
torch.from_file("/etc/passwd", size=4)
