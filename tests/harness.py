"""Shared pieces of the test harnesses: arguments, the fuselab binary, `ok` / `FAIL` lines, and
running a program many times through fork servers (`Runner`)."""
import argparse
import atexit
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import threading

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_PYTHON = "/usr/bin/python3"
RUN_WITH_TORCH = os.path.join(REPO, "tests", "oracle", "run_with_torch.py")


def parse_args(doc, noun):
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--fuselab", required=True, help="path to the fuselab binary")
    ap.add_argument("--jobs", type=int, default=2, help="%s run in parallel (default 2)" % noun)
    ap.add_argument("--filter", default=None, help="only %s whose path contains SUBSTR" % noun)
    return ap.parse_args()


def resolve_fuselab(path):
    """Absolute path of an executable fuselab binary, or None after printing why not."""
    fuselab = path
    if os.sep not in fuselab:
        fuselab = shutil.which(fuselab) or fuselab
    fuselab = os.path.abspath(fuselab)
    if not os.path.isfile(fuselab):
        print("error: fuselab binary not found: %s (build it first, then pass --fuselab PATH)" % path, file=sys.stderr)
        return None
    if not os.access(fuselab, os.X_OK):
        print("error: fuselab binary is not executable: %s" % fuselab, file=sys.stderr)
        return None
    return fuselab


