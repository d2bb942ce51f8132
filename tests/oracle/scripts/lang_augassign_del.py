# covers: augmented assignment (+= -= *= /= //= %= **=) on ints/floats/lists/strings, del of names/items/slices/keys
import torch

torch.manual_seed(0)
x = 10
x += 5
print(x)
x -= 3
print(x)
x *= 2
print(x)
x /= 8
print(x)
x **= 2
print(x)
y = 17
y //= 5
print(y)
y %= 2
print(y)
z = -7
z //= 2
print(z)
f = 2.5
f *= 4
f -= 0.5
print(f)
s = "ab"
s += "cd"
s *= 2
print(s)
lst = [1, 2]
alias = lst
lst += [3]
print(lst, alias, lst is alias)
t = (1,)
t += (2, 3)
print(t)
d = {"a": 1}
d["a"] += 10
d["b"] = d.get("b", 0) + 1
print(d)
arr = [0, 0, 0]
for i in range(3):
    arr[i] += i * i
print(arr)

data = [0, 1, 2, 3, 4, 5, 6]
del data[0]
print(data)
del data[-1]
print(data)
del data[1:3]
print(data)
del data[::2]
print(data)
cfg = {"lr": 0.1, "wd": 0.0, "name": "adam"}
del cfg["wd"]
print(cfg)
tmp = 42
del tmp
try:
    print(tmp)
except NameError as e:
    print("NameError:", e)
a, b = 1, 2
del a, b
try:
    print(a + b)
except NameError as e:
    print("after del:", e)
