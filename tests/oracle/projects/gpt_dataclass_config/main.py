# A GPT split over three files as model repositories write it: a dataclass config, the model
# importing it, and this driver: build, compile, a forward with loss and a few training steps.
from dataclasses import asdict, replace

import torch

from config import ModelConfig
from model import TinyGPT

torch.manual_seed(0)
cfg = ModelConfig(n_layer=2)
print(cfg)
print(sorted(asdict(cfg).items())[:3])
model = TinyGPT(cfg)
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
step = torch.compile(model)
idx = torch.randint(0, cfg.vocab_size, (2, cfg.block_size))
tgt = torch.randint(0, cfg.vocab_size, (2, cfg.block_size))
for i in range(3):
    logits, loss = step(idx, tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, round(loss.item(), 3))
print(replace(cfg, n_layer=1).layer_names)
