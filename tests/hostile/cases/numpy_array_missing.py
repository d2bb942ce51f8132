# expect: exit=1 stderr="AttributeError: module 'numpy' has no attribute 'array' (Fuselab's numpy has only numpy.random.seed"
# What Fuselab's numpy lacks is a clear AttributeError that says what there is, never a wrong value.
import numpy as np
np.random.seed(0)
a = np.array([1, 2, 3])
