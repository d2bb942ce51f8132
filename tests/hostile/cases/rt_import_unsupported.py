# expect: exit=1 stderr="pickle" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(pickle)\b"
import pickle
print(pickle)
