# `from m import *` binds the names in m.__all__ (a private one too) and nothing else; list and
# tuple .index honour start and end.
from exported import *

print(make_encoder().width, Encoder(2).width, _private_but_listed)
try:
    helper_not_exported()
except NameError as e:
    print("NameError:", e)

xs = [1, 2, 1, 2, 1]
print(xs.index(1), xs.index(1, 1), xs.index(2, 2, 4), xs.index(1, -1), xs.index(2, -4, -2))
for args in [(2, 4, 5), (3,), (1, 10, 20)]:
    try:
        xs.index(*args)
    except ValueError as e:
        print("ValueError:", e)
t = ("a", "b", "a")
print(t.index("a", 1), t.index("b", 0, 2))
try:
    t.index("b", 2)
except ValueError as e:
    print("ValueError:", e)
