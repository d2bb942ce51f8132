# os, written in the script language: the environment (read), os.path and what a model script may
# know of the machine. Nothing here writes, lists or opens files, or starts processes: those
# functions raise PermissionError. _environ, _stat, _getcwd and _cpu_count come from the
# interpreter (core/script/stdlib.cpp).
import os.path as path

name = "posix"
sep = "/"
altsep = None
extsep = "."
pathsep = ":"
linesep = "\n"
curdir = "."
pardir = ".."
devnull = "/dev/null"
environ = _environ()


def getenv(key, default=None):
    return environ.get(key, default)


def getcwd():
    return _getcwd()


def cpu_count():
    return _cpu_count()


def getpid():
    return 1


def fspath(p):
    if isinstance(p, str):
        return p
    raise TypeError("expected str, not %s" % type(p).__name__)


def _refuse(what):
    def refused(*args, **kwargs):
        raise PermissionError("os.%s is not available in model scripts: a model script cannot touch files, processes or the network" % what)
    refused.__name__ = what
    return refused


listdir = _refuse("listdir")
scandir = _refuse("scandir")
walk = _refuse("walk")
mkdir = _refuse("mkdir")
makedirs = _refuse("makedirs")
remove = _refuse("remove")
unlink = _refuse("unlink")
rmdir = _refuse("rmdir")
removedirs = _refuse("removedirs")
rename = _refuse("rename")
replace = _refuse("replace")
system = _refuse("system")
popen = _refuse("popen")
open = _refuse("open")
fdopen = _refuse("fdopen")
chdir = _refuse("chdir")
chmod = _refuse("chmod")
chown = _refuse("chown")
symlink = _refuse("symlink")
link = _refuse("link")
kill = _refuse("kill")
fork = _refuse("fork")
execv = _refuse("execv")
execve = _refuse("execve")
execvp = _refuse("execvp")
spawnv = _refuse("spawnv")
putenv = _refuse("putenv")
unsetenv = _refuse("unsetenv")
truncate = _refuse("truncate")
utime = _refuse("utime")
stat = _refuse("stat")
lstat = _refuse("lstat")
access = _refuse("access")
