# covers: hash() of ints, bools, floats and big ints as CPython computes them (modulus 2**61 - 1),
# equal numbers hashing equal, tuples of numbers hashing deterministically, dict/set lookups
# across int, float and bool keys
print(hash(0), hash(1), hash(3), hash(-1), hash(-2), hash(12345678901))
print(hash(True), hash(False))
M = 2 ** 61 - 1
print(hash(M), hash(M + 1), hash(M - 1), hash(-M), hash(2 ** 61), hash(2 ** 64), hash(-(2 ** 64)))
print(hash(10 ** 30), hash(-(10 ** 30)), hash(2 ** 200 + 7))
print(hash(2 ** 63 - 1), hash(-(2 ** 63)), hash(2 ** 63))
print(hash(1.5), hash(-1.5), hash(0.1), hash(-0.0), hash(0.0), hash(2.5e-300), hash(1e300))
print(hash(float('inf')), hash(float('-inf')))
print(hash(3.0) == hash(3), hash(2.0 ** 70) == hash(2 ** 70), hash(-7.0) == hash(-7))
print(hash(1e20) == hash(10 ** 20), hash(0.5), hash(0.25), hash(1 / 3))
print(hash(-1.0), hash(-1) == hash(-2))
for v in [123.456, -0.001, 5e-324, 1.7976931348623157e308, 1e-10, 4503599627370495.5]:
    print(repr(v), hash(v))
print(hash((1, 2)), hash((1, 2)) == hash((1.0, 2.0)), hash(()), hash((0,)), hash((-1,)), hash(((1, 2), 3)))
print(hash((True, 2.5, 10 ** 20)))
d = {1: 'int'}
d[1.0] = 'float'
d[True] = 'bool'
print(d)
s = {0, 0.0, False, 2 ** 64, float(2 ** 64)}
print(len(s))
print({2 ** 70: 'a'}[2.0 ** 70])
print((2 ** 70) == 2.0 ** 70, {(1, 2): 'x'}[(1.0, 2.0)])
print(hash(int(2 ** 61 - 2) * 2), hash(-(2 ** 61 - 1) * 3))

# torch's devices and dtypes are keys by value
import torch

d = {torch.device('cpu'): 1, torch.float32: 'f'}
print(d[torch.device('cpu')], d[torch.float32], torch.device('cpu') in {torch.device('cpu')}, len({torch.device('cpu'), torch.device('cpu')}))
print(hash(torch.device('cpu')) == hash(torch.device('cpu')), hash(torch.float32) == hash(torch.float32))
