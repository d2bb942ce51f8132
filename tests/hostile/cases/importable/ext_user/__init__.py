from . import _speedups
