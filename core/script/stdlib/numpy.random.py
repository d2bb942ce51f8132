# numpy.random as far as Fuselab provides it: seed() only (it checks its argument as numpy does;
# nothing in Fuselab draws from numpy's generator, so there is nothing to seed yet). Drawing numbers
# is an AttributeError that says so: draw with torch's generator instead.
_seed = None


def seed(seed=None):
    global _seed
    if seed is not None:
        values = list(seed) if isinstance(seed, (list, tuple)) else [seed]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'")
            if v < 0 or v > 2 ** 32 - 1:
                raise ValueError("Seed must be between 0 and 2**32 - 1")
    _seed = seed
