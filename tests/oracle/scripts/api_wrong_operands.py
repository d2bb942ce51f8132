# Operands of the wrong type for torch's arithmetic, as functions and as methods: PyTorch's
# TypeErrors name the parameter and its position (none for the tensor a method is called on, none
# for keyword-only alpha).
import torch

x = torch.ones(2)
for f in (lambda: torch.add(x, "a"), lambda: x.add("a"), lambda: torch.add(x, 1, alpha="a"), lambda: torch.mul(x, None),
          lambda: x.mul("a"), lambda: torch.div(x, "a"), lambda: torch.sub(x, [1]), lambda: torch.add("a", x),
          lambda: x.sub(object()), lambda: torch.mul(x, {})):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
print(torch.add(x, 2, alpha=3), x.mul(2.5), torch.div(x, 4), torch.rsub(x, 3))
