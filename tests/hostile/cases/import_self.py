# expect: exit=0 stdout="3\n"
import importable.self_import
print(importable.self_import.VALUE)
