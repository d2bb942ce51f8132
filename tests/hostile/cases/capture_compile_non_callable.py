# expect: exit=1 stderr="TypeError"
import torch

torch.compile(42)
