# expect: exit=1 stderr="cannot import name 'f' from 'importable.cycle_a'"
from importable.cycle_a import f
print(f())
