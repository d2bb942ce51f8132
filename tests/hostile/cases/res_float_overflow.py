# expect: exit=1 stderr="OverflowError: math range error"
import math
print(math.exp(1000))
