# Two modules of a package that import each other: the second sees the first partly run, and
# names are found when the functions run. A failed import leaves no module behind.
from shapes import circle
from shapes import square

print(circle.area(1.0), square.area(2.0))
print(circle.twice_square(3.0))
print(square.FROM_CIRCLE)
try:
    import shapes.broken
except ZeroDivisionError as e:
    print("broken:", e)
try:
    import shapes.broken
except ZeroDivisionError as e:
    print("broken again:", e)
try:
    from shapes import missing_name
except ImportError as e:
    print(type(e).__name__, e)
try:
    import shapes.nothing_here
except ModuleNotFoundError as e:
    print(type(e).__name__, e)
