# expect: exit=1 stderr_re="PermissionError: os\.path\.getsize is not available"
import os.path
print(os.path.exists("/etc/hostname") in (True, False))
os.path.getsize("/etc/hostname")
