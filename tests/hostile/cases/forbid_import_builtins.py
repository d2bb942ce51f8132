# expect: exit=1 stderr="builtins" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(builtins)\b"
import builtins
print(builtins)
