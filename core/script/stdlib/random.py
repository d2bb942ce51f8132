# random, written in the script language over the interpreter's Mersenne Twister (_mt), drawing
# numbers the way CPython 3.11's module does, so random.seed(n) gives python3's sequence: random,
# getrandbits, randrange, randint, choice, choices, shuffle, sample, uniform, gauss,
# normalvariate, expovariate, and Random instances.
import math as _math

_NV_MAGICCONST = 4 * _math.exp(-0.5) / _math.sqrt(2.0)
_TWOPI = 2.0 * _math.pi


class Random:
    def __init__(self, x=None):
        self._seed_fn, self._gen32, self.random = _mt()
        self.gauss_next = None
        self.seed(x)

    def seed(self, a=None, version=2):
        if a is None:
            a = 0
        elif isinstance(a, float):
            a = hash(a)
        elif isinstance(a, bool):
            a = int(a)
        elif not isinstance(a, int):
            raise TypeError("The only supported seed types are: None, int, float (model scripts)")
        self._seed_fn(a)
        self.gauss_next = None

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._gen32() >> (32 - k) if k else 0
        out = 0
        shift = 0
        while k > 0:
            r = self._gen32()
            if k < 32:
                r >>= 32 - k
            out += r * 2 ** shift  # arithmetic: bitwise operations stop at 64 bits here
            shift += 32
            k -= 32
        return out

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        istart = int(start)
        if stop is None:
            if istart > 0:
                return self._randbelow(istart)
            raise ValueError("empty range for randrange()")
        istop = int(stop)
        width = istop - istart
        istep = int(step)
        if istep == 1:
            if width > 0:
                return istart + self._randbelow(width)
            raise ValueError("empty range for randrange() (%d, %d, %d)" % (istart, istop, width))
        if istep > 0:
            n = (width + istep - 1) // istep
        elif istep < 0:
            n = (width + istep + 1) // istep
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return istart + istep * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _math.ceil(_math.log(k * 3, 4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        n = len(population)
        if cum_weights is None:
            if weights is None:
                return [population[_math.floor(self.random() * n)] for i in range(k)]
            cum_weights = []
            total = 0.0
            for w in weights:
                total += w
                cum_weights.append(total)
        total = cum_weights[-1] + 0.0
        hi = n - 1
        out = []
        for i in range(k):
            x = self.random() * total
            lo, h = 0, hi
            while lo < h:
                mid = (lo + h) // 2
                if x < cum_weights[mid]:
                    h = mid
                else:
                    lo = mid + 1
            out.append(population[lo])
        return out

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * _TWOPI
            g2rad = _math.sqrt(-2.0 * _math.log(1.0 - self.random()))
            z = _math.cos(x2pi) * g2rad
            self.gauss_next = _math.sin(x2pi) * g2rad
        return mu + z * sigma

    def normalvariate(self, mu=0.0, sigma=1.0):
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = _NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -_math.log(u2):
                break
        return mu + z * sigma

    def expovariate(self, lambd):
        return -_math.log(1.0 - self.random()) / lambd


_inst = Random()
seed = _inst.seed
random = _inst.random
getrandbits = _inst.getrandbits
randrange = _inst.randrange
randint = _inst.randint
choice = _inst.choice
choices = _inst.choices
shuffle = _inst.shuffle
sample = _inst.sample
uniform = _inst.uniform
gauss = _inst.gauss
normalvariate = _inst.normalvariate
expovariate = _inst.expovariate
