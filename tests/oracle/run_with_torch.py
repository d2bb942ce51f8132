#!/usr/bin/python3
"""Run a Fuselab model script under real PyTorch (1.13 + shim) as __main__.

Usage: /usr/bin/python3 tests/oracle/run_with_torch.py SCRIPT
       /usr/bin/python3 tests/oracle/run_with_torch.py --serve

The script runs via runpy.run_path with sys.argv = [SCRIPT] and the script's
folder first on sys.path, after tests/oracle/shim.py has installed
torch.compile, torch._dynamo and torch.compiler.  Uncaught exceptions print a
traceback of the script's own frames and exit 1; SystemExit behaves as usual.

--serve is a fork server for the harnesses (tests/harness.py's Runner, the
protocol of `fuselab --serve` in app/serve.h): it imports torch once, then per
request line forks a child that runs what `run_with_torch.py SCRIPT` runs,
from `import shim` on, and exits as the interpreter would.
"""
import os
import runpy
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def _print_user_traceback(exc, script):
    """Traceback limited to frames of the script (drops runpy/this file)."""
    script_abs = os.path.abspath(script)
    tb = exc.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script_abs:
        tb = tb.tb_next
    if tb is None:
        tb = exc.__traceback__
    sys.stderr.write("".join(traceback.format_exception(type(exc), exc, tb)))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: run_with_torch.py SCRIPT\n")
        return 2
    script = sys.argv[1]
    if not os.path.isfile(script):
        sys.stderr.write("run_with_torch.py: no such script: %s\n" % script)
        return 2

    sys.path.insert(0, HERE)
    import shim  # noqa: F401  (installs torch.compile & co.)
    sys.path.remove(HERE)
    del sys.modules["shim"]  # keep the script's module namespace clean

    sys.argv = [script]
    sys.dont_write_bytecode = True  # a project's modules leave no __pycache__ in the tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: B902 - mirror the interpreter's top level
        sys.stdout.flush()
        _print_user_traceback(exc, script)
        return 1
    return 0


def _exit_status(exc):
    """The exit status CPython gives an uncaught SystemExit (_Py_HandleSystemExit)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(str(code) + "\n")
    return 1


def _child(argv, cwd, env):
    """In a forked child: becomes `python3 run_with_torch.py ARGV...` from main() on, and exits."""
    import atexit
    import threading
    sys.argv = [sys.argv[0]] + argv
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    try:
        code = main()
        sys.stdout.flush()
        sys.exit(code)
    except SystemExit as exc:
        status = _exit_status(exc)
    except BaseException:  # noqa: B902 - what the interpreter's top level does
        sys.excepthook(*sys.exc_info())
        status = 1
    # the interpreter's own ending: threads joined, atexit, the standard streams flushed
    try:
        threading._shutdown()
    except BaseException:  # noqa: B902
        pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: B902
            status = 120
    os._exit(status & 0xFF)


def _wait(pid, timeout):
    """(wait status, timed out); kills the child's process group once timeout seconds passed."""
    import select
    import time
    deadline = time.monotonic() + timeout if timeout else None
    pidfd = os.pidfd_open(pid)
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == pid:
                return status, False
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                for target in (-pid, pid):
                    try:
                        os.kill(target, 9)
                    except OSError:
                        pass
                return os.waitpid(pid, 0)[1], True
            poller.poll(None if left is None else max(1, int(left * 1000)))
    finally:
        os.close(pidfd)


def serve():
    """Fork server: `{"argv": [SCRIPT], "cwd": ..., "env": {...}, "timeout": S}` per line on stdin,
    `{"exit"|"signal": N, "timed_out": bool, "stdout": base64, "stderr": base64}` per line out."""
    import base64
    import json
    import torch  # noqa: F401  (what every child would import first: the reason for the server)
    _stop_blas_threads()
    reply = os.fdopen(os.dup(1), "w")  # the children's stdout is fd 1
    os.set_inheritable(reply.fileno(), False)
    pending = b""
    while True:
        while b"\n" not in pending:
            chunk = os.read(0, 1 << 16)  # not sys.stdin: nothing of it buffered for the children
            if not chunk:
                return 0
            pending += chunk
        line, pending = pending.split(b"\n", 1)
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            argv = [str(a) for a in req["argv"]]
            cwd = req.get("cwd") or os.getcwd()
            env = dict(req.get("env") or os.environ)
            timeout = float(req.get("timeout") or 0)
        except (ValueError, KeyError, TypeError) as exc:
            reply.write(json.dumps({"error": "bad request: %s" % exc}) + "\n")
            reply.flush()
            continue
        if threading_count() > 1:
            sys.stderr.write("run_with_torch.py --serve: threads before fork: a child may hang\n")
        out, err = os.memfd_create("stdout"), os.memfd_create("stderr")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()  # a session of its own, as the harnesses start processes
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.dup2(out, 1)
                os.dup2(err, 2)
                for fd in (null, out, err, reply.fileno()):
                    os.close(fd)
                _child(argv, cwd, env)
            finally:
                os._exit(127)
        status, timed_out = _wait(pid, timeout)
        result = {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.waitstatus_to_exitcode(status)}
        result["timed_out"] = timed_out
        for name, fd in (("stdout", out), ("stderr", err)):
            os.lseek(fd, 0, os.SEEK_SET)
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            os.close(fd)
            result[name] = base64.b64encode(b"".join(chunks)).decode("ascii")
        reply.write(json.dumps(result) + "\n")
        reply.flush()


def _stop_blas_threads():
    """OpenBLAS (pthreads) starts its workers while it loads. Its pthread_atfork handler stops them
    before every fork anyway, and a child starts them again on its first BLAS call, as a fresh
    process has them; stopped now, the thread count before a fork shows only threads a child would
    lose."""
    import ctypes
    with open("/proc/self/maps") as fh:
        paths = {line.split()[-1] for line in fh if "libopenblas" in line}
    for path in sorted(paths):
        try:
            ctypes.CDLL(path).blas_thread_shutdown_()
        except (OSError, AttributeError):
            pass


def threading_count():
    """Threads of this process (/proc), which a fork would not copy."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        sys.exit(serve())
    code = main()
    sys.stdout.flush()
    sys.exit(code)
