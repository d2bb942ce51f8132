# dict.keys() and dict.items() are set-like: set operators with sets, lists and other views give
# sets (state-dict code does `sd.keys() - model_keys`). Sorted before printing: set order is not
# the language's.
d = {'a': 1, 'b': 2, 'c': 3}
e = {'b': 20, 'd': 40}
print(sorted(d.keys() - {'a'}))
print(sorted(d.keys() & e.keys()))
print(sorted(d.keys() | e.keys()))
print(sorted(d.keys() ^ e.keys()))
print(sorted(d.keys() - ['c', 'z']))
print(sorted(['a', 'z'] - d.keys()))
print(sorted({'a', 'q'} & d.keys()))
print(sorted(d.items() - {('a', 1)}))
print(sorted(d.items() & {('b', 2), ('b', 3)}))
missing = d.keys() - e.keys()
unexpected = e.keys() - d.keys()
print(type(missing).__name__, sorted(missing), sorted(unexpected))
print(len(d.keys() - set()), 'a' in d.keys(), list(d.keys()))
try:
    d.values() - {1}
except TypeError as err:
    print('TypeError')
