import torch

@torch.compile
def f(x, mode):
    if mode == 'a':
        return x + 1
    return x - 1

for m in ['a', 'b', 'c', 'a']:
    print(f(torch.ones(2), m))
