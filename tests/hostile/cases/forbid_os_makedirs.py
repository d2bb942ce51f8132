# expect: exit=1 stderr_re="PermissionError: os\.makedirs is not available"
from os import makedirs
makedirs("/tmp/fuselab-hostile-should-not-exist")
