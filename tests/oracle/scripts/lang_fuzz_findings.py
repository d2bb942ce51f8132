# Inputs the fuzzers found (2026-12-07): a device string that is not `type[:index]` and an int()
# base outside 2..36 were internal errors or undefined behaviour; PyTorch and Python raise.
import torch
for s in [':pu', 'cpu:x', 'cpu:', 'cpu:99999999999', 'cpu:-1', 'cuda:1', 'cpu:0']:
    try: print(s, repr(torch.device(s)))
    except Exception as e: print(s, type(e).__name__, e)
for b in [97, 1, -1, 37, 0, 36, 2**70, -2**70]:
    try: print(b, int('ff', b))
    except Exception as e: print(b, type(e).__name__, e)
