# expect: exit=1 stderr="os" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(os)\b"
import os
print(os)
