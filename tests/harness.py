"""Shared pieces of the test harnesses: arguments, the fuselab binary, and `ok` / `FAIL` lines."""
import argparse
import os
import shutil
import subprocess
import sys


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
