# numpy and struct as far as Fuselab provides them: importing both works, numpy.random.seed checks its
# argument as numpy does, the constants, struct.calcsize in every byte order (minGPT's set_seed and
# llama2.c's imports).
import struct
import numpy as np
import numpy.random
np.random.seed(0)
numpy.random.seed(42)
print(np.pi, np.inf, struct.calcsize("<if"), struct.calcsize("@bi"), struct.calcsize("=5s2h"), struct.calcsize("iQb"), struct.Struct("<3f").size)
for bad in [lambda: np.random.seed(-1), lambda: np.random.seed(1.5), lambda: struct.calcsize("z")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
