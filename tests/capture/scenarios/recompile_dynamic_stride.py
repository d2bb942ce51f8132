import torch


def scale(x):
    return x * 2 + 1


cscale = torch.compile(scale)
# transposed inputs of two sizes (the second makes dim 0 dynamic), then a row-major input the
# dynamic graph's sizes accept: its strides differ, so it needs a graph of its own
for x in [torch.ones(5, 2).t(), torch.ones(5, 3).t(), torch.ones(4, 5), torch.ones(5, 4).t()]:
    y = cscale(x)
    print(y.shape, y.stride(), y.sum().item())
