# Device strings as PyTorch parses them: "cpu:0" is the CPU, a bad index or type is PyTorch's
# RuntimeError (the full list of device types), CUDA is not compiled in.
import torch

for d in ("cpu", "cpu:0", "cuda:x", "cpu:x", "cuda", "cuda:0", "nonsense", "cpu:-1", ":0", "cpu:"):
    try:
        print(d, torch.zeros(1, device=d).device)
    except Exception as e:
        print(d, type(e).__name__, e)
    try:
        dev = torch.device(d)
        print("device", dev, dev.type, dev.index)
    except Exception as e:
        print("device", d, type(e).__name__, e)
for d in ("meta", "mps", "xla:1", "cpu"):
    dev = torch.device(d)
    print(repr(dev), dev.type, dev.index)
print(torch.ones(2).to("cpu:0"), torch.ones(2, device=torch.device("cpu", 0)))
