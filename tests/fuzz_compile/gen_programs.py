#!/usr/bin/python3
"""Generate random model scripts for the torch.compile differential test.

Usage:

    python3 tests/fuzz_compile/gen_programs.py --out DIR [--count N] [--seed S]

Writes DIR/fuzz_sS_NNNN.py for NNNN in 0..N-1.  The same seed and index always
give the same file (program k depends only on (S, k), not on N).  Needs no torch.

Each script defines `make_inputs` (1-3 float32 tensors, some broadcasting against
each other, some non-contiguous: `.t()`, `.transpose(0, 1)`, `[:, ::2]`,
`[..., ::2]`, `.expand(...)`) and `f`, 3-12 random ops that mostly chain on the
latest value; f returns every value that no later op reads (so nothing is dead code,
and many programs have several outputs).  It runs
`ref = f(*inputs)`, then `cf = torch.compile(f)` on the same inputs twice (the
first call traces, the second replays the cached graph) and, when the program
has a batch dim, on two more batch sizes (the first resize recompiles with a
dynamic dim, the second replays that dynamic graph).  Every comparison prints
`ok TAG SHAPE` or `MISMATCH TAG: ...`; the last line is `done`.

Shapes are tracked for every batch size at once (a dim is a tuple of its sizes,
one per batch size), so an op is emitted only where it is valid for all of them,
and code never hard-codes a batch-dependent size (it writes -1 instead).  A rough
bound on |values| keeps every value finite (exp only on bounded inputs, log and
sqrt of abs(x) + c, growth ops refused past BOUND_LIMIT).
"""
import argparse
import math
import os
import random
import re
import sys

MAX_RANK = 4
MAX_NUMEL = 200_000       # per value, for every batch size
MAX_INPUT_NUMEL = 40_000
BOUND_LIMIT = 1e3         # refuse ops whose result could exceed this magnitude
INPUT_BOUND = 5.0         # |randn| over a few 10k samples
BIG_DIMS = (33, 64)


class Val:
    """A tensor value of the generated function: a name, its shape for each batch size,
    a bound on |values|, whether it is known to be contiguous, and per dim whether the
    values are known to vary along it (layer_norm needs a varied last dim)."""

    def __init__(self, name, shape, bound, contig, varied):
        self.name = name
        self.shape = tuple(shape)            # tuple of dims; a dim is a tuple of sizes
        self.bound = bound
        self.contig = contig
        self.varied = list(varied)
        assert len(self.varied) == len(self.shape)

    @property
    def rank(self):
        return len(self.shape)


def const(d):
    """The size of dim d if it is the same for every batch size, else None."""
    return d[0] if all(v == d[0] for v in d) else None


def numel(shape, nvar):
    return max(math.prod(d[i] for d in shape) for i in range(nvar)) if shape else 1


def broadcast(s1, s2):
    """Broadcast shape of s1 and s2 for every batch size, or None."""
    out = []
    r = max(len(s1), len(s2))
    for i in range(r):
        a = s1[len(s1) - r + i] if len(s1) - r + i >= 0 else None
        b = s2[len(s2) - r + i] if len(s2) - r + i >= 0 else None
        if a is None:
            out.append(b)
            continue
        if b is None:
            out.append(a)
            continue
        dim = []
        for x, y in zip(a, b):
            if x == y or y == 1:
                dim.append(x)
            elif x == 1:
                dim.append(y)
            else:
                return None
        out.append(tuple(dim))
    return tuple(out)


def align_varied(v, r):
    """v.varied right-aligned to rank r (missing leading dims: not varied)."""
    return [False] * (r - v.rank) + [flag and min(d) > 1 for flag, d in zip(v.varied, v.shape)]


def fmt_shape(shape):
    return "(" + ", ".join("/".join(str(s) for s in sorted(set(d))) for d in shape) + ("," if len(shape) == 1 else "") + ")"


