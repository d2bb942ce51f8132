"""Shim that gives PyTorch 1.13 the small slice of the PyTorch 2.x API that
Fuselab model scripts use: torch.compile, torch._dynamo and torch.compiler.

Everything here is eager: torch.compile returns wrappers that simply call the
original function or module, and the dynamo helpers are no-ops.  The goal is
that a model script prints exactly what it would print under PyTorch 2.x.

Importing this module installs the shim (idempotent).
"""
import functools
import sys
import types

import torch
import torch.nn as nn

_COMPILE_KWARGS = ("fullgraph", "dynamic", "backend", "mode", "options", "disable")


class OptimizedModule(nn.Module):
    """Eager stand-in for torch._dynamo.eval_frame.OptimizedModule.

    Holds the original module as submodule ``_orig_mod`` (so state_dict keys gain
    the ``_orig_mod.`` prefix and parameters are shared), forwards calls and
    unknown attribute reads to it.
    """

    def __init__(self, mod, dynamo_ctx=None):
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx

    def forward(self, *args, **kwargs):
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._modules["_orig_mod"], name)


OptimizedModule.__module__ = "torch._dynamo.eval_frame"
OptimizedModule.__qualname__ = "OptimizedModule"


def _wrap(model):
    if isinstance(model, nn.Module):
        return OptimizedModule(model)
    if not callable(model):
        raise RuntimeError("torch.compile: model must be a callable or nn.Module, got %s"
                           % type(model).__name__)

    @functools.wraps(model)
    def _compiled(*args, **kwargs):
        return model(*args, **kwargs)

    _compiled._torchdynamo_orig_callable = model
    return _compiled


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor",
            mode=None, options=None, disable=False):
    """torch.compile for eager PyTorch 1.13: same call forms, no compilation."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if model is None:
        def decorator(m):
            return compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)
        return decorator
    if disable:
        return model
    return _wrap(model)


# --- torch._dynamo / torch.compiler -------------------------------------------------

def graph_break():
    """No-op in eager mode."""
    return None


def mark_dynamic(t, index, *, min=None, max=None):
    """No-op in eager mode."""
    return None


def mark_static(t, index=None):
    return None


def reset():
    """No-op in eager mode."""
    return None


def disable(fn=None, recursive=True):
    """Decorator usable as @disable, @disable(), @disable(recursive=False), disable(fn)."""
    if fn is None:
        def decorator(f):
            return disable(f, recursive=recursive)
        return decorator
    return fn


def allow_in_graph(fn):
    return fn


def is_compiling():
    return False


class Unsupported(Exception):
    pass


class TorchRuntimeError(RuntimeError):
    pass


def _install():
    if getattr(torch, "_fuselab_shim_installed", False):
        return

    exc = types.ModuleType("torch._dynamo.exc")
    exc.Unsupported = Unsupported
    exc.TorchRuntimeError = TorchRuntimeError
    Unsupported.__module__ = "torch._dynamo.exc"
    TorchRuntimeError.__module__ = "torch._dynamo.exc"

    eval_frame = types.ModuleType("torch._dynamo.eval_frame")
    eval_frame.OptimizedModule = OptimizedModule

    config = types.ModuleType("torch._dynamo.config")
    config.suppress_errors = False
    config.cache_size_limit = 8
    config.verbose = False

    dynamo = types.ModuleType("torch._dynamo")
    dynamo.graph_break = graph_break
    dynamo.mark_dynamic = mark_dynamic
    dynamo.mark_static = mark_static
    dynamo.reset = reset
    dynamo.disable = disable
    dynamo.allow_in_graph = allow_in_graph
    dynamo.is_compiling = is_compiling
    dynamo.exc = exc
    dynamo.eval_frame = eval_frame
    dynamo.config = config
    dynamo.OptimizedModule = OptimizedModule

    compiler = types.ModuleType("torch.compiler")
    compiler.disable = disable
    compiler.reset = reset
    compiler.allow_in_graph = allow_in_graph
    compiler.is_compiling = is_compiling
    compiler.is_dynamo_compiling = is_compiling

    for name, mod in (("torch._dynamo", dynamo), ("torch._dynamo.exc", exc),
                      ("torch._dynamo.eval_frame", eval_frame),
                      ("torch._dynamo.config", config), ("torch.compiler", compiler)):
        sys.modules[name] = mod

    torch._dynamo = dynamo
    torch.compiler = compiler
    compile.__module__ = "torch"
    torch.compile = compile
    torch._fuselab_shim_installed = True


_install()
