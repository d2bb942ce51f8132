# sys and os as model code uses them: argv, version_info, stdout/stderr (print(file=...)), exit,
# the environment, os.path string functions and existence checks, cpu_count.
import os
import os.path
import sys
from os.path import join, splitext

print(sys.argv[1:], os.path.basename(sys.argv[0]))
print(sys.version_info >= (3, 8), sys.version_info[:2] == (3, 11), sys.version_info.major, sys.platform, sys.maxsize)
print("hello", file=sys.stderr)
sys.stdout.write("written\n")
print(join("a", "b", "c.py"), join("/x", "/y"), splitext("model.tar.gz"), splitext(".bashrc"), os.path.split("a/b/c"))
print(os.path.dirname("/a/b/c.txt"), os.path.normpath("a//b/../c/./d"), os.path.isabs("/x"), os.path.relpath("/a/b/c", "/a/d"))
print(os.path.exists(sys.argv[0]), os.path.isfile(sys.argv[0]), os.path.isdir(os.path.dirname(os.path.abspath(sys.argv[0]))), os.path.exists("no/such/file"))
print(os.path.expanduser("~/x") == os.path.join(os.environ["HOME"], "x"), os.cpu_count() >= 1)
print(sys.getrecursionlimit())
print(os.path.commonprefix(["/usr/lib", "/usr/local"]))
try:
    sys.exit(3)
except SystemExit as e:
    print("exit", e.code)
