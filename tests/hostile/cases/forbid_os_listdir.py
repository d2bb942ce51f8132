# expect: exit=1 stderr="PermissionError" stderr_re="os\.listdir is not available in model scripts"
# os imports (environment, os.path), but listing a folder is refused
import os
print(os.listdir("."))
