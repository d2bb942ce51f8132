import dataclasses
import torch


@dataclasses.dataclass
class Cfg:
    scale: float = 2.0
    shift: int = 1


@torch.compile
def f(x, cfg):
    inner = Cfg(scale=cfg.scale * 2)
    return x * inner.scale + inner.shift


x = torch.ones(3)
print(f(x, Cfg()))
print(f(x, Cfg()))
print(f(x, Cfg(scale=3.0)))
