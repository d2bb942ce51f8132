# covers: subscripts and slices on lists, tuples and strings: negative indices, steps, omitted bounds, slice assignment
import torch

torch.manual_seed(0)
xs = list(range(10))
print(xs[0], xs[-1], xs[-3])
print(xs[2:5], xs[:3], xs[7:], xs[:], xs[-3:], xs[:-3])
print(xs[::2], xs[1::3], xs[::-1], xs[8:2:-2], xs[-1:-4:-1])
print(xs[5:2], xs[100:], xs[-100:2], xs[3:-3:2])
t = (1, 2, 3, 4)
print(t[1:3], t[::-1], t[-2])
s = "transformer"
print(s[0], s[-1], s[:5], s[5:], s[::-1], s[1:8:3])
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print(m[1][2], m[-1][-1], m[0][1:], [row[1] for row in m])
ys = list(range(6))
ys[1:3] = ["a", "b", "c"]
print(ys)
ys[::2] = [0, 0, 0, 0][:len(ys[::2])]
print(ys)
ys[-1] = "end"
print(ys)
zs = [1, 2, 3]
zs[len(zs):] = [4, 5]
print(zs, zs[-2:])
print("abc"[5:], [][:3], (1,)[0:1])
n = 4
print(xs[n - 1:n + 2], xs[:n * 2:n])
