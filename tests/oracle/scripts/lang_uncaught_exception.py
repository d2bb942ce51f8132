# covers: an uncaught exception after output: stdout up to the error must match and the exit code must be 1
import torch

torch.manual_seed(0)


def check_shapes(shapes):
    for i, s in enumerate(shapes):
        print("checking", i, s)
        if len(s) != 2:
            raise ValueError(f"shape {i} must be 2-D, got {s}")
    return True


print(check_shapes([(1, 2), (3, 4)]))
check_shapes([(1, 2), (3,), (5, 6)])
print("never printed")
