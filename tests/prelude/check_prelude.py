#!/usr/bin/python3
"""Check Fuselab's prelude (core/script/prelude/{init,nn,optim}.py) against
real PyTorch 1.13 running under CPython.

The three prelude files are loaded the way the Fuselab interpreter loads them:
each file's text is exec'd in a fresh globals dict pre-filled with
torch, F (torch.nn.functional), math, Parameter, _OrderedDict (+ `init` for
nn.py; optim.py only gets torch and math).  Then, for many module and
optimizer configurations, the prelude's objects are compared with torch.nn /
torch.optim: weights (bit for bit, same seed), RNG consumption, repr /
print(model) text, named_parameters / buffers / state_dict, forward output in
train and eval mode, gradients, parameter values after SGD / Adam / AdamW
steps, container behaviour, zero_grad, load_state_dict.

A static pass also checks that the prelude stays inside the model-script
Python subset (no imports, generators, decorators, multiple inheritance,
`%` formatting, __dict__, unknown builtins or method names).

Usage:  /usr/bin/python3 tests/prelude/check_prelude.py [-v]
Last line: "N passed, M failed"; exit status 1 if anything failed.
"""

import ast
import collections
import contextlib
import io
import math
import os
import sys
import traceback
import types
import warnings

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as F
import torch.optim as toptim
import torch.optim.optimizer  # noqa: F401  (for `required`)

warnings.simplefilter("ignore")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PRELUDE_DIR = os.environ.get("FUSELAB_PRELUDE_DIR") or os.path.join(ROOT, "core", "script", "prelude")
VERBOSE = "-v" in sys.argv

# ----------------------------------------------------------------------------
# Loading, exactly as the interpreter does it
# ----------------------------------------------------------------------------


def _exec_prelude(filename, env):
    path = os.path.join(PRELUDE_DIR, filename)
    with open(path) as f:
        src = f.read()
    exec(compile(src, path, "exec"), env)
    return env


def _namespace(env, name):
    mod = types.ModuleType(name)
    for k, v in env.items():
        if not k.startswith("__"):
            setattr(mod, k, v)
    return mod


def load_prelude():
    def base():
        return {
            "__name__": "fuselab_prelude",
            "torch": torch,
            "F": F,
            "math": math,
            "Parameter": tnn.Parameter,
            "_OrderedDict": collections.OrderedDict,
        }

    init_env = base()
    init_env["__name__"] = "torch.nn.init"
    init_ns = _namespace(_exec_prelude("init.py", init_env), "torch.nn.init")

    nn_env = base()
    nn_env["__name__"] = "torch.nn"
    nn_env["init"] = init_ns
    nn_ns = _namespace(_exec_prelude("nn.py", nn_env), "torch.nn")

    optim_env = {"__name__": "torch.optim", "torch": torch, "math": math}
    optim_ns = _namespace(_exec_prelude("optim.py", optim_env), "torch.optim")
    return init_ns, nn_ns, optim_ns


# ----------------------------------------------------------------------------
# Tiny test harness
# ----------------------------------------------------------------------------

PASSED = 0
FAILED = 0
FAILURES = []


def ok(name):
    global PASSED
    PASSED += 1
    if VERBOSE:
        print("ok  ", name)


def fail(name, detail):
    global FAILED
    FAILED += 1
    FAILURES.append(name)
    print("FAIL", name)
    for line in str(detail).rstrip().split("\n")[:60]:
        print("     " + line)


