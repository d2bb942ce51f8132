# numpy, as far as Fuselab provides it so far: what model code touches when it imports numpy for
# seeding or constants (minGPT's set_seed calls numpy.random.seed; llama2.c imports numpy for its
# export code). Arrays are not here yet: any other name is an AttributeError that says so (the
# interpreter's message for a missing numpy name). numpy itself is a compiled extension, which
# model scripts cannot load, so this module stands in for it.
import numpy.random as random

pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None
