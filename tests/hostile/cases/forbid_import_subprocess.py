# expect: exit=1 stderr="subprocess" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(subprocess)\b"
import subprocess
print(subprocess)
