# itertools and operator: lazy iterators (count and cycle endless), chain, islice, product,
# combinations, permutations, accumulate, zip_longest, groupby, tee, and operator functions.
import itertools
from itertools import chain, count, islice, product, combinations, permutations, accumulate, zip_longest, groupby, cycle, repeat
import operator

print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3]])))
print(list(islice(count(5), 3)), list(islice(count(0, 2), 1, 7, 2)), list(islice("abcdef", 2)))
print(list(product([0, 1], repeat=2)), list(product("ab", [1, 2])))
print(list(combinations(range(4), 2)), list(permutations([1, 2, 3], 2)))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([1, 2, 3], operator.mul)), list(accumulate([1, 2], initial=10)))
print(list(zip_longest([1, 2, 3], "ab", fillvalue="-")))
print([(k, list(g)) for k, g in groupby("aabbbc")])
print(list(islice(cycle([1, 2]), 5)), list(repeat("x", 3)))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(itertools.pairwise([1, 2, 3, 4])), list(itertools.starmap(pow, [(2, 3), (3, 2)])))
print(list(itertools.compress("abcd", [1, 0, 1, 0])), list(itertools.filterfalse(lambda x: x % 2, range(6))))
print(list(itertools.combinations_with_replacement("ab", 2)))
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b))
it = count()
print(next(it), next(it), next(it))
for i, (x, y) in enumerate(zip(count(1), "xyz")):
    print(i, x, y)
