# Modules beside the script: each runs once however often it is imported, a module's
# `if __name__ == "__main__":` block does not run on import, and names resolve at call time.
import torch

import config
import config as cfg2
from model import MLP, make_model
import model

print(config.__name__, model.__name__, __name__)
print(config is cfg2, config.LOADS)
torch.manual_seed(1)
m = make_model()
print(isinstance(m, MLP), m.hidden)
f = torch.compile(m)
x = torch.randn(4, config.WIDTH)
print(f(x).shape, torch.allclose(f(x), m(x)))
config.WIDTH = 99
print(model.width_now())
if __name__ == "__main__":
    print("main runs")
