# expect: exit=1 stderr="IndexError"
import torch

torch._dynamo.mark_dynamic(torch.ones(2), 5)
