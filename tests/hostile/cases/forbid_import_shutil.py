# expect: exit=1 stderr="shutil" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(shutil)\b"
import shutil
print(shutil)
