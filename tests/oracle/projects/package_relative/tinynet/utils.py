import torch

SCALE = 0.5


def init_linear(m):
    with torch.no_grad():
        m.weight.mul_(0.5)
        m.bias.zero_()


def count_params(model):
    return sum(p.numel() for p in model.parameters())
