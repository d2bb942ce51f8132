# covers: slice bounds and steps past 64 bits clamp as CPython clamps them (lists, tuples, strings,
# ranges, str.find) and tensor slices with huge positive bounds return what PyTorch returns
# (negative ones and huge steps on tensors: tests/compiler/cases/huge_slices.py; torch 1.13 itself
# fails on those)
import torch

big = 10**30
xs = [0, 1, 2, 3, 4, 5]
print(xs[:big], xs[-big:], xs[-big:big], xs[big:], xs[:-big], xs[2:big], xs[-big:-2])
print(xs[::big], xs[1::big], xs[::-big], xs[big::-1], xs[:-big:-1], xs[big:-big:-2], xs[-big:big:4])
print(xs[::2**63], xs[::-2**63], xs[::2**64 + 1], xs[2**63 - 1::-1], xs[-2**63:2])
t = tuple(xs)
print(t[:big], t[-big:3], t[::big], t[::-big], t[big:0:-2])
s = "abcdef"
print(s[:big], s[-big:], s[big:], s[::big], s[::-big], s[big::-2], s[-big:-3])
r = range(2, 14, 2)
print(r[:big], r[-big:], r[big:], r[-big:-2], r[big::-1], list(r[:big]))
print(s.find("c", -big, big), s.find("c", big), s.find("a", -big), s.rfind("f", 0, big))
ys = list(xs)
ys[:big] = [9]
print(ys)
ys = list(xs)
ys[-big:2] = [7, 7, 7]
print(ys)
ys = list(xs)
ys[::big] = ["a"]
print(ys)
ys = list(xs)
del ys[::big]
print(ys)
ys = list(xs)
del ys[-big:-3]
print(ys)
ys = list(xs)
del ys[::-big]
print(ys)

x = torch.arange(6.)
print(x[:big], x[big:], x[1:big], x[1:big:2], x[big:big])
m = torch.arange(12).reshape(3, 4)
print(m[:big, 1:big], m[big:].shape, m[1:big, None].shape)
y = torch.zeros(5)
y[:big] = 1
y[3:big] = 2
print(y)
