# covers: while loops in small algorithms (gcd, binary search, Collatz, Newton sqrt, bubble sort), break/continue inside while, while-based early stopping
import torch

torch.manual_seed(0)


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def bsearch(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def newton_sqrt(v, tol=1e-12):
    x = v
    it = 0
    while abs(x * x - v) > tol:
        x = 0.5 * (x + v / x)
        it += 1
    return x, it


def bubble(xs):
    xs = list(xs)
    swapped = True
    while swapped:
        swapped = False
        for i in range(len(xs) - 1):
            if xs[i] > xs[i + 1]:
                xs[i], xs[i + 1] = xs[i + 1], xs[i]
                swapped = True
    return xs


print(gcd(48, 18), gcd(17, 5), gcd(0, 9))
data = [1, 3, 5, 7, 9, 11]
print([bsearch(data, t) for t in (1, 7, 11, 4)])
print([collatz(n) for n in range(1, 12)], collatz(27))
print(newton_sqrt(2.0), newton_sqrt(144.0))
print(bubble([5, 2, 9, 1, 5, 6]))
best, patience, bad, epoch = float("inf"), 3, 0, 0
losses = [1.0, 0.8, 0.7, 0.72, 0.71, 0.75, 0.69, 0.9, 0.95, 0.99, 1.2]
while epoch < len(losses):
    l = losses[epoch]
    epoch += 1
    if l < best:
        best, bad = l, 0
        continue
    bad += 1
    if bad >= patience:
        print("early stop at epoch", epoch)
        break
print("best", best, "epochs run", epoch)
