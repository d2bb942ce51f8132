# expect: exit=1 stderr="SyntaxError" stderr_re="bad_syntax\.py, line 1"
import importable.bad_syntax