def blas_env(fuselab):
    """{"OPENBLAS_CORETYPE": the OpenBLAS kernels fuselab runs} ({} when it does not say): fuselab has
    OpenBLAS choose again where it fell back to its Prescott kernels (core/runtime/blas.h), and a
    matmul on other kernels differs in its last bits, so the PyTorch reference runs on the same ones."""
    try:
        out = subprocess.run([fuselab, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    for line in out.splitlines():
        if line.startswith("blas: "):
            core = line[len("blas: "):].strip()
            if core and " " not in core and core != "OpenBLAS":
                return {"OPENBLAS_CORETYPE": core}
    return {}


class Checks:
    """Prints each check as `ok NAME` or `FAIL NAME: why` and counts them."""

    def __init__(self):
        self.passed = self.failed = 0

    def report(self, name, ok, why=""):
        if ok:
            self.passed += 1
            print("ok " + name, flush=True)
        else:
            self.failed += 1
            print("FAIL %s: %s" % (name, why), flush=True)

    def summary(self):
        """Prints `N passed, M failed`; returns the exit status (1 when something failed)."""
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


class Completed:
    """What a run gave: returncode (negative: killed by that signal, as subprocess says it), stdout
    and stderr (bytes), timed_out (killed for time; returncode is then the kill's)."""
    __slots__ = ("returncode", "stdout", "stderr", "timed_out")

    def __init__(self, returncode, stdout=b"", stderr=b"", timed_out=False):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out


def as_text(data):
    """Bytes as subprocess's text=True gives them: the locale's encoding, universal newlines."""
    import locale
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def run_process(argv, cwd=None, env=None, timeout=None):
    """argv as a fresh process in a session of its own, stdin from /dev/null; on timeout its
    process group is killed."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return Completed(proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = proc.communicate()
        return Completed(proc.returncode, out, err, timed_out=True)


def servers_enabled():
    """False when FUSELAB_TEST_NO_SERVER is set (to anything but 0): every run a fresh process."""
    return os.environ.get("FUSELAB_TEST_NO_SERVER", "") in ("", "0")


class _Server:
    """One fork server: a request line in, a reply line out (app/serve.h has the protocol)."""

    def __init__(self, argv, env):
        # buffered pipes: readline on an unbuffered one reads a byte per system call (a reply of
        # 10 MB of output took 40 s)
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, request):
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise OSError("the fork server %s exited (status %s)" % (self.proc.args[0], self.proc.poll()))
        return json.loads(line)

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


class Runner:
    """Runs `PROGRAM ARGS...` as subprocess would, but through fork servers: a server (server_argv)
    loads once (fuselab: LibTorch's ~0.8 s in the dynamic linker; python3: `import torch`) and forks
    a child per run, which runs exactly what a fresh `PROGRAM ARGS...` runs, in its own session,
    with the run's cwd and environment, stdout and stderr captured, killed with its process group
    at the timeout; a crash shows as a negative returncode as a fresh process's does. One server
    per run in flight (each harness job gets its own). What the server read while loading cannot
    change in a child: `late_env` names the variables a program reads only after it started, and
    runs whose other variables differ go to servers started with those. With
    FUSELAB_TEST_NO_SERVER=1, or run(fresh=True), a run is a fresh process (run_process)."""

    def __init__(self, program, server_argv, late_env=()):
        self.program = list(program)
        self.server_argv = list(server_argv)
        self.late_env = frozenset(late_env)
        self.use_servers = servers_enabled()
        self._idle = {}  # key -> [_Server]
        self._all = []
        self._lock = threading.Lock()
        atexit.register(self.close)

    def run(self, args, cwd=None, env=None, timeout=None, fresh=False):
        env = dict(os.environ if env is None else env)
        if fresh or not self.use_servers:
            return run_process(self.program + list(args), cwd=cwd, env=env, timeout=timeout)
        server_env = {k: v for k, v in env.items() if k not in self.late_env}
        key = tuple(sorted(server_env.items()))
        with self._lock:
            idle = self._idle.setdefault(key, [])
            server = idle.pop() if idle else None
        if server is None:
            server = _Server(self.server_argv, server_env)
            with self._lock:
                self._all.append(server)
        request = {"argv": [str(a) for a in args], "cwd": os.path.abspath(cwd or os.getcwd()), "env": env,
                   "timeout": float(timeout or 0)}
        try:
            reply = server.ask(request)
        except (OSError, ValueError):
            with self._lock:
                self._all.remove(server)
            server.close()
            raise
        with self._lock:
            self._idle[key].append(server)
        if "error" in reply:
            raise OSError("fork server: %s" % reply["error"])
        code = -reply["signal"] if "signal" in reply else reply["exit"]
        return Completed(code, base64.b64decode(reply["stdout"]), base64.b64decode(reply["stderr"]),
                         timed_out=reply.get("timed_out", False))

    def close(self):
        with self._lock:
            servers, self._all, self._idle = self._all, [], {}
        for server in servers:
            server.close()


# The variables fuselab reads only after main started (a child of `fuselab --serve` sets them
# before it runs); any other variable (OMP_NUM_THREADS and OPENBLAS_* are read while LibTorch and
# OpenBLAS load) picks a server started with it.
FUSELAB_LATE_ENV = ("FUSELAB_CACHE_DIR", "FUSELAB_LLC_BYTES", "FUSELAB_LLVM_PLUGIN", "FUSELAB_BACKEND", "FUSELAB_LOGS",
                    "TORCH_LOGS", "FUSELAB_MAX_MEMORY_MB", "FUSELAB_CRASH_TRACE")


def fuselab_runner(fuselab):
    """A Runner for `FUSELAB ARGS...` (servers: `fuselab --serve`, app/serve.h)."""
    return Runner([fuselab], [fuselab, "--serve"], FUSELAB_LATE_ENV)


_SHARED = {}
_SHARED_LOCK = threading.Lock()


def shared_fuselab_runner(fuselab):
    """One fuselab_runner per binary for the whole harness process (its servers are reused by
    every thread)."""
    with _SHARED_LOCK:
        if fuselab not in _SHARED:
            _SHARED[fuselab] = fuselab_runner(fuselab)
        return _SHARED[fuselab]


def torch_runner():
    """A Runner for `/usr/bin/python3 tests/oracle/run_with_torch.py SCRIPT` (servers: the same with
    --serve, which imports torch once)."""
    return Runner([TORCH_PYTHON, RUN_WITH_TORCH], [TORCH_PYTHON, RUN_WITH_TORCH, "--serve"])
