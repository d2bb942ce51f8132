# covers: if/elif/else, nested conditions, conditional expressions, pass, truthiness of values
import torch

torch.manual_seed(0)


def classify(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    elif n % 2 == 0:
        return "even"
    else:
        return "odd"


for n in [-3, 0, 1, 2, 15, 100]:
    print(n, classify(n))

for v in [0, 1, -1, 0.0, 2.5, "", "a", [], [0], (), {}, {"k": 1}, None, True, False]:
    if v:
        print(repr(v), "truthy")
    else:
        print(repr(v), "falsy")

x = 7
label = "big" if x > 5 else "small"
print(label, "yes" if x % 7 == 0 else "no", ("a" if x < 0 else "b" if x < 10 else "c"))
if x > 0:
    if x > 100:
        print("huge")
    else:
        pass
    print("positive")
if not x == 8 and not (x < 0):
    print("not eight, not negative")
lr = 0.001
schedule = "warmup" if lr < 0.01 else ("cosine" if lr < 0.1 else "constant")
print(schedule)