class Mismatch(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Mismatch(what)


def expect_eq(a, b, what):
    if a != b:
        raise Mismatch("{}:\n  torch   : {!r}\n  prelude : {!r}".format(what, a, b))


def run(name, fn, *args):
    try:
        fn(*args)
    except Mismatch as e:
        fail(name, e)
    except Exception:
        fail(name, traceback.format_exc())
    else:
        ok(name)


def bits(t):
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.dtype, tuple(t.shape), t.numpy().tobytes()


def same_tensor(a, b):
    if a is None or b is None:
        return a is None and b is None
    return bits(a) == bits(b)


def expect_tensor(a, b, what):
    if not same_tensor(a, b):
        if a is None or b is None:
            raise Mismatch("{}: one is None ({!r} vs {!r})".format(what, a, b))
        raise Mismatch("{} differ:\n  torch   : {} {} {}\n  prelude : {} {} {}".format(
            what, a.dtype, tuple(a.shape), a.flatten()[:6].tolist(),
            b.dtype, tuple(b.shape), b.flatten()[:6].tolist()))


def expect_same_value(a, b, what):
    """Deep comparison: tensors bitwise, containers recursively, others ==."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        expect(isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor),
               "{}: tensor vs non-tensor ({!r}, {!r})".format(what, type(a), type(b)))
        expect_tensor(a, b, what)
        expect_eq(isinstance(a, tnn.Parameter), isinstance(b, tnn.Parameter), what + " is Parameter")
    elif isinstance(a, dict):
        expect(isinstance(b, dict), "{}: dict vs {}".format(what, type(b)))
        expect_eq(list(a.keys()), list(b.keys()), what + " keys")
        for k in a:
            expect_same_value(a[k], b[k], "{}[{!r}]".format(what, k))
    elif isinstance(a, (list, tuple)):
        expect_eq(type(a), type(b), what + " type")
        expect_eq(len(a), len(b), what + " length")
        for i, (x, y) in enumerate(zip(a, b)):
            expect_same_value(x, y, "{}[{}]".format(what, i))
    else:
        expect_eq(a, b, what)


def capture_exc(fn):
    try:
        fn()
    except Exception as e:  # noqa
        return type(e).__name__, str(e)
    return None


def expect_same_exc(f_real, f_mine, what, compare_message=True):
    a = capture_exc(f_real)
    b = capture_exc(f_mine)
    expect(a is not None, what + ": torch raised nothing")
    expect(b is not None, what + ": prelude raised nothing; torch raised {!r}".format(a))
    if compare_message:
        expect_eq(a, b, what + " exception")
    else:
        expect_eq(a[0], b[0], what + " exception type")


def printed(obj):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(obj)
    return buf.getvalue()


# ----------------------------------------------------------------------------
# Module comparison
# ----------------------------------------------------------------------------


def compare_module_state(real, mine, what):
    expect_eq(repr(real), repr(mine), what + " repr")
    expect_eq(printed(real), printed(mine), what + " print()")
    rp = list(real.named_parameters())
    mp = list(mine.named_parameters())
    expect_eq([n for n, _ in rp], [n for n, _ in mp], what + " named_parameters names")
    for (n, a), (_, b) in zip(rp, mp):
        expect(isinstance(b, tnn.Parameter), what + " " + n + " is not a Parameter")
        expect_eq(a.requires_grad, b.requires_grad, what + " " + n + " requires_grad")
        expect_tensor(a, b, what + " parameter " + n)
    expect_eq(len(list(real.parameters())), len(list(mine.parameters())), what + " len(parameters())")
    rb = list(real.named_buffers())
    mb = list(mine.named_buffers())
    expect_eq([n for n, _ in rb], [n for n, _ in mb], what + " named_buffers names")
    for (n, a), (_, b) in zip(rb, mb):
        expect_tensor(a, b, what + " buffer " + n)
    rs = real.state_dict()
    ms = mine.state_dict()
    expect_eq(type(rs).__name__, type(ms).__name__, what + " state_dict type")
    expect_eq(list(rs.keys()), list(ms.keys()), what + " state_dict keys")
    for k in rs:
        expect_tensor(rs[k], ms[k], what + " state_dict[" + k + "]")
        expect_eq(rs[k].requires_grad, ms[k].requires_grad, what + " state_dict[" + k + "].requires_grad")
    expect_eq(repr(rs), repr(ms), what + " repr(state_dict())")
    expect_eq([(n, type(m).__name__) for n, m in real.named_modules()],
              [(n, type(m).__name__) for n, m in mine.named_modules()], what + " named_modules")
    expect_eq([(n, type(m).__name__) for n, m in real.named_children()],
              [(n, type(m).__name__) for n, m in mine.named_children()], what + " named_children")
    expect_eq([m.training for m in real.modules()], [m.training for m in mine.modules()],
              what + " training flags")


def construct_pair(ctor, seed, what):
    torch.manual_seed(seed)
    real = ctor(tnn)
    tail_real = torch.rand(4)
    torch.manual_seed(seed)
    mine = ctor(MY_NN)
    tail_mine = torch.rand(4)
    expect_tensor(tail_real, tail_mine, what + " RNG state after construction")
    return real, mine


def compare_forward(real, mine, make_inputs, what, backward=True):
    for mode in ("train", "eval"):
        getattr(real, mode)()
        getattr(mine, mode)()
        torch.manual_seed(1234)
        inputs_r = make_inputs()
        torch.manual_seed(1234)
        inputs_m = make_inputs()
        for t in inputs_r + inputs_m:
            if backward and t.is_floating_point():
                t.requires_grad_(True)
        torch.manual_seed(99)
        out_r = real(*inputs_r)
        torch.manual_seed(99)
        out_m = mine(*inputs_m)
        expect_tensor(out_r, out_m, "{} forward output ({})".format(what, mode))
        if backward and out_r.requires_grad:
            real.zero_grad()
            mine.zero_grad()
            torch.manual_seed(7)
            gr = torch.randn(out_r.shape) if out_r.dim() > 0 else torch.tensor(1.0)
            out_r.backward(gr)
            out_m.backward(gr)
            for (n, a), (_, b) in zip(real.named_parameters(), mine.named_parameters()):
                expect_tensor(a.grad, b.grad, "{} grad of {} ({})".format(what, n, mode))
            for a, b in zip(inputs_r, inputs_m):
                if a.requires_grad:
                    expect_tensor(a.grad, b.grad, "{} input grad ({})".format(what, mode))
        compare_module_state(real, mine, "{} after forward ({})".format(what, mode))


# ----------------------------------------------------------------------------
# Module configurations
# ----------------------------------------------------------------------------


def randn(*shape):
    return lambda: [torch.randn(*shape)]


def cfg_modules():
    O = collections.OrderedDict
    C = []

    def add(name, ctor, inputs=None, backward=True):
        C.append((name, ctor, inputs, backward))

    # Linear
    add("Linear(5, 3)", lambda nn: nn.Linear(5, 3), randn(4, 5))
    add("Linear(4, 2, bias=False)", lambda nn: nn.Linear(4, 2, bias=False), randn(3, 4))
    add("Linear(1, 32)", lambda nn: nn.Linear(1, 32), randn(7, 1))
    add("Linear(256, 10)", lambda nn: nn.Linear(256, 10), randn(2, 256))
    add("Linear(6, 3, dtype=float64)", lambda nn: nn.Linear(6, 3, dtype=torch.float64),
        lambda: [torch.randn(2, 6, dtype=torch.float64)])
    add("Linear(0, 3)", lambda nn: nn.Linear(0, 3), randn(2, 0))
    add("Linear(3, 4) on 3-D input", lambda nn: nn.Linear(3, 4), randn(2, 5, 3))
    # activations
    add("Identity", lambda nn: nn.Identity(3, foo=1), randn(2, 3))
    add("ReLU", lambda nn: nn.ReLU(), randn(3, 4))
    add("ReLU(inplace=True)", lambda nn: nn.ReLU(inplace=True), randn(3, 4), False)
    add("GELU", lambda nn: nn.GELU(), randn(3, 4))
    add("GELU('tanh')", lambda nn: nn.GELU(approximate='tanh'), randn(3, 4))
    add("SiLU", lambda nn: nn.SiLU(), randn(3, 4))
    add("SiLU(inplace=True)", lambda nn: nn.SiLU(inplace=True), randn(3, 4), False)
    add("Sigmoid", lambda nn: nn.Sigmoid(), randn(3, 4))
    add("Tanh", lambda nn: nn.Tanh(), randn(3, 4))
    add("Softmax(dim=1)", lambda nn: nn.Softmax(dim=1), randn(3, 4))
    add("Softmax(-1)", lambda nn: nn.Softmax(-1), randn(2, 3, 4))
    add("Softmax() 2-D", lambda nn: nn.Softmax(), randn(3, 4))
    add("Softmax() 3-D", lambda nn: nn.Softmax(), randn(2, 3, 4))
    add("LogSoftmax(dim=1)", lambda nn: nn.LogSoftmax(dim=1), randn(3, 4))
    add("LogSoftmax() 1-D", lambda nn: nn.LogSoftmax(), randn(5))
    add("LeakyReLU", lambda nn: nn.LeakyReLU(), randn(3, 4))
    add("LeakyReLU(0.2, True)", lambda nn: nn.LeakyReLU(0.2, True), randn(3, 4), False)
    add("Flatten", lambda nn: nn.Flatten(), randn(2, 3, 4, 5))
    add("Flatten(0, 2)", lambda nn: nn.Flatten(0, 2), randn(2, 3, 4, 5))
    # dropout
    add("Dropout", lambda nn: nn.Dropout(), randn(6, 8))
    add("Dropout(0.1)", lambda nn: nn.Dropout(0.1), randn(6, 8))
    add("Dropout(p=0.3, inplace=True)", lambda nn: nn.Dropout(p=0.3, inplace=True), randn(6, 8), False)
    add("Dropout(0.0)", lambda nn: nn.Dropout(0.0), randn(6, 8))
    add("Dropout(1.0)", lambda nn: nn.Dropout(1.0), randn(6, 8))
    # normalisation
    add("LayerNorm(8)", lambda nn: nn.LayerNorm(8), randn(3, 8))
    add("LayerNorm([4, 8])", lambda nn: nn.LayerNorm([4, 8]), randn(2, 4, 8))
    add("LayerNorm(torch.Size)", lambda nn: nn.LayerNorm(torch.Size([8])), randn(2, 8))
    add("LayerNorm(8, eps=1e-6, elementwise_affine=False)",
        lambda nn: nn.LayerNorm(8, eps=1e-6, elementwise_affine=False), randn(3, 8))
    add("BatchNorm2d(8)", lambda nn: nn.BatchNorm2d(8), randn(4, 8, 5, 5))
    add("BatchNorm1d(6)", lambda nn: nn.BatchNorm1d(6), randn(5, 6))
    add("BatchNorm1d(3, momentum=None)", lambda nn: nn.BatchNorm1d(3, momentum=None), randn(4, 3, 7))
    add("MaxPool2d(2)", lambda nn: nn.MaxPool2d(2), randn(2, 3, 6, 6))
    add("MaxPool2d(3, stride=2, padding=1)", lambda nn: nn.MaxPool2d(3, stride=2, padding=1), randn(2, 3, 7, 7))
    add("AvgPool2d(2)", lambda nn: nn.AvgPool2d(2), randn(2, 3, 6, 6))
    add("AdaptiveAvgPool2d((1, 1))", lambda nn: nn.AdaptiveAvgPool2d((1, 1)), randn(2, 3, 5, 5))
    add("BatchNorm2d(4, momentum=None)", lambda nn: nn.BatchNorm2d(4, momentum=None), randn(3, 4, 2, 2))
    add("BatchNorm2d(4, eps=1e-3, momentum=0.2)", lambda nn: nn.BatchNorm2d(4, eps=1e-3, momentum=0.2),
        randn(3, 4, 2, 2))
    add("BatchNorm2d(4, affine=False)", lambda nn: nn.BatchNorm2d(4, affine=False), randn(3, 4, 2, 2))
    add("BatchNorm2d(4, track_running_stats=False)",
        lambda nn: nn.BatchNorm2d(4, track_running_stats=False), randn(3, 4, 2, 2))
    add("BatchNorm2d(3, dtype=float64)", lambda nn: nn.BatchNorm2d(3, dtype=torch.float64),
        lambda: [torch.randn(2, 3, 2, 2, dtype=torch.float64)])
    # embedding
    idx = lambda: [torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])]
    add("Embedding(10, 4)", lambda nn: nn.Embedding(10, 4), idx)
    add("Embedding(10, 4, padding_idx=2)", lambda nn: nn.Embedding(10, 4, padding_idx=2), idx)
    add("Embedding(10, 4, padding_idx=-1)", lambda nn: nn.Embedding(10, 4, padding_idx=-1), idx)
    add("Embedding(10, 4, padding_idx=0, max_norm=1.0)",
        lambda nn: nn.Embedding(10, 4, padding_idx=0, max_norm=1.0), idx, False)
    add("Embedding(10, 3, norm_type=1.0, scale_grad_by_freq=True)",
        lambda nn: nn.Embedding(10, 3, norm_type=1.0, scale_grad_by_freq=True), idx)
    add("Embedding(10, 3, sparse=True) repr", lambda nn: nn.Embedding(10, 3, sparse=True), None)
    add("Embedding.from_pretrained",
        lambda nn: nn.Embedding.from_pretrained(torch.arange(12.).reshape(4, 3)),
        lambda: [torch.tensor([0, 3, 1])])
    add("Embedding.from_pretrained(freeze=False, padding_idx=1)",
        lambda nn: nn.Embedding.from_pretrained(torch.arange(12.).reshape(4, 3), freeze=False, padding_idx=1),
        lambda: [torch.tensor([0, 3, 1])])
    # conv
    add("Conv2d(3, 8, 3)", lambda nn: nn.Conv2d(3, 8, 3), randn(2, 3, 7, 7))
    add("Conv2d(1, 8, kernel_size=3, padding=1)", lambda nn: nn.Conv2d(1, 8, kernel_size=3, padding=1),
        randn(2, 1, 6, 6))
    add("Conv2d(8, 16, 3, stride=2, padding=1)", lambda nn: nn.Conv2d(8, 16, 3, stride=2, padding=1),
        randn(2, 8, 8, 8))
    add("Conv2d(4, 8, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1), groups=2, bias=False)",
        lambda nn: nn.Conv2d(4, 8, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1), groups=2, bias=False),
        randn(1, 4, 9, 9))
    add("Conv2d(3, 4, 3, padding='same')", lambda nn: nn.Conv2d(3, 4, 3, padding='same'), randn(1, 3, 5, 5))
    add("Conv2d(3, 4, 4, padding='same', dilation=2)", lambda nn: nn.Conv2d(3, 4, 4, padding='same', dilation=2),
        randn(1, 3, 9, 9))
    add("Conv2d(3, 4, 3, padding='valid')", lambda nn: nn.Conv2d(3, 4, 3, padding='valid'), randn(1, 3, 5, 5))
    add("Conv2d(3, 4, 3, padding=1, padding_mode='reflect')",
        lambda nn: nn.Conv2d(3, 4, 3, padding=1, padding_mode='reflect'), randn(1, 3, 5, 5))
    add("Conv2d(3, 4, 3, padding=2, padding_mode='circular')",
        lambda nn: nn.Conv2d(3, 4, 3, padding=2, padding_mode='circular'), randn(1, 3, 5, 5))
    add("Conv2d(3, 6, 1, groups=3)", lambda nn: nn.Conv2d(3, 6, 1, groups=3), randn(1, 3, 4, 4))
    add("Conv2d(2, 2, [2, 3])", lambda nn: nn.Conv2d(2, 2, [2, 3]), randn(1, 2, 4, 4))
    # losses
    pair = lambda: [torch.randn(4, 3), torch.randn(4, 3)]
    cls = lambda: [torch.randn(5, 4), torch.tensor([0, 3, 1, 1, 2])]
    add("MSELoss", lambda nn: nn.MSELoss(), pair)
    add("MSELoss(reduction='sum')", lambda nn: nn.MSELoss(reduction='sum'), pair)
    add("MSELoss(reduction='none')", lambda nn: nn.MSELoss(reduction='none'), pair)
    add("MSELoss(size_average=False)", lambda nn: nn.MSELoss(size_average=False), pair)
    add("CrossEntropyLoss", lambda nn: nn.CrossEntropyLoss(), cls)
    add("CrossEntropyLoss(weight)", lambda nn: nn.CrossEntropyLoss(weight=torch.rand(4)), cls)
    add("CrossEntropyLoss(label_smoothing=0.1, ignore_index=1)",
        lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=1), cls)
    add("CrossEntropyLoss(reduction='sum')", lambda nn: nn.CrossEntropyLoss(reduction='sum'), cls)
    # containers and composite models
    add("Sequential MLP", lambda nn: nn.Sequential(nn.Linear(1, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU(),
                                                   nn.Linear(32, 1)), randn(8, 1))
    add("Sequential(OrderedDict)", lambda nn: nn.Sequential(O([
        ("fc1", nn.Linear(4, 8)), ("act", nn.ReLU()), ("drop", nn.Dropout(0.2)), ("fc2", nn.Linear(8, 2))])),
        randn(5, 4))
    add("nested Sequential", lambda nn: nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
        nn.Sequential(nn.Conv2d(4, 4, 3, bias=False), nn.BatchNorm2d(4), nn.LeakyReLU(0.1)),
        nn.Flatten(), nn.Dropout(0.25), nn.Linear(4 * 4 * 4, 5), nn.LogSoftmax(dim=1)),
        randn(3, 3, 6, 6))
    add("empty Sequential", lambda nn: nn.Sequential(), randn(2, 2), False)
    add("Sequential with shared module", lambda nn: (lambda l: nn.Sequential(l, nn.Tanh(), l))(nn.Linear(3, 3)),
        randn(2, 3))
    add("ModuleList repr", lambda nn: nn.ModuleList([nn.Linear(2, 3), nn.ReLU(), nn.ModuleList([nn.Tanh()])]),
        None)
    add("empty ModuleList", lambda nn: nn.ModuleList(), None)
    add("ModuleDict repr", lambda nn: nn.ModuleDict({"b": nn.Linear(2, 3), "a": nn.ReLU(),
                                                     "c": nn.ModuleDict({"x": nn.Conv2d(1, 1, 1)})}), None)
    add("ModuleDict(list of pairs)", lambda nn: nn.ModuleDict([("z", nn.Linear(2, 3)), ("y", nn.GELU())]), None)
    add("SmallCNN", build_small_cnn, randn(4, 1, 16, 16))
    add("transformer Block", build_block, randn(2, 8, 32))
    add("Net with ModuleList/ModuleDict/buffers", build_misc_net, randn(3, 6))
    return C


def build_small_cnn(nn):
    class SmallCNN(nn.Module):
        def __init__(self, num_classes=4):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)
            self.bn1 = nn.BatchNorm2d(8)
            self.conv2 = nn.Conv2d(8, 16, kernel_size=3, stride=2, padding=1)
            self.bn2 = nn.BatchNorm2d(16)
            self.relu = nn.ReLU()
            self.head = nn.Linear(16 * 4 * 4, num_classes)

        def forward(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.relu(self.bn2(self.conv2(x)))
            x = F.max_pool2d(x, 2)
            return self.head(x.flatten(1))

    return SmallCNN()


def build_block(nn):
    class Block(nn.Module):
        def __init__(self, dim, n_heads, mlp_ratio=4):
            super().__init__()
            self.n_heads = n_heads
            self.head_dim = dim // n_heads
            self.ln1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, mlp_ratio * dim), nn.GELU(), nn.Linear(mlp_ratio * dim, dim))

        def attention(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(x).split(C, dim=2)
            q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
            k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
            v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
            mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
            att = att.masked_fill(~mask, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            return self.proj(y)

        def forward(self, x):
            x = x + self.attention(self.ln1(x))
            x = x + self.mlp(self.ln2(x))
            return x

    return Block(dim=32, n_heads=4)


def build_misc_net(nn):
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(6, 6) for _ in range(3)])
            self.acts = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
            self.register_buffer("scale", torch.full((6,), 0.5))
            self.register_buffer("tmp", torch.ones(6), persistent=False)
            self.register_buffer("nothing", None)
            self.register_parameter("alpha", nn.Parameter(torch.randn(6)) if hasattr(nn, "Parameter")
                                    else tnn.Parameter(torch.randn(6)))
            self.plain = 3
            self.head = nn.Sequential(nn.Linear(6, 2, bias=False), nn.Softmax(dim=-1))

        def forward(self, x):
            for i, layer in enumerate(self.layers):
                x = layer(x)
                x = self.acts["relu" if i % 2 == 0 else "tanh"](x)
            return self.head(x * self.scale * self.tmp + self.alpha)

    return Net()


def test_module_config(name, ctor, inputs, backward):
    real, mine = construct_pair(ctor, 0, name)
    compare_module_state(real, mine, name)
    real2, mine2 = construct_pair(ctor, 12345, name + " (seed 12345)")
    compare_module_state(real2, mine2, name + " (seed 12345)")
    if inputs is not None:
        compare_forward(real, mine, inputs, name, backward)


# ----------------------------------------------------------------------------
# init
# ----------------------------------------------------------------------------


def test_init():
    ti = tnn.init
    mi = MY_INIT
    # calculate_gain
    for nl, p in [("linear", None), ("conv1d", None), ("conv2d", None), ("conv3d", None),
                  ("conv_transpose1d", None), ("conv_transpose2d", None), ("conv_transpose3d", None),
                  ("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", None),
                  ("leaky_relu", 0.2), ("leaky_relu", 0), ("leaky_relu", 3), ("leaky_relu", math.sqrt(5)),
                  ("selu", None)]:
        a = ti.calculate_gain(nl, p)
        b = mi.calculate_gain(nl, p)
        expect_eq((type(a), a), (type(b), b), "calculate_gain({!r}, {!r})".format(nl, p))
    expect_same_exc(lambda: ti.calculate_gain("leaky_relu", True), lambda: mi.calculate_gain("leaky_relu", True),
                    "calculate_gain leaky_relu bool")
    expect_same_exc(lambda: ti.calculate_gain("foo"), lambda: mi.calculate_gain("foo"), "calculate_gain unknown")
    # fans
    for shape in [(3, 4), (5, 2, 3), (8, 3, 3, 3), (2, 4, 2, 3, 5), (0, 4), (4, 0, 3, 3)]:
        t = torch.empty(shape)
        expect_eq(ti._calculate_fan_in_and_fan_out(t), mi._calculate_fan_in_and_fan_out(t), "fans " + str(shape))
        for mode in ("fan_in", "fan_out", "FAN_OUT"):
            expect_eq(ti._calculate_correct_fan(t, mode), mi._calculate_correct_fan(t, mode),
                      "correct_fan {} {}".format(shape, mode))
    expect_same_exc(lambda: ti._calculate_fan_in_and_fan_out(torch.empty(3)),
                    lambda: mi._calculate_fan_in_and_fan_out(torch.empty(3)), "fans 1-D")
    expect_same_exc(lambda: ti._calculate_correct_fan(torch.empty(3, 3), "fan_avg"),
                    lambda: mi._calculate_correct_fan(torch.empty(3, 3), "fan_avg"), "bad fan mode")
    expect_same_exc(lambda: ti.eye_(torch.empty(3)), lambda: mi.eye_(torch.empty(3)), "eye_ 1-D")

    calls = [
        ("uniform_", (), {}), ("uniform_", (-0.5, 2.0), {}), ("uniform_", (), {"a": -3, "b": 3}),
        ("normal_", (), {}), ("normal_", (1.5, 0.1), {}), ("normal_", (), {"std": 0.02}),
        ("trunc_normal_", (), {}), ("trunc_normal_", (), {"std": 0.02}), ("trunc_normal_", (0.5, 2.0, -1.0, 3.0), {}),
        ("constant_", (0.3,), {}), ("constant_", (7,), {}), ("ones_", (), {}), ("zeros_", (), {}), ("eye_", (), {}),
        ("xavier_uniform_", (), {}), ("xavier_uniform_", (), {"gain": 2.0}),
        ("xavier_normal_", (), {}), ("xavier_normal_", (0.5,), {}),
        ("kaiming_uniform_", (), {}), ("kaiming_uniform_", (), {"a": math.sqrt(5)}),
        ("kaiming_uniform_", (), {"mode": "fan_out", "nonlinearity": "relu"}),
        ("kaiming_uniform_", (0.1, "fan_in", "leaky_relu"), {}),
        ("kaiming_uniform_", (), {"nonlinearity": "tanh"}),
        ("kaiming_normal_", (), {}), ("kaiming_normal_", (), {"mode": "fan_out", "nonlinearity": "relu"}),
        ("kaiming_normal_", (0.2,), {}), ("kaiming_normal_", (), {"nonlinearity": "selu"}),
    ]
    for shape in [(4, 5), (16, 3, 3, 3), (7, 2, 5), (3, 0), (6, 6)]:
        for dtype in (torch.float32, torch.float64):
            for fname, args, kwargs in calls:
                if fname == "eye_" and len(shape) != 2:
                    continue
                what = "init.{}{} on {} {}".format(fname, (args, kwargs), shape, dtype)
                torch.manual_seed(3)
                a = torch.empty(shape, dtype=dtype)
                ra = getattr(ti, fname)(a, *args, **kwargs)
                tail_a = torch.rand(3)
                torch.manual_seed(3)
                b = torch.empty(shape, dtype=dtype)
                rb = getattr(mi, fname)(b, *args, **kwargs)
                tail_b = torch.rand(3)
                expect_tensor(a, b, what)
                expect(rb is b, what + ": does not return its argument")
                expect_tensor(tail_a, tail_b, what + " RNG consumption")
    # initialising a Parameter (requires_grad) works and leaves no graph
    torch.manual_seed(1)
    p1 = tnn.Parameter(torch.empty(3, 4))
    ti.kaiming_uniform_(p1, a=math.sqrt(5))
    torch.manual_seed(1)
    p2 = tnn.Parameter(torch.empty(3, 4))
    mi.kaiming_uniform_(p2, a=math.sqrt(5))
    expect_tensor(p1, p2, "kaiming_uniform_ on Parameter")
    expect(p2.grad_fn is None and p2.requires_grad, "kaiming_uniform_ on Parameter keeps a leaf")


# ----------------------------------------------------------------------------
# Containers
# ----------------------------------------------------------------------------


def pair_of(ctor, seed=0):
    return construct_pair(ctor, seed, "container")


def names(it):
    return [type(m).__name__ for m in it]


def test_sequential_ops():
    def mk(nn):
        return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    r, m = pair_of(mk)
    expect_eq(len(r), len(m), "len")
    for i in (0, 1, 4, -1, -5, 2):
        expect_eq(repr(r[i]), repr(m[i]), "seq[{}]".format(i))
    expect(m[-1] is m[4], "seq[-1] is seq[4]")
    for sl in (slice(1, None), slice(None, 2), slice(None, None, -1), slice(1, 4, 2), slice(3, 1), slice(-2, None)):
        expect_eq(repr(r[sl]), repr(m[sl]), "seq[{}]".format(sl))
        expect_eq(type(r[sl]).__name__, type(m[sl]).__name__, "type of seq[{}]".format(sl))
    expect(m[1:][0] is m[1], "slices share modules")
    expect_same_exc(lambda: r[5], lambda: m[5], "seq[5]")
    expect_same_exc(lambda: r[-6], lambda: m[-6], "seq[-6]")
    expect_eq(names(r), names(m), "iteration")
    expect_eq(names(reversed(list(r))), names(reversed(list(m))), "reversed(list)")
    expect(m[1] in m and not (r[1] in m), "in")
    expect((m[0] in m) == (r[0] in r), "in (torch)")
    torch.manual_seed(5)
    rt = tnn.Softmax(dim=1)
    mt = MY_NN.Softmax(dim=1)
    r[1] = rt
    m[1] = mt
    expect_eq(repr(r), repr(m), "after seq[1] = Softmax")
    r[-1] = tnn.Identity()
    m[-1] = MY_NN.Identity()
    expect_eq(repr(r), repr(m), "after seq[-1] = Identity")
    del r[0]
    del m[0]
    expect_eq(repr(r), repr(m), "after del seq[0]")
    expect_eq(list(r.state_dict().keys()), list(m.state_dict().keys()), "state_dict keys after del")
    del r[1:3]
    del m[1:3]
    expect_eq(repr(r), repr(m), "after del seq[1:3]")
    torch.manual_seed(6)
    r.append(tnn.Linear(1, 2))
    torch.manual_seed(6)
    m.append(MY_NN.Linear(1, 2))
    expect_eq(repr(r), repr(m), "after append")
    r.insert(1, tnn.GELU())
    m.insert(1, MY_NN.GELU())
    expect_eq(repr(r), repr(m), "after insert(1)")
    r.insert(-1, tnn.SiLU())
    m.insert(-1, MY_NN.SiLU())
    expect_eq(repr(r), repr(m), "after insert(-1)")
    r.insert(len(r), tnn.ReLU())
    m.insert(len(m), MY_NN.ReLU())
    expect_eq(repr(r), repr(m), "after insert(len)")
    expect_same_exc(lambda: r.insert(10, tnn.ReLU()), lambda: m.insert(10, MY_NN.ReLU()), "insert(10)")
    r.extend([tnn.Tanh(), tnn.Sigmoid()])
    m.extend([MY_NN.Tanh(), MY_NN.Sigmoid()])
    expect_eq(repr(r), repr(m), "after extend(list)")
    r.extend(tnn.Sequential(tnn.ReLU()))
    m.extend(MY_NN.Sequential(MY_NN.ReLU()))
    expect_eq(repr(r), repr(m), "after extend(Sequential)")
    expect_eq(repr(r.pop(2)), repr(m.pop(2)), "pop(2)")
    expect_eq(repr(r), repr(m), "after pop(2)")
    expect_eq(repr(r + tnn.Sequential(tnn.ReLU())), repr(m + MY_NN.Sequential(MY_NN.ReLU())), "seq + seq")
    expect_same_exc(lambda: tnn.Sequential(tnn.ReLU(), 3), lambda: MY_NN.Sequential(MY_NN.ReLU(), 3),
                    "Sequential(ReLU(), 3)")
    # forward through a sequential after all that
    torch.manual_seed(1)
    x = torch.randn(3, 1)
    expect_tensor(r(x), m(x), "forward after edits")


def test_modulelist_ops():
    def mk(nn):
        return nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 3)])
    r, m = pair_of(mk)
    expect_eq(len(r), len(m), "len")
    for i in (0, 1, 2, -1, -3):
        expect_eq(repr(r[i]), repr(m[i]), "ml[{}]".format(i))
    for sl in (slice(1, None), slice(None, None, -1), slice(0, 3, 2)):
        expect_eq(repr(r[sl]), repr(m[sl]), "ml[{}]".format(sl))
        expect_eq(type(r[sl]).__name__, type(m[sl]).__name__, "type ml[{}]".format(sl))
    expect_same_exc(lambda: r[3], lambda: m[3], "ml[3]")
    expect_same_exc(lambda: r[-4], lambda: m[-4], "ml[-4]")
    expect(m[0] in m and not (MY_NN.ReLU() in m), "in")
    expect_eq(names(r), names(m), "iteration")
    r.append(tnn.Tanh())
    m.append(MY_NN.Tanh())
    r.extend([tnn.GELU(), tnn.SiLU()])
    m.extend([MY_NN.GELU(), MY_NN.SiLU()])
    expect_eq(repr(r), repr(m), "after append/extend")
    r.insert(0, tnn.Identity())
    m.insert(0, MY_NN.Identity())
    r.insert(3, tnn.Sigmoid())
    m.insert(3, MY_NN.Sigmoid())
    expect_eq(repr(r), repr(m), "after insert")
    expect_same_exc(lambda: r.insert(-1, tnn.ReLU()), lambda: m.insert(-1, MY_NN.ReLU()), "insert(-1) (1.13)")
    r[1] = tnn.Flatten()
    m[1] = MY_NN.Flatten()
    r[-1] = tnn.Dropout()
    m[-1] = MY_NN.Dropout()
    expect_eq(repr(r), repr(m), "after setitem")
    del r[2]
    del m[2]
    expect_eq(repr(r), repr(m), "after del ml[2]")
    del r[::2]
    del m[::2]
    expect_eq(repr(r), repr(m), "after del ml[::2]")
    expect_eq(repr(r.pop(-1)), repr(m.pop(-1)), "pop(-1)")
    expect_eq(repr(r), repr(m), "after pop")
    r += [tnn.ReLU()]
    m += [MY_NN.ReLU()]
    expect_eq(repr(r), repr(m), "after +=")
    expect_eq(repr(r + tnn.ModuleList([tnn.Tanh()])), repr(m + MY_NN.ModuleList([MY_NN.Tanh()])), "ml + ml")
    expect_eq(list(r.state_dict().keys()), list(m.state_dict().keys()), "state_dict keys")
    expect_same_exc(lambda: r(torch.ones(1)), lambda: m(torch.ones(1)), "calling a ModuleList")
    expect_same_exc(lambda: tnn.ModuleList(tnn.Linear(1, 1)), lambda: MY_NN.ModuleList(MY_NN.Linear(1, 1)),
                    "ModuleList(Linear)")


def test_moduledict_ops():
    def mk(nn):
        return nn.ModuleDict({"conv": nn.Conv2d(1, 2, 3), "act": nn.ReLU()})
    r, m = pair_of(mk)
    expect_eq(len(r), len(m), "len")
    expect_eq(list(r), list(m), "iteration (keys)")
    expect_eq(list(r.keys()), list(m.keys()), "keys()")
    expect_eq([repr(v) for v in r.values()], [repr(v) for v in m.values()], "values()")
    expect_eq([(k, repr(v)) for k, v in r.items()], [(k, repr(v)) for k, v in m.items()], "items()")
    expect_eq(("conv" in r, "nope" in r), ("conv" in m, "nope" in m), "in")
    expect_eq(repr(r["conv"]), repr(m["conv"]), "md['conv']")
    expect_same_exc(lambda: r["nope"], lambda: m["nope"], "md['nope']")
    torch.manual_seed(2)
    r["lin"] = tnn.Linear(2, 2)
    torch.manual_seed(2)
    m["lin"] = MY_NN.Linear(2, 2)
    expect_eq(repr(r), repr(m), "after setitem")
    r.update([("t", tnn.Tanh()), ("act", tnn.GELU())])
    m.update([("t", MY_NN.Tanh()), ("act", MY_NN.GELU())])
    expect_eq(repr(r), repr(m), "after update(list)")
    r.update(collections.OrderedDict([("z", tnn.Sigmoid())]))
    m.update(collections.OrderedDict([("z", MY_NN.Sigmoid())]))
    r.update({"y": tnn.Identity()})
    m.update({"y": MY_NN.Identity()})
    expect_eq(repr(r), repr(m), "after update(dict)")
    expect_eq(repr(r.pop("t")), repr(m.pop("t")), "pop")
    del r["conv"]
    del m["conv"]
    expect_eq(repr(r), repr(m), "after del")
    expect_eq(list(r.state_dict().keys()), list(m.state_dict().keys()), "state_dict keys")
    expect_same_exc(lambda: r.update([("a", tnn.ReLU(), 1)]), lambda: m.update([("a", MY_NN.ReLU(), 1)]),
                    "update with a 3-tuple")
    r.clear()
    m.clear()
    expect_eq(repr(r), repr(m), "after clear")
    expect_eq(len(r), len(m), "len after clear")


# ----------------------------------------------------------------------------
# Module API
# ----------------------------------------------------------------------------


def test_module_api():
    r, m = construct_pair(build_misc_net, 0, "Net")
    # attribute access
    expect_eq(r.plain, m.plain, "plain attribute")
    expect_same_exc(lambda: r.missing, lambda: m.missing, "missing attribute")
    expect_eq((hasattr(r, "alpha"), hasattr(r, "scale"), hasattr(r, "head"), hasattr(r, "nope")),
              (hasattr(m, "alpha"), hasattr(m, "scale"), hasattr(m, "head"), hasattr(m, "nope")), "hasattr")
    expect(m.nothing is None, "None buffer reads as None")
    expect_eq([n for n, _ in r.named_buffers()], [n for n, _ in m.named_buffers()], "named_buffers")
    expect_eq([n for n, _ in r.named_parameters(prefix="model")], [n for n, _ in m.named_parameters(prefix="model")],
              "named_parameters(prefix)")
    expect_eq([n for n, _ in r.named_parameters(recurse=False)], [n for n, _ in m.named_parameters(recurse=False)],
              "named_parameters(recurse=False)")
    expect_eq([n for n, _ in r.named_modules(prefix="m")], [n for n, _ in m.named_modules(prefix="m")],
              "named_modules(prefix)")
    expect_eq(names(r.children()), names(m.children()), "children")
    expect_eq(names(r.modules()), names(m.modules()), "modules")
    expect_eq(type(next(m.parameters())).__name__, "Parameter", "next(parameters())")
    # get_submodule / get_parameter / get_buffer
    expect_eq(repr(r.get_submodule("head.0")), repr(m.get_submodule("head.0")), "get_submodule")
    expect(m.get_submodule("") is m, "get_submodule('')")
    expect_same_exc(lambda: r.get_submodule("head.5"), lambda: m.get_submodule("head.5"), "get_submodule missing")
    expect_same_exc(lambda: r.get_submodule("plain"), lambda: m.get_submodule("plain"), "get_submodule non-module")
    expect_tensor(r.get_parameter("layers.1.weight"), m.get_parameter("layers.1.weight"), "get_parameter")
    expect_tensor(r.get_parameter("alpha"), m.get_parameter("alpha"), "get_parameter top")
    expect_tensor(r.get_buffer("scale"), m.get_buffer("scale"), "get_buffer")
    expect_same_exc(lambda: r.get_buffer("alpha"), lambda: m.get_buffer("alpha"), "get_buffer of a parameter")
    # setattr semantics
    expect_same_exc(lambda: setattr(r, "alpha", torch.ones(6)), lambda: setattr(m, "alpha", torch.ones(6)),
                    "assign tensor to a parameter name")
    expect_same_exc(lambda: setattr(r, "head", 3), lambda: setattr(m, "head", 3), "assign int to a module name")
    expect_same_exc(lambda: setattr(r, "scale", 3), lambda: setattr(m, "scale", 3), "assign int to a buffer name")
    expect_same_exc(lambda: r.register_buffer("plain", torch.ones(1)),
                    lambda: m.register_buffer("plain", torch.ones(1)), "register_buffer over attribute")
    expect_same_exc(lambda: r.register_buffer("a.b", torch.ones(1)),
                    lambda: m.register_buffer("a.b", torch.ones(1)), "register_buffer dotted name")
    expect_same_exc(lambda: r.register_buffer("", torch.ones(1)),
                    lambda: m.register_buffer("", torch.ones(1)), "register_buffer empty name")
    expect_same_exc(lambda: r.register_buffer("q", 3), lambda: m.register_buffer("q", 3), "register_buffer int")
    expect_same_exc(lambda: r.register_parameter("q", torch.ones(1)),
                    lambda: m.register_parameter("q", torch.ones(1)), "register_parameter tensor")
    expect_same_exc(lambda: r.add_module("q", 3), lambda: m.add_module("q", 3), "add_module int")
    expect_same_exc(lambda: r.add_module("a.b", tnn.ReLU()), lambda: m.add_module("a.b", MY_NN.ReLU()),
                    "add_module dotted")
    r.scale = torch.full((6,), 2.0)
    m.scale = torch.full((6,), 2.0)
    r.head = None
    m.head = None
    r.alpha = None
    m.alpha = None
    r.plain = tnn.Parameter(torch.ones(2))
    m.plain = tnn.Parameter(torch.ones(2))
    r.extra = tnn.Tanh()
    m.extra = MY_NN.Tanh()
    compare_module_state(r, m, "Net after attribute assignments")
    del r.extra
    del m.extra
    del r.scale
    del m.scale
    del r.plain
    del m.plain
    r.note = "x"
    m.note = "x"
    del r.note
    del m.note
    expect_same_exc(lambda: r.note, lambda: m.note, "deleted plain attribute")
    compare_module_state(r, m, "Net after del")
    # a plain attribute replaced by a Parameter / Module moves into the registries
    r.note = 5
    m.note = 5
    r.note = tnn.Parameter(torch.zeros(1))
    m.note = tnn.Parameter(torch.zeros(1))
    r.note2 = 5
    m.note2 = 5
    r.note2 = tnn.ReLU()
    m.note2 = MY_NN.ReLU()
    compare_module_state(r, m, "Net after plain->param/module")
    # train / eval
    r.eval()
    m.eval()
    compare_module_state(r, m, "Net after eval()")
    expect_eq(repr(r.train()), repr(m.train()), "train() returns self")
    compare_module_state(r, m, "Net after train()")
    torch.manual_seed(11)
    r.head = tnn.Linear(6, 2)
    r.layers[1].train(False)
    torch.manual_seed(11)
    m.head = MY_NN.Linear(6, 2)
    m.layers[1].train(False)
    compare_module_state(r, m, "partial train(False)")
    expect_same_exc(lambda: r.train("yes"), lambda: m.train("yes"), "train('yes')")
    # requires_grad_
    r.requires_grad_(False)
    m.requires_grad_(False)
    compare_module_state(r, m, "requires_grad_(False)")
    r.requires_grad_()
    m.requires_grad_()
    # apply
    seen_r, seen_m = [], []
    r.apply(lambda mod: seen_r.append(type(mod).__name__))
    m.apply(lambda mod: seen_m.append(type(mod).__name__))
    expect_eq(seen_r, seen_m, "apply order")

    # apply-based init (a common pattern)
    def init_r(mod):
        if isinstance(mod, tnn.Linear):
            tnn.init.xavier_uniform_(mod.weight)
            if mod.bias is not None:
                tnn.init.zeros_(mod.bias)

    def init_m(mod):
        if isinstance(mod, MY_NN.Linear):
            MY_INIT.xavier_uniform_(mod.weight)
            if mod.bias is not None:
                MY_INIT.zeros_(mod.bias)
    torch.manual_seed(8)
    r.apply(init_r)
    torch.manual_seed(8)
    m.apply(init_m)
    compare_module_state(r, m, "after apply(xavier init)")

    # shared modules / parameters are reported once
    def shared(nn):
        l = nn.Linear(2, 2)
        s = nn.Sequential(l, nn.ReLU(), l)
        s.extra = l
        return s
    r2, m2 = construct_pair(shared, 0, "shared")
    compare_module_state(r2, m2, "shared modules")
    expect_eq([n for n, _ in r2.named_modules(remove_duplicate=False)],
              [n for n, _ in m2.named_modules(remove_duplicate=False)], "named_modules(remove_duplicate=False)")

    # to() / double() / float()
    for conv in ("double", "float", "to64", "to_tensor", "to_cpu", "to_cpu_64", "to_kw"):
        r3, m3 = construct_pair(lambda nn: nn.Sequential(nn.Linear(2, 3), nn.BatchNorm2d(3)), 0, "to")
        for mod, is_real in ((r3, True), (m3, False)):
            params_before = list(mod.parameters())
            if conv == "double":
                out = mod.double()
            elif conv == "float":
                out = mod.double().float()
            elif conv == "to64":
                out = mod.to(torch.float64)
            elif conv == "to_tensor":
                out = mod.to(torch.zeros(1, dtype=torch.float64))
            elif conv == "to_cpu":
                out = mod.to("cpu")
            elif conv == "to_cpu_64":
                out = mod.to("cpu", torch.float64)
            else:
                out = mod.to(device=torch.device("cpu"), dtype=torch.float64)
            expect(out is mod, conv + " returns self")
            expect(all(a is b for a, b in zip(params_before, mod.parameters())), conv + " keeps Parameter objects")
        compare_module_state(r3, m3, "after " + conv)

    # hooks
    r4, m4 = construct_pair(lambda nn: nn.Linear(3, 2), 0, "hooks")
    log_r, log_m = [], []
    hr = r4.register_forward_pre_hook(lambda mod, inp: log_r.append(("pre", tuple(inp[0].shape))))
    hm = m4.register_forward_pre_hook(lambda mod, inp: log_m.append(("pre", tuple(inp[0].shape))))
    r4.register_forward_hook(lambda mod, inp, out: out * 2)
    m4.register_forward_hook(lambda mod, inp, out: out * 2)
    x = torch.randn(4, 3)
    expect_tensor(r4(x), m4(x), "forward with hooks")
    hr.remove()
    hm.remove()
    expect_tensor(r4(x), m4(x), "forward after removing the pre hook")
    expect_eq(log_r, log_m, "hook log")
    # forward not implemented
    expect_same_exc(lambda: tnn.Module()(torch.ones(1)), lambda: MY_NN.Module()(torch.ones(1)), "Module() call")
    expect_eq(repr(tnn.Module()), repr(MY_NN.Module()), "Module() repr")

    # custom extra_repr with several lines and kwargs forward
    def custom(nn):
        class Custom(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(2, 2)

            def extra_repr(self):
                return "line one\nline two"

            def forward(self, x, scale=1.0):
                return self.lin(x) * scale
        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Custom()
                self.seq = nn.Sequential(Custom(), nn.ModuleDict({"k": Custom()}))

            def extra_repr(self):
                return "only line"

            def forward(self, x):
                return self.inner(x, scale=2.0)
        return Outer()
    r5, m5 = construct_pair(custom, 0, "custom extra_repr")
    compare_module_state(r5, m5, "custom extra_repr")
    x = torch.randn(3, 2)
    expect_tensor(r5(x), m5(x), "kwargs forward")


def test_zero_grad():
    for set_to_none in (False, True, None):
        r, m = construct_pair(lambda nn: nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)), 0, "zg")
        x = torch.randn(5, 3)
        r(x).sum().backward()
        m(x).sum().backward()
        # one parameter without grad
        r[2].bias.grad = None
        m[2].bias.grad = None
        if set_to_none is None:
            r.zero_grad()
            m.zero_grad()
        else:
            r.zero_grad(set_to_none=set_to_none)
            m.zero_grad(set_to_none=set_to_none)
        for (n, a), (_, b) in zip(r.named_parameters(), m.named_parameters()):
            expect_tensor(a.grad, b.grad, "Module.zero_grad({}) grad of {}".format(set_to_none, n))
        # optimizer zero_grad
        ro = toptim.SGD(r.parameters(), lr=0.1)
        mo = MY_OPTIM.SGD(m.parameters(), lr=0.1)
        r(x).sum().backward()
        m(x).sum().backward()
        if set_to_none is None:
            ro.zero_grad()
            mo.zero_grad()
        else:
            ro.zero_grad(set_to_none=set_to_none)
            mo.zero_grad(set_to_none=set_to_none)
        for (n, a), (_, b) in zip(r.named_parameters(), m.named_parameters()):
            expect_tensor(a.grad, b.grad, "Optimizer.zero_grad({}) grad of {}".format(set_to_none, n))
            if a.grad is not None:
                expect_eq(a.grad.requires_grad, b.grad.requires_grad, "grad.requires_grad")
    # zero_grad on a grad that has a graph (create_graph=True)
    r, m = construct_pair(lambda nn: nn.Linear(2, 1), 0, "zg graph")
    for mod, opt in ((r, toptim.SGD(r.parameters(), lr=0.1)), (m, MY_OPTIM.SGD(m.parameters(), lr=0.1))):
        y = (mod(torch.ones(1, 2)) ** 2).sum()
        y.backward(create_graph=True)
        opt.zero_grad()
        expect(mod.weight.grad.grad_fn is None and not mod.weight.grad.requires_grad,
               "zero_grad detaches a grad with a graph")
        expect(bool((mod.weight.grad == 0).all()), "zero_grad zeroes")


def test_load_state_dict():
    ctor = lambda nn: nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3))
    r, m = construct_pair(ctor, 0, "lsd")
    r_other, m_other = construct_pair(ctor, 77, "lsd other")
    x = torch.randn(2, 1, 4, 4)
    r_other(x)
    m_other(x)   # move the BN running stats
    res_r = r.load_state_dict(r_other.state_dict())
    res_m = m.load_state_dict(r_other.state_dict())
    expect_eq(repr(res_r), repr(res_m), "load_state_dict result (torch dict)")
    expect_eq(str(res_r), str(res_m), "load_state_dict result str")
    compare_module_state(r, m, "after load_state_dict(torch state)")
    # prelude state dict into torch and prelude modules
    r, m = construct_pair(ctor, 1, "lsd 2")
    res_r = r.load_state_dict(m_other.state_dict())
    res_m = m.load_state_dict(m_other.state_dict())
    expect_eq(repr(res_r), repr(res_m), "load_state_dict result (prelude dict)")
    compare_module_state(r, m, "after load_state_dict(prelude state)")
    # loading copies values, does not alias
    sd = m.state_dict()
    expect(sd["3.weight"].data_ptr() == m[3].weight.data_ptr(), "state_dict aliases parameters")
    expect(not sd["3.weight"].requires_grad, "state_dict detaches")
    sdk = m.state_dict(keep_vars=True)
    expect(sdk["3.weight"] is m[3].weight, "state_dict(keep_vars=True)")
    sdp = m.state_dict(prefix="model.")
    expect_eq(list(r.state_dict(prefix="model.").keys()), list(sdp.keys()), "state_dict(prefix)")
    # strict errors
    good = r_other.state_dict()
    bad = collections.OrderedDict(good)
    del bad["1.running_var"]
    bad["extra.weight"] = torch.ones(1)
    bad["3.bias_x"] = torch.ones(1)
    expect_same_exc(lambda: r.load_state_dict(bad), lambda: m.load_state_dict(bad), "strict load, bad keys")
    res_r = r.load_state_dict(bad, strict=False)
    res_m = m.load_state_dict(bad, strict=False)
    expect_eq(repr(res_r), repr(res_m), "non-strict load result")
    expect_eq(list(res_r.missing_keys), list(res_m.missing_keys), "missing_keys")
    expect_eq(list(res_r.unexpected_keys), list(res_m.unexpected_keys), "unexpected_keys")
    mk, uk = res_m
    expect_eq((mk, uk), (res_r.missing_keys, res_r.unexpected_keys), "unpacking result")
    shape = collections.OrderedDict(good)
    shape["3.weight"] = torch.ones(3, 9)
    expect_same_exc(lambda: r.load_state_dict(shape), lambda: m.load_state_dict(shape), "size mismatch")
    nontensor = collections.OrderedDict(good)
    nontensor["3.bias"] = [1.0, 2.0, 3.0]
    expect_same_exc(lambda: r.load_state_dict(nontensor), lambda: m.load_state_dict(nontensor), "non-tensor value")
    # BatchNorm: old (version-less) state dict without num_batches_tracked
    r, m = construct_pair(lambda nn: nn.BatchNorm2d(3), 0, "bn lsd")
    old = collections.OrderedDict((k, v) for k, v in r.state_dict().items() if k != "num_batches_tracked")
    expect_eq(repr(r.load_state_dict(old)), repr(m.load_state_dict(old)), "BN version-less state dict")
    compare_module_state(r, m, "BN after version-less load")
    # a 0-dim parameter/buffer loads from a 1-element 1-D tensor (0.3 compat)
    r.num_batches_tracked.fill_(5)
    compat = r.state_dict()
    compat["num_batches_tracked"] = torch.tensor([9])
    r.load_state_dict(compat)
    m.load_state_dict(compat)
    compare_module_state(r, m, "0-dim from 1-D")
    # plain dict works too
    plain = dict(r.state_dict())
    expect_eq(repr(r.load_state_dict(plain)), repr(m.load_state_dict(plain)), "plain dict")
    expect_same_exc(lambda: r.load_state_dict([1]), lambda: m.load_state_dict([1]), "load list")
    # a non-persistent buffer is neither saved nor expected
    r, m = construct_pair(build_misc_net, 0, "misc lsd")
    expect_eq(repr(r.load_state_dict(m.state_dict())), repr(m.load_state_dict(r.state_dict())), "misc round trip")
    compare_module_state(r, m, "misc after round trip")


# ----------------------------------------------------------------------------
# Optimizers
# ----------------------------------------------------------------------------


def mlp(nn):
    return nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Dropout(0.1), nn.Linear(16, 8), nn.Tanh(),
                         nn.Linear(8, 3))


def cnn(nn):
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(),
                         nn.Linear(4 * 5 * 5, 3))


OPT_CONFIGS = [
    ("SGD(lr=0.1)", "SGD", dict(lr=0.1)),
    ("SGD(momentum=0.9)", "SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD(momentum, nesterov, weight_decay)", "SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)),
    ("SGD(momentum, dampening, weight_decay)", "SGD", dict(lr=0.05, momentum=0.5, dampening=0.1, weight_decay=0.01)),
    ("SGD(maximize, momentum)", "SGD", dict(lr=0.01, momentum=0.9, maximize=True)),
    ("SGD(foreach=True)", "SGD", dict(lr=0.05, momentum=0.9, foreach=True)),
    ("Adam()", "Adam", dict()),
    ("Adam(lr=1e-2)", "Adam", dict(lr=1e-2)),
    ("Adam(weight_decay)", "Adam", dict(lr=1e-2, weight_decay=0.1)),
    ("Adam(amsgrad)", "Adam", dict(lr=1e-2, amsgrad=True)),
    ("Adam(betas, eps, maximize, amsgrad, wd)", "Adam",
     dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, maximize=True, amsgrad=True, weight_decay=0.01)),
    ("Adam(foreach=True)", "Adam", dict(lr=1e-2, foreach=True)),
    ("AdamW()", "AdamW", dict()),
    ("AdamW(lr, amsgrad, wd)", "AdamW", dict(lr=1e-2, amsgrad=True, weight_decay=0.05)),
    ("AdamW(maximize)", "AdamW", dict(lr=1e-2, maximize=True)),
]


def make_opt(lib, kind, params, kwargs):
    return getattr(lib, kind)(params, **kwargs)


def train_compare(name, model_ctor, kind, kwargs, use_groups=False, steps=5, loss_kind="ce"):
    r, m = construct_pair(model_ctor, 0, name)
    if use_groups:
        def groups(model):
            return [{"params": model[0].parameters(), "lr": 0.03},
                    {"params": list(model[-1].parameters()), "weight_decay": 0.0}]
        ro = make_opt(toptim, kind, groups(r), kwargs)
        mo = make_opt(MY_OPTIM, kind, groups(m), kwargs)
    else:
        ro = make_opt(toptim, kind, r.parameters(), kwargs)
        mo = make_opt(MY_OPTIM, kind, m.parameters(), kwargs)
    expect_eq(repr(ro), repr(mo), name + " optimizer repr")
    expect_same_value(ro.state_dict(), mo.state_dict(), name + " initial optimizer state_dict")
    expect_eq(type(mo.param_groups).__name__, "list", "param_groups is a list")
    lossr = tnn.CrossEntropyLoss() if loss_kind == "ce" else tnn.MSELoss()
    lossm = MY_NN.CrossEntropyLoss() if loss_kind == "ce" else MY_NN.MSELoss()
    torch.manual_seed(100)
    if model_ctor is cnn:
        x = torch.randn(6, 1, 5, 5)
    else:
        x = torch.randn(16, 4)
    y = torch.randint(0, 3, (x.shape[0],)) if loss_kind == "ce" else torch.randn(x.shape[0], 3)
    for step in range(steps):
        set_to_none = (step % 2 == 1)
        ro.zero_grad(set_to_none=set_to_none)
        mo.zero_grad(set_to_none=set_to_none)
        torch.manual_seed(200 + step)
        lr_ = lossr(r(x), y)
        torch.manual_seed(200 + step)
        lm_ = lossm(m(x), y)
        expect_tensor(lr_, lm_, "{} loss at step {}".format(name, step))
        lr_.backward()
        lm_.backward()
        if step == 2:
            def closure_r():
                return lr_.detach() * 1
            ret_r = ro.step(closure_r)
            ret_m = mo.step(lambda: lm_.detach() * 1)
            expect_tensor(ret_r, ret_m, name + " step(closure) return")
        else:
            ret_r = ro.step()
            ret_m = mo.step()
            expect(ret_r is None and ret_m is None, name + " step() returns None")
        for (n, a), (_, b) in zip(r.named_parameters(), m.named_parameters()):
            expect_tensor(a, b, "{} param {} after step {}".format(name, n, step + 1))
        for (n, a), (_, b) in zip(r.named_buffers(), m.named_buffers()):
            expect_tensor(a, b, "{} buffer {} after step {}".format(name, n, step + 1))
    expect_same_value(ro.state_dict(), mo.state_dict(), name + " optimizer state_dict after training")
    expect_eq(repr(ro), repr(mo), name + " optimizer repr after training")
    # state access by parameter
    for a, b in zip(r.parameters(), m.parameters()):
        expect_eq(a in ro.state, b in mo.state, name + " `p in state`")
        if a in ro.state:
            expect_same_value(dict(ro.state[a]), dict(mo.state[b]), name + " state[p]")
    expect_eq(len(ro.state), len(mo.state), name + " len(state)")
    return r, m, ro, mo, x, y, lossr, lossm


def test_optimizer(name, kind, kwargs):
    for model_ctor, loss_kind in ((mlp, "ce"), (cnn, "mse")):
        train_compare(name + " " + model_ctor.__name__, model_ctor, kind, kwargs, loss_kind=loss_kind)
    train_compare(name + " param groups", mlp, kind, kwargs, use_groups=True)


def test_optimizer_state_round_trip():
    for kind, kwargs in (("SGD", dict(lr=0.05, momentum=0.9)), ("Adam", dict(lr=1e-2, amsgrad=True)),
                         ("AdamW", dict(lr=1e-2))):
        name = "state round trip " + kind
        r, m, ro, mo, x, y, lossr, lossm = train_compare(name, mlp, kind, kwargs, steps=3)
        # fresh optimizers load the trained optimizers' state (torch's dict into prelude and back)
        ro2 = make_opt(toptim, kind, r.parameters(), dict(kwargs, lr=0.5))
        mo2 = make_opt(MY_OPTIM, kind, m.parameters(), dict(kwargs, lr=0.5))
        ro2.load_state_dict(ro.state_dict())
        mo2.load_state_dict(ro.state_dict())
        expect_same_value(ro2.state_dict(), mo2.state_dict(), name + " loaded state_dict")
        expect_eq(repr(ro2), repr(mo2), name + " repr after load")
        mo3 = make_opt(MY_OPTIM, kind, m.parameters(), kwargs)
        mo3.load_state_dict(mo.state_dict())
        expect_same_value(ro.state_dict(), mo3.state_dict(), name + " prelude state loaded into prelude")
        # the loaded state is a copy
        sd = ro.state_dict()
        for k, v in mo2.state_dict()["state"].items():
            for kk, t in v.items():
                if isinstance(t, torch.Tensor):
                    expect(t.data_ptr() != sd["state"][k][kk].data_ptr(), name + " loaded state is a copy")
        for step in range(3):
            ro2.zero_grad()
            mo2.zero_grad()
            torch.manual_seed(300 + step)
            lr_ = lossr(r(x), y)
            torch.manual_seed(300 + step)
            lm_ = lossm(m(x), y)
            lr_.backward()
            lm_.backward()
            ro2.step()
            mo2.step()
            for (n, a), (_, b) in zip(r.named_parameters(), m.named_parameters()):
                expect_tensor(a, b, "{} param {} after resumed step {}".format(name, n, step + 1))
        expect_same_exc(lambda: ro2.load_state_dict({"state": {}, "param_groups": []}),
                        lambda: mo2.load_state_dict({"state": {}, "param_groups": []}), name + " group count")


def test_optimizer_api():
    r, m = construct_pair(mlp, 0, "opt api")
    # defaults and param_groups
    for kind, kwargs in (("SGD", dict(lr=0.1)), ("Adam", dict()), ("AdamW", dict()),
                         ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True))):
        ro = make_opt(toptim, kind, r.parameters(), kwargs)
        mo = make_opt(MY_OPTIM, kind, m.parameters(), kwargs)
        expect_eq(ro.defaults, mo.defaults, kind + " defaults")
        expect_eq([{k: v for k, v in g.items() if k != "params"} for g in ro.param_groups],
                  [{k: v for k, v in g.items() if k != "params"} for g in mo.param_groups], kind + " param_groups")
        expect_eq([list(g.keys()) for g in ro.param_groups], [list(g.keys()) for g in mo.param_groups],
                  kind + " param_groups key order")
        expect(all(a is b for a, b in zip(mo.param_groups[0]["params"], m.parameters())), kind + " params identity")
        expect_eq(repr(ro), repr(mo), kind + " repr")
    # add_param_group
    ro = toptim.SGD(r[0].parameters(), lr=0.1, momentum=0.9)
    mo = MY_OPTIM.SGD(m[0].parameters(), lr=0.1, momentum=0.9)
    ro.add_param_group({"params": r[3].weight, "lr": 0.01})
    mo.add_param_group({"params": m[3].weight, "lr": 0.01})
    ro.add_param_group({"params": [r[5].weight, r[5].bias], "nesterov": True})
    mo.add_param_group({"params": [m[5].weight, m[5].bias], "nesterov": True})
    expect_eq(repr(ro), repr(mo), "add_param_group repr")
    expect_same_value(ro.state_dict(), mo.state_dict(), "add_param_group state_dict")
    expect_same_exc(lambda: ro.add_param_group({"params": r[0].weight}),
                    lambda: mo.add_param_group({"params": m[0].weight}), "parameter in two groups")
    expect_same_exc(lambda: ro.add_param_group({"params": {r[3].bias}}),
                    lambda: mo.add_param_group({"params": {m[3].bias}}), "params as a set")
    expect_same_exc(lambda: ro.add_param_group({"params": [1.0]}),
                    lambda: mo.add_param_group({"params": [1.0]}), "non-tensor param")
    expect_same_exc(lambda: ro.add_param_group([r[3].bias]), lambda: mo.add_param_group([m[3].bias]),
                    "group is not a dict")
    # constructor errors
    errs = [
        ("SGD no lr", lambda lib, ps: lib.SGD(ps)),
        ("SGD lr<0", lambda lib, ps: lib.SGD(ps, lr=-1)),
        ("SGD momentum<0", lambda lib, ps: lib.SGD(ps, lr=0.1, momentum=-0.5)),
        ("SGD wd<0", lambda lib, ps: lib.SGD(ps, lr=0.1, weight_decay=-0.5)),
        ("SGD nesterov without momentum", lambda lib, ps: lib.SGD(ps, lr=0.1, nesterov=True)),
        ("SGD nesterov with dampening", lambda lib, ps: lib.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1,
                                                               nesterov=True)),
        ("SGD empty", lambda lib, ps: lib.SGD([], lr=0.1)),
        ("SGD tensor", lambda lib, ps: lib.SGD(torch.ones(2), lr=0.1)),
        ("Adam lr<0", lambda lib, ps: lib.Adam(ps, lr=-1.0)),
        ("Adam eps<0", lambda lib, ps: lib.Adam(ps, eps=-1.0)),
        ("Adam beta0", lambda lib, ps: lib.Adam(ps, betas=(1.0, 0.9))),
        ("Adam beta1", lambda lib, ps: lib.Adam(ps, betas=(0.9, -0.1))),
        ("Adam wd<0", lambda lib, ps: lib.Adam(ps, weight_decay=-1)),
        ("AdamW wd<0", lambda lib, ps: lib.AdamW(ps, weight_decay=-1)),
    ]
    for name, f in errs:
        expect_same_exc(lambda: f(toptim, r.parameters()), lambda: f(MY_OPTIM, m.parameters()), name)
    # SGD without lr in constructor but given in every group works
    ro = toptim.SGD([{"params": r.parameters(), "lr": 0.2}])
    mo = MY_OPTIM.SGD([{"params": m.parameters(), "lr": 0.2}])
    expect_eq(repr(ro), repr(mo), "SGD lr from group")
    expect_eq(repr(sys.modules['torch.optim.optimizer'].required), repr(MY_OPTIM.required), "required repr")
    # a param without grad is skipped; state only for params with grads
    ro = toptim.Adam(r.parameters(), lr=0.1)
    mo = MY_OPTIM.Adam(m.parameters(), lr=0.1)
    torch.manual_seed(4)
    g = torch.randn(3, 8)
    r[5].weight.grad = g.clone()
    m[5].weight.grad = g.clone()
    r[5].bias.grad = None
    m[5].bias.grad = None
    ro.step()
    mo.step()
    expect_same_value(ro.state_dict(), mo.state_dict(), "state only for params with grad")
    for (n, a), (_, b) in zip(r.named_parameters(), m.named_parameters()):
        expect_tensor(a, b, "param {} after partial step".format(n))
    # printing the optimizer state (defaultdict keyed by parameters)
    torch.manual_seed(0)
    r1 = tnn.Linear(2, 1)
    torch.manual_seed(0)
    m1 = MY_NN.Linear(2, 1)
    for mod, opt in ((r1, toptim.Adam(r1.parameters(), amsgrad=True)),
                     (m1, MY_OPTIM.Adam(m1.parameters(), amsgrad=True))):
        mod(torch.ones(3, 2)).sum().backward()
        opt.step()
        printed_state = printed(opt.state)
        if mod is r1:
            expected = printed_state
    expect_eq(expected, printed_state, "print(optimizer.state)")


# ----------------------------------------------------------------------------
# Subset lint: the prelude must stay inside the model-script subset
# ----------------------------------------------------------------------------

ALLOWED_BUILTINS = set("""
print len range zip enumerate min max sum abs round int float bool str repr list tuple dict set sorted reversed
any all map isinstance type getattr setattr hasattr iter next id callable object super
ValueError TypeError KeyError IndexError AttributeError RuntimeError NotImplementedError StopIteration
AssertionError
""".split())

PROVIDED = {
    "init.py": {"torch", "F", "math", "Parameter", "_OrderedDict"},
    "nn.py": {"torch", "F", "math", "Parameter", "_OrderedDict", "init"},
    "optim.py": {"torch", "math"},
}

# method / attribute names that may be called as x.name(...)
ALLOWED_CALLED_ATTRS = set("""
uniform_ normal_ fill_ zero_ copy_ mul_ add_ addcmul_ addcdiv_ sqrt div_ add mul sub clone detach maximum neg
dim size numel requires_grad_ to item erfinv_ clamp_ is_floating_point detach_
empty zeros ones tensor zeros_like ones_like no_grad eye sigmoid tanh flatten
linear relu gelu silu softmax log_softmax leaky_relu dropout layer_norm embedding conv2d pad batch_norm
mse_loss cross_entropy max_pool2d avg_pool2d adaptive_avg_pool2d
sqrt erf
join split format startswith endswith replace strip rstrip lstrip lower upper count find
items keys values get pop update setdefault copy
append extend insert index remove
__setattr__ __delattr__ __init__ __repr__
ndimension new t_ view_as diag sign qr ceil randperm
""".split())

FORBIDDEN_ATTRS = {"__dict__", "__slots__", "__getattribute__", "__new__", "__class_getitem__", "__mro__"}


def _bound_names(tree):
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def lint_file(filename):
    path = os.path.join(PRELUDE_DIR, filename)
    with open(path) as f:
        src = f.read()
    tree = ast.parse(src, path)
    problems = []
    defined_methods = set()
    for other in PROVIDED:   # functions/methods defined anywhere in the prelude (init.xxx from nn.py)
        with open(os.path.join(PRELUDE_DIR, other)) as f:
            for node in ast.walk(ast.parse(f.read())):
                if isinstance(node, ast.FunctionDef):
                    defined_methods.add(node.name)
    bound = _bound_names(tree)
    allowed_names = bound | PROVIDED[filename] | ALLOWED_BUILTINS

    def where(node):
        return "{}:{}".format(filename, getattr(node, "lineno", "?"))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            problems.append(where(node) + " import")
        elif isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            problems.append(where(node) + " generator/await")
        elif isinstance(node, ast.GeneratorExp):
            problems.append(where(node) + " generator expression")
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            problems.append(where(node) + " global/nonlocal")
        elif isinstance(node, (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith)):
            problems.append(where(node) + " async")
        elif isinstance(node, ast.FunctionDef) and node.decorator_list:
            problems.append(where(node) + " decorator on " + node.name)
        elif isinstance(node, ast.ClassDef):
            if node.decorator_list:
                problems.append(where(node) + " class decorator")
            if len(node.bases) > 1 or node.keywords:
                problems.append(where(node) + " multiple inheritance / metaclass in " + node.name)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and \
                isinstance(node.left, (ast.Constant, ast.JoinedStr)) and isinstance(
                    getattr(node.left, "value", None), str):
            problems.append(where(node) + " % formatting")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRS:
            problems.append(where(node) + " uses " + node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super" \
                and node.args:
            problems.append(where(node) + " super() with arguments")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in allowed_names:
            problems.append(where(node) + " unknown name " + node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr not in ALLOWED_CALLED_ATTRS and attr not in defined_methods:
                problems.append(where(node) + " calls unlisted method ." + attr + "()")
        elif isinstance(node, ast.With):
            for item in node.items:
                e = item.context_expr
                if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "no_grad"):
                    problems.append(where(node) + " `with` other than torch.no_grad()")
        elif isinstance(node, ast.Lambda) and node.args.vararg is not None:
            problems.append(where(node) + " lambda *args")
        elif isinstance(node, ast.Assert):
            problems.append(where(node) + " assert statement")
        elif isinstance(node, ast.NamedExpr):
            problems.append(where(node) + " walrus")
        elif isinstance(node, ast.Set) or isinstance(node, ast.SetComp):
            problems.append(where(node) + " set literal")
    if problems:
        raise Mismatch("\n".join(problems))


# ----------------------------------------------------------------------------


def main():
    global MY_INIT, MY_NN, MY_OPTIM
    torch.set_num_threads(1)
    print("torch", torch.__version__, "| prelude at", PRELUDE_DIR)
    for fn in ("init.py", "nn.py", "optim.py"):
        run("subset lint " + fn, lint_file, fn)
    try:
        MY_INIT, MY_NN, MY_OPTIM = load_prelude()
    except Exception:
        fail("load prelude", traceback.format_exc())
        print("{} passed, {} failed".format(PASSED, FAILED))
        return 1
    ok("load prelude")
    run("init functions", test_init)
    for name, ctor, inputs, backward in cfg_modules():
        run("module " + name, test_module_config, name, ctor, inputs, backward)
    run("Sequential ops", test_sequential_ops)
    run("ModuleList ops", test_modulelist_ops)
    run("ModuleDict ops", test_moduledict_ops)
    run("Module API", test_module_api)
    run("zero_grad", test_zero_grad)
    run("load_state_dict", test_load_state_dict)
    for name, kind, kwargs in OPT_CONFIGS:
        run("optim " + name, test_optimizer, name, kind, kwargs)
    run("optimizer state round trip", test_optimizer_state_round_trip)
    run("optimizer API", test_optimizer_api)
    print("{} passed, {} failed".format(PASSED, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
