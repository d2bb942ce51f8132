# expect: exit=1 stderr="over the model-script limit"
# A registry operator whose result would pass the allocation limit is refused before it runs.
import torch
idx = torch.tril_indices(1000000, 1000000)
