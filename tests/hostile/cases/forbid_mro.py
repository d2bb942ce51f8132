# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b__subclasses__\b"
# The MRO is readable (numbers' and abc-style checks walk it); the classic sandbox escape from it,
# object.__subclasses__(), is not.
import torch
x = torch.zeros(1)
print(x.__class__.__mro__[-1])
print(x.__class__.__mro__[-1].__subclasses__())
