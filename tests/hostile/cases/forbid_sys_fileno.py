# expect: exit=1 stderr_re="OSError: model scripts have no file descriptors"
import sys
sys.stdout.fileno()
