import random
random.seed(5)
vals = [0, 1, -1, 5, -5, 2**31, -2**31, 2**32 - 1, -(2**32), 2**63 - 1, -2**63, 2**64, -(2**64) + 3,
        2**70 + 12345, -(2**70) - 99, 2**128 - 1, -(2**128), 3**50, -(3**50)]
vals += [random.getrandbits(200) - 2**199 for _ in range(20)]
acc = 0
for a in vals:
    for b in vals:
        acc ^= ((a & b) ^ (a | b) ^ (a ^ b)) & 0xffff
        assert (a & b) + (a | b) == a + b
print(acc, ~(2**70), ~(-(2**70)), (2**70) & -1, (-(2**100)) | 1, (2**100) ^ (2**100))
print(sum((a & b) % 1000003 + (a | b) % 1000003 + (a ^ b) % 1000003 for a in vals for b in vals))
try:
    (2**70) @ 3
except TypeError as e:
    print(e)
