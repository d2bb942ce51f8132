#!/usr/bin/python3
"""Run a Fuselab model script under real PyTorch (1.13 + shim) as __main__.

Usage: /usr/bin/python3 tests/oracle/run_with_torch.py SCRIPT

The script runs via runpy.run_path with sys.argv = [SCRIPT] and the script's
folder first on sys.path, after tests/oracle/shim.py has installed
torch.compile, torch._dynamo and torch.compiler.  Uncaught exceptions print a
traceback of the script's own frames and exit 1; SystemExit behaves as usual.
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


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.exit(code)