class Program:
    def __init__(self, rng, seed, index):
        self.rng = rng
        self.seed = seed
        self.index = index
        self.dynamic = rng.random() < 0.8
        if self.dynamic:
            pool = list(range(2, 18)) + list(BIG_DIMS)
            self.batches = rng.sample(pool, 3)
        else:
            self.batches = [None]
        self.nvar = len(self.batches)
        self.inputs = []
        self.input_code = []
        self.vals = []
        self.lines = []
        self.op_names = []
        self.used = set()         # names read by some op

    # --- shapes -------------------------------------------------------------------
    def rand_size(self):
        r = self.rng.random()
        if r < 0.06:
            return self.rng.choice(BIG_DIMS)
        if r < 0.16:
            return 1
        return self.rng.randint(2, 17)

    def dim(self, n):
        return (n,) * self.nvar

    def batch_dim(self):
        return tuple(self.batches) if self.dynamic else self.dim(self.rand_size())

    def numel_ok(self, shape, limit=MAX_NUMEL):
        return numel(shape, self.nvar) <= limit

    # --- inputs -------------------------------------------------------------------
    def make_inputs(self):
        rng = self.rng
        for _ in range(100):
            rank = rng.choice([1, 2, 2, 2, 3, 3, 3, 4])
            base = (self.batch_dim(),) + tuple(self.dim(self.rand_size()) for _ in range(rank - 1))
            if self.numel_ok(base, MAX_INPUT_NUMEL):
                break
        shapes = [base]
        for _ in range(rng.randint(1, 3) - 1):
            for _ in range(100):
                shape = self.derived_shape(base)
                if shape and self.numel_ok(shape, MAX_INPUT_NUMEL):
                    shapes.append(shape)
                    break
        for i, shape in enumerate(shapes):
            self.add_input("x%d" % i, shape)

    def derived_shape(self, base):
        rng = self.rng
        kind = rng.choice(["same", "same", "ones", "ones", "suffix", "matmul", "random"])
        if kind == "same":
            return base
        if kind == "ones":
            return tuple(self.dim(1) if (i > 0 or not self.dynamic) and rng.random() < 0.4 else d
                         for i, d in enumerate(base))
        if kind == "suffix":
            if len(base) < 2:
                return base
            k = rng.randint(1, len(base) - 1)
            return tuple(self.dim(1) if rng.random() < 0.2 else d for d in base[k:])
        if kind == "matmul":
            k = base[-1]
            m = self.dim(self.rand_size())
            return (base[:-2] if len(base) >= 3 else ()) + (k, m)
        rank = rng.choice([1, 2, 2, 3])
        return (self.batch_dim() if self.dynamic else self.dim(self.rand_size()),) + \
            tuple(self.dim(self.rand_size()) for _ in range(rank - 1))

    def size_code(self, d):
        """Code for one input dim: a literal, or `b` for the batch dim."""
        c = const(d)
        if c is not None and not (self.dynamic and d == tuple(self.batches)):
            return str(c)
        return "b"

    def add_input(self, name, shape):
        rng = self.rng
        ds = [self.size_code(d) for d in shape]
        rank = len(shape)
        layouts = ["plain", "plain", "plain"]
        if rank == 2:
            layouts.append("t")
        if rank >= 2:
            layouts += ["transpose", "step"]
        if const(shape[-1]) is not None:
            layouts.append("laststep")
        if rank >= 2 and min(shape[0]) > 1:
            layouts.append("expand")
        layout = rng.choice(layouts)
        varied = [min(d) > 1 for d in shape]
        contig = False

        def doubled(s):
            return "2 * b" if s == "b" else str(2 * int(s))

        if layout == "plain":
            code = "torch.randn(%s)" % ", ".join(ds)
            contig = True
        elif layout == "t":
            code = "torch.randn(%s, %s).t()" % (ds[1], ds[0])
        elif layout == "transpose":
            code = "torch.randn(%s).transpose(0, 1)" % ", ".join([ds[1], ds[0]] + ds[2:])
        elif layout == "step":
            code = "torch.randn(%s)[:, ::2]" % ", ".join([ds[0], doubled(ds[1])] + ds[2:])
        elif layout == "laststep":
            code = "torch.randn(%s)[..., ::2]" % ", ".join(ds[:-1] + [doubled(ds[-1])])
        else:  # expand: stride 0 along dim 0
            code = "torch.randn(%s).expand(%s)" % (", ".join(["1"] + ds[1:]),
                                                   ", ".join([ds[0]] + ["-1"] * (rank - 1)))
            varied[0] = False
        if layout != "plain":
            code += "  # non-contiguous"
        self.input_code.append("    %s = %s" % (name, code))
        v = Val(name, shape, INPUT_BOUND, contig, varied)
        self.inputs.append(v)

    # --- ops ----------------------------------------------------------------------
    def pick(self):
        pool = self.inputs + self.vals
        if self.vals and self.rng.random() < 0.7:
            return self.vals[-1]
        return self.rng.choice(pool)

    def emit(self, opname, expr, shape, bound, contig, varied):
        if bound > BOUND_LIMIT or not self.numel_ok(shape) or len(shape) == 0 or len(shape) > MAX_RANK:
            return False
        name = "v%d" % len(self.vals)
        self.used.update(re.findall(r"\b[vx]\d+\b", expr))
        self.lines.append("    %s = %s" % (name, expr))
        self.vals.append(Val(name, shape, bound, contig, varied))
        self.op_names.append(opname)
        return True

    def op_unary(self, a):
        rng, x = self.rng, a.name
        b = a.bound
        choices = [
            ("neg", rng.choice(["-%s" % x, "torch.neg(%s)" % x, "%s.neg()" % x]), b),
            ("abs", rng.choice(["torch.abs(%s)" % x, "%s.abs()" % x]), b),
            ("log", rng.choice(["torch.log(%s.abs() + 1)" % x, "torch.log(torch.abs(%s) + 1.0)" % x]),
             math.log(b + 1)),
            ("tanh", rng.choice(["torch.tanh(%s)" % x, "%s.tanh()" % x]), 1.0),
            ("sigmoid", rng.choice(["torch.sigmoid(%s)" % x, "%s.sigmoid()" % x]), 1.0),
            ("relu", rng.choice(["torch.relu(%s)" % x, "F.relu(%s)" % x]), b),
            ("gelu", "F.gelu(%s)" % x, b),
            ("gelu_tanh", "F.gelu(%s, approximate='tanh')" % x, b),
            ("silu", "F.silu(%s)" % x, b),
            ("sqrt", rng.choice(["torch.sqrt(%s.abs() + 1e-3)" % x, "(torch.abs(%s) + 0.5).sqrt()" % x]),
             math.sqrt(b + 1)),
            ("rsqrt", rng.choice(["torch.rsqrt(%s.abs() + 1)" % x, "(%s.abs() + 1).rsqrt()" % x]), 1.0),
            ("erf", rng.choice(["torch.erf(%s)" % x, "%s.erf()" % x]), 1.0),
        ]
        if b <= 50:
            choices += [("sin", rng.choice(["torch.sin(%s)" % x, "%s.sin()" % x]), 1.0),
                        ("cos", rng.choice(["torch.cos(%s)" % x, "%s.cos()" % x]), 1.0)]
        # exp only of bounded values
        if b <= 5:
            choices.append(("exp", rng.choice(["torch.exp(%s)" % x, "%s.exp()" % x]), math.exp(b)))
        else:
            choices.append(("exp", rng.choice(["torch.exp(%s.clamp(-5.0, 5.0))" % x,
                                               "torch.exp(torch.tanh(%s))" % x]), math.exp(5)))
        lo, hi = rng.choice([(-1.0, 1.0), (-0.5, 2.0), (0.0, 6.0)])
        choices.append(("clamp", rng.choice(["%s.clamp(%r, %r)" % (x, lo, hi),
                                             "torch.clamp(%s, min=%r, max=%r)" % (x, lo, hi)]),
                        min(b, max(abs(lo), abs(hi)))))
        choices.append(("clamp_min", "torch.clamp(%s, min=%r)" % (x, lo), max(b, abs(lo))))
        choices.append(("clamp_max", "%s.clamp(max=%r)" % (x, hi), max(b, abs(hi))))
        p = rng.choice([2, 3])
        choices.append(("pow%d" % p, rng.choice(["%s.pow(%d)" % (x, p), "%s ** %d" % (x, p),
                                                 "torch.pow(%s, %d)" % (x, p)]), b ** p))
        name, expr, bound = rng.choice(choices)
        return self.emit(name, expr, a.shape, bound, a.contig, a.varied)

    def op_scalar(self, a):
        x = a.name
        name, expr, bound = self.rng.choice([
            ("mul_scalar", "%s * 0.5" % x, a.bound * 0.5),
            ("add_scalar", "%s + 1" % x, a.bound + 1),
            ("rmul_scalar", "2.0 * %s" % x, a.bound * 2),
            ("rsub_scalar", "1.5 - %s" % x, a.bound + 1.5),
            ("div_scalar", "%s / 4" % x, a.bound / 4),
        ])
        return self.emit(name, expr, a.shape, bound, a.contig, a.varied)

    def partner(self, a, want):
        """A value that broadcasts with a (want='any') or into a's shape (want='into')."""
        pool = [v for v in self.inputs + self.vals if v is not a]
        self.rng.shuffle(pool)
        for v in pool:
            s = broadcast(a.shape, v.shape)
            if s is None:
                continue
            if want == "into" and s != a.shape:
                continue
            return v
        return None

    def binary_result(self, a, b, shape):
        r = len(shape)
        va, vb = align_varied(a, r), align_varied(b, r)
        varied = [x or y for x, y in zip(va, vb)]
        contig = a.contig and b.contig and a.shape == shape and b.shape == shape
        return varied, contig

    def op_binary(self, a):
        rng = self.rng
        b = self.partner(a, "any") if rng.random() < 0.85 else None
        if b is None:
            b = a
        if rng.random() < 0.5:
            a, b = b, a
        shape = broadcast(a.shape, b.shape)
        varied, contig = self.binary_result(a, b, shape)
        x, y = a.name, b.name
        name, expr, bound = rng.choice([
            ("add", "%s + %s" % (x, y), a.bound + b.bound),
            ("sub", "%s - %s" % (x, y), a.bound + b.bound),
            ("mul", rng.choice(["%s * %s" % (x, y), "torch.mul(%s, %s)" % (x, y)]), a.bound * b.bound),
            ("div", "%s / (%s.abs() + 1)" % (x, y), a.bound),
            ("maximum", "torch.maximum(%s, %s)" % (x, y), max(a.bound, b.bound)),
            ("minimum", "torch.minimum(%s, %s)" % (x, y), max(a.bound, b.bound)),
            ("where", "torch.where(%s > %s, %s, %s)" % (x, y, x, y), max(a.bound, b.bound)),
        ])
        return self.emit(name, expr, shape, bound, contig, varied)

    def dim_arg(self, rank, d):
        """Dim index as code: sometimes negative."""
        return str(d - rank) if self.rng.random() < 0.3 else str(d)

    def op_reduce(self, a):
        rng = self.rng
        d = rng.randrange(a.rank)
        keep = a.rank == 1 or rng.random() < 0.5
        n = max(a.shape[d])
        kind = rng.choice(["sum", "mean", "amax", "amin", "var"])
        dc = self.dim_arg(a.rank, d)
        if keep:
            shape = a.shape[:d] + (self.dim(1),) + a.shape[d + 1:]
            varied = a.varied[:d] + [False] + a.varied[d + 1:]
        else:
            shape = a.shape[:d] + a.shape[d + 1:]
            varied = a.varied[:d] + a.varied[d + 1:]
        kd = ", keepdim=True" if keep else rng.choice(["", ", keepdim=False"])
        x = a.name
        if kind == "sum":
            expr = rng.choice(["%s.sum(dim=%s%s)" % (x, dc, kd), "torch.sum(%s, %s%s)" % (x, dc, kd)])
            bound = a.bound * n
        elif kind == "mean":
            expr = rng.choice(["%s.mean(dim=%s%s)" % (x, dc, kd), "torch.mean(%s, %s%s)" % (x, dc, kd)])
            bound = a.bound
        elif kind in ("amax", "amin"):
            expr = rng.choice(["%s.%s(dim=%s%s)" % (x, kind, dc, kd), "torch.%s(%s, %s%s)" % (kind, x, dc, kd)])
            bound = a.bound
        else:
            unbiased = rng.random() < 0.5
            if unbiased and min(a.shape[d]) < 2:
                unbiased = False  # n - 1 == 0 would give nan
            expr = "%s.var(dim=%s, unbiased=%s%s)" % (x, dc, unbiased, kd)
            bound = a.bound * a.bound * (2 if unbiased else 1)
        return self.emit(kind, expr, shape, bound, a.contig, varied)

    def op_softmax(self, a):
        rng = self.rng
        d = rng.randrange(a.rank)
        dc = self.dim_arg(a.rank, d)
        x = a.name
        if rng.random() < 0.5:
            expr = rng.choice(["torch.softmax(%s, dim=%s)" % (x, dc), "F.softmax(%s, dim=%s)" % (x, dc),
                               "%s.softmax(%s)" % (x, dc)])
            return self.emit("softmax", expr, a.shape, 1.0, a.contig, a.varied)
        expr = rng.choice(["torch.log_softmax(%s, dim=%s)" % (x, dc), "F.log_softmax(%s, dim=%s)" % (x, dc)])
        bound = 2 * a.bound + math.log(max(a.shape[d])) + 1
        return self.emit("log_softmax", expr, a.shape, bound, a.contig, a.varied)

    def op_layer_norm(self, a):
        n = const(a.shape[-1])
        if n is None or n < 2 or not a.varied[-1]:
            return False  # batch-dependent normalized_shape, or a (near-)constant row
        expr = "F.layer_norm(%s, (%d,))" % (a.name, n)
        return self.emit("layer_norm", expr, a.shape, math.sqrt(n) + 1, a.contig, a.varied)

    def op_masked_fill(self, a):
        rng = self.rng
        c = self.partner(a, "into") if rng.random() < 0.6 else None
        if c is None:
            c = a
        cmp = rng.choice([">", "<", ">=", "<="])
        thr = rng.choice([0.0, 0.5, -0.3, 1.0])
        fill = rng.choice([0.0, -1.0, 1.0, 0.25])
        expr = "%s.masked_fill(%s %s %r, %r)" % (a.name, c.name, cmp, thr, fill)
        return self.emit("masked_fill", expr, a.shape, max(a.bound, abs(fill)), a.contig, a.varied)

    def op_matmul(self, a):
        rng = self.rng
        if a.rank < 2:
            return False
        cands = []
        for v in self.inputs + self.vals:
            if v.rank < 2:
                continue
            batch = broadcast(a.shape[:-2], v.shape[:-2])
            if batch is None:
                continue
            if v.shape[-2] == a.shape[-1]:
                cands.append((v, False, batch))
            if v.shape[-1] == a.shape[-1]:
                cands.append((v, True, batch))
        v, trans, batch = rng.choice(cands)  # never empty: a matches its own transpose
        rhs = v.name + (rng.choice([".transpose(-2, -1)", ".transpose(-1, -2)"]) if trans else "")
        if trans and v.rank == 2 and rng.random() < 0.5:
            rhs = v.name + ".t()"
        m = v.shape[-2] if trans else v.shape[-1]
        shape = batch + (a.shape[-2], m)
        k = max(a.shape[-1])
        bound = a.bound * v.bound * k
        vv = v.varied[-2] if trans else v.varied[-1]
        varied = [True] * len(batch) + [a.varied[-2], vv]
        expr = rng.choice(["%s @ %s" % (a.name, rhs), "torch.matmul(%s, %s)" % (a.name, rhs)])
        return self.emit("matmul", expr, shape, bound, False, varied)

    def reshape_code(self, a, shape, opname):
        """x.view(...)/x.reshape(...) with literal sizes and -1 for the (single) batch-dependent one."""
        sizes = []
        for d in shape:
            c = const(d)
            sizes.append(str(c) if c is not None else "-1")
        if sizes.count("-1") > 1:
            return None
        if sizes.count("-1") == 0 and self.rng.random() < 0.3:
            sizes[self.rng.randrange(len(sizes))] = "-1"
        args = ", ".join(sizes)
        if opname == "view":
            if a.contig:
                return "%s.view(%s)" % (a.name, args)
            return "%s.contiguous().view(%s)" % (a.name, args)
        return self.rng.choice(["%s.reshape(%s)" % (a.name, args), "torch.reshape(%s, (%s%s))"
                                     % (a.name, args, "," if len(shape) == 1 else "")])

    def op_view(self, a):
        rng = self.rng
        kind = rng.choice(["reshape", "reshape", "permute", "transpose", "unsqueeze", "expand",
                           "slice1", "slicestep", "t", "contiguous"])
        x = a.name
        if kind == "reshape":
            opname = rng.choice(["view", "reshape"])
            how = rng.choice(["flatten", "merge", "split"])
            if how == "merge" and a.rank < 2:
                how = "split"
            if how == "flatten":
                shape = (tuple(math.prod(d[i] for d in a.shape) for i in range(self.nvar)),)
                varied = [any(a.varied)]
            elif how == "merge":
                i = rng.randrange(a.rank - 1)
                merged = tuple(p * q for p, q in zip(a.shape[i], a.shape[i + 1]))
                shape = a.shape[:i] + (merged,) + a.shape[i + 2:]
                varied = a.varied[:i] + [a.varied[i] or a.varied[i + 1]] + a.varied[i + 2:]
            else:  # split a dim of constant size n into (p, n // p)
                i = rng.randrange(a.rank)
                n = const(a.shape[i])
                if n is None or a.rank >= MAX_RANK:
                    return False
                divs = [p for p in range(2, n) if n % p == 0]
                if not divs:
                    return False
                p = rng.choice(divs)
                shape = a.shape[:i] + (self.dim(p), self.dim(n // p)) + a.shape[i + 1:]
                varied = a.varied[:i] + [a.varied[i], a.varied[i]] + a.varied[i + 1:]
            code = self.reshape_code(a, shape, opname)
            if code is None:
                return False
            return self.emit(opname, code, shape, a.bound, a.contig, varied)
        if kind == "permute":
            if a.rank < 2:
                return False
            perm = list(range(a.rank))
            while perm == sorted(perm):
                rng.shuffle(perm)
            expr = rng.choice(["%s.permute(%s)" % (x, ", ".join(map(str, perm))),
                               "torch.permute(%s, (%s))" % (x, ", ".join(map(str, perm)))])
            return self.emit("permute", expr, tuple(a.shape[p] for p in perm), a.bound, False,
                             [a.varied[p] for p in perm])
        if kind == "transpose":
            if a.rank < 2:
                return False
            i, j = rng.sample(range(a.rank), 2)
            perm = list(range(a.rank))
            perm[i], perm[j] = perm[j], perm[i]
            expr = rng.choice(["%s.transpose(%s, %s)" % (x, self.dim_arg(a.rank, i), self.dim_arg(a.rank, j)),
                               "torch.transpose(%s, %d, %d)" % (x, i, j)])
            return self.emit("transpose", expr, tuple(a.shape[p] for p in perm), a.bound, False,
                             [a.varied[p] for p in perm])
        if kind == "t":
            if a.rank != 2:
                return False
            return self.emit("t", rng.choice(["%s.t()" % x, "torch.t(%s)" % x]), (a.shape[1], a.shape[0]),
                             a.bound, False, [a.varied[1], a.varied[0]])
        if kind == "unsqueeze":
            if a.rank >= MAX_RANK:
                return False
            d = rng.randint(-(a.rank + 1), a.rank)
            pos = d if d >= 0 else d + a.rank + 1
            expr = rng.choice(["%s.unsqueeze(%d)" % (x, d), "torch.unsqueeze(%s, %d)" % (x, d)])
            return self.emit("unsqueeze", expr, a.shape[:pos] + (self.dim(1),) + a.shape[pos:], a.bound,
                             a.contig, a.varied[:pos] + [False] + a.varied[pos:])
        if kind == "expand":
            ones = [i for i, d in enumerate(a.shape) if d == self.dim(1)]
            new_lead = 0
            if not ones or rng.random() < 0.3:
                new_lead = 1
                if a.rank + new_lead > MAX_RANK:
                    return False
            sizes, shape, varied = [], [], []
            for _ in range(new_lead):
                n = rng.randint(2, 5)
                sizes.append(str(n))
                shape.append(self.dim(n))
                varied.append(False)
            for i, d in enumerate(a.shape):
                if i in ones and rng.random() < 0.7:
                    n = rng.randint(2, 9)
                    sizes.append(str(n))
                    shape.append(self.dim(n))
                else:
                    sizes.append("-1" if const(d) is None or rng.random() < 0.5 else str(const(d)))
                    shape.append(d)
                varied.append(a.varied[i])
            expr = "%s.expand(%s)" % (x, ", ".join(sizes))
            return self.emit("expand", expr, tuple(shape), a.bound, False, varied)
        if kind == "slice1":
            if a.rank < 2 or min(a.shape[1]) < 2:
                return False
            shape = a.shape[:1] + (tuple(n - 1 for n in a.shape[1]),) + a.shape[2:]
            varied = a.varied[:1] + [a.varied[1] and min(shape[1]) > 1] + a.varied[2:]
            return self.emit("slice", "%s[:, 1:]" % x, shape, a.bound, False, varied)
        if kind == "slicestep":
            if min(a.shape[-1]) < 2:
                return False
            last = tuple((n + 1) // 2 for n in a.shape[-1])
            varied = a.varied[:-1] + [a.varied[-1] and min(last) > 1]
            return self.emit("slice_step", "%s[..., ::2]" % x, a.shape[:-1] + (last,), a.bound, False, varied)
        # contiguous
        return self.emit("contiguous", "%s.contiguous()" % x, a.shape, a.bound, True, a.varied)

    OPS = [("unary", 30), ("scalar", 8), ("binary", 22), ("reduce", 10), ("softmax", 5),
           ("layer_norm", 4), ("view", 20), ("masked_fill", 4), ("matmul", 4)]

    def add_op(self):
        rng = self.rng
        kinds = [k for k, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        for _ in range(60):
            kind = rng.choices(kinds, weights)[0]
            a = self.pick()
            if getattr(self, "op_" + kind)(a):
                return
        # fallback that always fits: squash the latest value
        a = self.vals[-1] if self.vals else self.inputs[0]
        assert self.emit("tanh", "torch.tanh(%s)" % a.name, a.shape, 1.0, a.contig, a.varied)

    # --- the script ---------------------------------------------------------------
    def generate(self):
        self.make_inputs()
        n_ops = self.rng.randint(3, 12)
        for _ in range(n_ops):
            self.add_op()
        # return every value no later op reads, so that no op is dead code
        outs = [v for v in self.vals if v.name not in self.used]
        return self.render(outs)

    def render(self, outs):
        args = ", ".join(v.name for v in self.inputs)
        k = self.seed * 100000 + self.index
        head = [
            "# fuzz_compile: seed %d, program %d (generated by tests/fuzz_compile/gen_programs.py; do not edit)"
            % (self.seed, self.index),
            "# ops: %s" % " ".join(self.op_names),
            "# inputs: %s" % "  ".join("%s%s" % (v.name, fmt_shape(v.shape)) for v in self.inputs),
            "import torch",
            "import torch.nn.functional as F",
            "",
            "",
        ]
        if self.dynamic:
            head.append("def make_inputs(b):")
        else:
            head.append("def make_inputs():")
        body = head + self.input_code + ["    return %s%s" % (args, "," if len(self.inputs) == 1 else ""),
                                         "", "", "def f(%s):" % args] + self.lines
        body.append("    return %s" % ", ".join(v.name for v in outs))
        body += [
            "",
            "",
            "def check(tag, got, want):",
            "    if isinstance(want, tuple):",
            "        for i in range(len(want)):",
            "            check(f\"{tag}[{i}]\", got[i], want[i])",
            "        return",
            "    if got.shape != want.shape or got.dtype != want.dtype:",
            "        print(f\"MISMATCH {tag}: got {got.dtype}{tuple(got.shape)}, eager {want.dtype}{tuple(want.shape)}\")",
            "    # elementwise within 1e-5, or (where a result cancels, e.g. mean(x) - x) within 1e-5 of",
            "    # the output's largest magnitude: float32 rounding of the inputs to the cancellation",
            "    elif torch.allclose(got, want, rtol=1e-5, atol=1e-5) or (got.is_floating_point() and got.numel() > 0 and",
            "                                                            ((got - want).abs().max() <= 1e-5 * want.abs().max().clamp(min=1.0)).item()):",
            "        print(f\"ok {tag} {tuple(got.shape)}\")",
            "    else:",
            "        diff = (got - want).abs().max().item()",
            "        print(f\"MISMATCH {tag}: max abs diff {diff:.3g} shape {tuple(got.shape)}\")",
            "",
            "",
            "torch.manual_seed(%d)" % k,
        ]
        call = "make_inputs(%d)" % self.batches[0] if self.dynamic else "make_inputs()"
        body += [
            "inputs = %s" % call,
            "ref = f(*inputs)",
            "cf = torch.compile(f)",
            "out = cf(*inputs)  # traces and compiles",
            "check(\"first call\", out, ref)",
            "out2 = cf(*inputs)  # replays the cached graph",
            "check(\"cached call\", out2, ref)",
        ]
        if self.dynamic:
            b2, b3 = self.batches[1], self.batches[2]
            body += [
                "# new batch sizes: the first recompiles with a dynamic batch dim, the second replays it",
                "for b in (%d, %d):" % (b2, b3),
                "    resized = make_inputs(b)",
                "    check(f\"resized call b={b}\", cf(*resized), f(*resized))",
            ]
        body.append("print(\"done\")")
        return "\n".join(body) + "\n"


def generate(seed, index):
    """Source of program `index` for `seed` (independent of how many are generated)."""
    rng = random.Random("fuselab-fuzz:%d:%d" % (seed, index))
    return Program(rng, seed, index).generate()


def script_name(seed, index):
    return "fuzz_s%d_%04d.py" % (seed, index)


def write_programs(out_dir, count, seed):
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i in range(count):
        path = os.path.join(out_dir, script_name(seed, i))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(generate(seed, i))
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory to write the scripts into")
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int, default=None, help="write only program INDEX")
    args = ap.parse_args()
    if args.only is not None:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, script_name(args.seed, args.only))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(generate(args.seed, args.only))
        print(path)
        return 0
    paths = write_programs(args.out, args.count, args.seed)
    print("wrote %d programs to %s" % (len(paths), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
