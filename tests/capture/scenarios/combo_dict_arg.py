import torch

@torch.compile
def apply(cfg):
    y = cfg["x"] * cfg["w"]
    if cfg["mode"] == "add":
        return y + cfg["b"]
    return y * cfg["b"]

x = torch.ones(3)
cfg = {"x": x, "w": torch.full((3,), 2.0), "b": torch.arange(3.0), "mode": "add"}
print(apply(cfg))
cfg["w"] = torch.full((3,), 5.0)
print(apply(cfg))
cfg["mode"] = "mul"
print(apply(cfg))
