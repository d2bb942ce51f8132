import torch

@torch.compile
def f(x, flag):
    if flag:
        y = x + 1
        print("took the True branch")
        return y * 2
    else:
        y = x - 1
        print("took the False branch")
        return y * 3

x = torch.ones(3)
print(f(x, True))
print(f(x, False))
print(f(x, True))
