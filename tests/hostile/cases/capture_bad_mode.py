# expect: exit=1 stderr="Unrecognized mode=fastest"
import torch

f = torch.compile(lambda x: x + 1, mode="fastest")
