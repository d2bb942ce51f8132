# expect: exit=1 nostdout=1 stderr_re="PermissionError: os\.system is not available"
import os
os.system("echo escaped")
