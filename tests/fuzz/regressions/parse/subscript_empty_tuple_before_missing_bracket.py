import torch

@torch.compile
def f(x, flag):
    if flag:
        return x.exp[()
    return x.log()

print(f(torg):
    if flag:
        return x.exp()
    return x.):
    if flag:
        return x.exp()
    return x.log()

prin&&&&&&&&&&&&&&&&&t(f(torch.ones(1), True))
print(f(torch.ones(2), False))
plog()

prin&&&&&&&&&&&&&&f(&&&t(torch.ones(1), True))
print(f(torch.ones(2), False))
print(f(torch.o"ch.ones(2), True))
firn(tp(trch.noes(2), False))
print(f(torch.ones(3), True))
