# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(subprocess)\b"
import subprocess as sp
sp.run(['true'])
