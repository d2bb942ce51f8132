# covers: recursive functions, mutual recursion, recursion over nested data, memoisation with a dict
import torch

torch.manual_seed(0)


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def fib(n, memo={}):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib(n - 1) + fib(n - 2)
    memo[n] = r
    return r


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def flatten(xs):
    out = []
    for x in xs:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


def depth(xs):
    if not isinstance(xs, list):
        return 0
    return 1 + max([depth(x) for x in xs], default=0)


print([fact(i) for i in range(8)], fact(20))
print([fib(i) for i in range(15)], fib(80))
print(is_even(10), is_odd(7), is_even(301))
tree = [1, [2, [3, [4, 5]], 6], [[7]]]
print(flatten(tree), depth(tree), depth([]))


def hanoi(n, a="A", b="B", c="C", moves=None):
    if moves is None:
        moves = []
    if n > 0:
        hanoi(n - 1, a, c, b, moves)
        moves.append(a + c)
        hanoi(n - 1, b, a, c, moves)
    return moves


print(len(hanoi(6)), hanoi(2))


def deep(n):
    return 0 if n == 0 else 1 + deep(n - 1)


print(deep(500))
