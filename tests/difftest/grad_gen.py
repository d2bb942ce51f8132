"""Random small training programs for grad_difftest.py: an op chain over leaf tensors, checked
statement by statement on a float64 evaluator of our own, and written out as model script text.

Standard library only. The inputs are literals (three decimals; the generator rounds them to
float32 as torch.tensor does), so the generator knows every value the script will see and can
refuse a statement that rests on rounding: a relu, leaky_relu, clamp, comparison mask or
masked_fill whose input lies within 1e-3 (relative, floor 1) of its threshold, a division or log
or rsqrt near zero, a layer_norm over a row that is (nearly) constant, a sum, difference or
matmul whose terms cancel, values past 200 in magnitude. Compiled code rounds otherwise than
eager and is still right; near a kink the gradient would jump, and the case would fail for no
fault. The evaluator also gives each output's sum and sum of magnitudes, which the script checks
against its own float64 run: a generator whose evaluator (and so its margins) were wrong would show.
"""
import itertools
import math
import random
import re
import struct

MAX_NUMEL = 400  # any statement's result
MAX_LEAF_NUMEL = 150
MAX_LEAVES = 6
MAX_ABS = 200.0
SCALARS = ["2.0", "-1.5", "0.5", "3", "0.25", "-2", "1.75"]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


# ---------------------------------------------------------------- a tiny float64 tensor evaluator
class T:
    """A dense row-major tensor: shape (tuple) and data (list of floats, or ints / bools)."""
    __slots__ = ("shape", "data")

    def __init__(self, shape, data):
        self.shape = tuple(shape)
        self.data = data
        assert len(data) == prod(self.shape), (shape, len(data))


def strides(shape):
    st = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        st[i] = st[i + 1] * shape[i + 1]
    return st


def gather(t, shape, st, offset=0):
    idxs = itertools.product(*[range(s) for s in shape])
    return T(shape, [t.data[offset + sum(i * s for i, s in zip(ix, st))] for ix in idxs])


def permute(t, perm):
    st = strides(t.shape)
    return gather(t, [t.shape[p] for p in perm], [st[p] for p in perm])


def bshape(*shapes):
    """The broadcast shape, or None."""
    r = max(len(s) for s in shapes)
    out = []
    for i in range(r):
        sizes = {s[len(s) - r + i] for s in shapes if len(s) - r + i >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def expand_to(t, shape):
    off = len(shape) - len(t.shape)
    st = strides(t.shape)
    es = [0] * len(shape)
    for i, s in enumerate(t.shape):
        assert s == shape[off + i] or s == 1
        es[off + i] = st[i] if s == shape[off + i] and s != 1 else 0
    return gather(t, shape, es)


def pointwise(fn, *ts):
    shape = bshape(*[t.shape for t in ts])
    cols = [expand_to(t, shape).data for t in ts]
    return T(shape, [fn(*v) for v in zip(*cols)])


def ndim(dim, rank):
    return dim + rank if dim < 0 else dim


def reduce(t, dims, keepdim, op):
    """op(list of the values of one output element) over dims (all of them when dims is None)."""
    rank = len(t.shape)
    dims = sorted({ndim(d, rank) for d in (range(rank) if dims is None else dims)})
    keep = [d for d in range(rank) if d not in dims]
    p = permute(t, keep + dims)
    n = prod(t.shape[d] for d in dims)
    rows = [op(p.data[i:i + n]) for i in range(0, len(p.data), n)] if n else []
    shape = [1 if d in dims else t.shape[d] for d in range(rank)] if keepdim else [t.shape[d] for d in keep]
    return T(shape, rows)


def along(t, dim, rowfn):
    """rowfn(list) -> list of the same length, applied along dim."""
    rank = len(t.shape)
    dim = ndim(dim, rank)
    perm = [d for d in range(rank) if d != dim] + [dim]
    p = permute(t, perm)
    n = t.shape[dim]
    data = []
    for i in range(0, len(p.data), n):
        data.extend(rowfn(p.data[i:i + n]))
    inv = [perm.index(d) for d in range(rank)]
    return permute(T(p.shape, data), inv)


def narrow(t, dim, start, length):
    dim = ndim(dim, len(t.shape))
    st = strides(t.shape)
    shape = list(t.shape)
    shape[dim] = length
    return gather(t, shape, st, start * st[dim])


def matmul(a, b):
    """2-D @ 2-D, 3-D @ 3-D (same batch), 3-D @ 2-D."""
    if len(b.shape) == 2:
        b2 = b
        if len(a.shape) == 3:
            a2 = T((a.shape[0] * a.shape[1], a.shape[2]), a.data)
            r = matmul(a2, b2)
            return T((a.shape[0], a.shape[1], b.shape[1]), r.data)
        m, k = a.shape
        n = b.shape[1]
        out = []
        for i in range(m):
            for j in range(n):
                out.append(sum(a.data[i * k + q] * b.data[q * n + j] for q in range(k)))
        return T((m, n), out)
    out = []
    bs, m, k = a.shape
    n = b.shape[2]
    for z in range(bs):
        az = T((m, k), a.data[z * m * k:(z + 1) * m * k])
        bz = T((k, n), b.data[z * k * n:(z + 1) * k * n])
        out.extend(matmul(az, bz).data)
    return T((bs, m, n), out)


def softmax_row(r):
    m = max(r)
    e = [math.exp(x - m) for x in r]
    s = sum(e)
    return [x / s for x in e]


def log_softmax_row(r):
    m = max(r)
    lse = m + math.log(sum(math.exp(x - m) for x in r))
    return [x - lse for x in r]


def gelu(x):
    return 0.5 * x * (1 + math.erf(x / math.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def absT(t):
    return T(t.shape, [abs(x) for x in t.data])


def no_cancel(r, mag):
    """Whether r is not what is left of terms that cancelled, as a whole tensor: its largest value
    at least 1e-2 of the largest sum of magnitudes (mag) it came from. A tensor that is rounding
    noise of its terms is compared against a tolerance of its own size, which noise exceeds."""
    big = max(mag.data) if mag.data else 0.0
    return big == 0 or max(abs(x) for x in r.data) >= 1e-2 * big


def transpose(t, d0, d1):
    rank = len(t.shape)
    perm = list(range(rank))
    d0, d1 = ndim(d0, rank), ndim(d1, rank)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return permute(t, perm)


# ---------------------------------------------------------------- programs
class Val:
    """A name's value at generation time: kind 'f' (float32), 'b' (bool) or 'i' (int64); grad:
    whether it depends on a leaf that requires grad; contig: known contiguous (may use .view);
    flat: its sum does not depend on the leaves (softmax, layer_norm), so `.sum()` of it would
    have a gradient of rounding noise only, and no loss is made that way."""
    __slots__ = ("t", "kind", "grad", "contig", "flat")

    def __init__(self, t, kind="f", grad=False, contig=False, flat=False):
        self.t, self.kind, self.grad, self.contig, self.flat = t, kind, grad, contig, flat


class Leaf:
    """One input: its values (shape as stored), kind, requires_grad, and how the function sees it:
    `layout` 'plain' or 't' (passed transposed: the leaf is stored with its last two dims swapped)."""

    def __init__(self, shape, data, kind, requires_grad, layout="plain"):
        self.shape, self.data, self.kind, self.requires_grad, self.layout = tuple(shape), data, kind, requires_grad, layout
        self.name = None  # its argument name, x0, x1, ... in the order made

    def stored(self):
        return T(self.shape, self.data)

    def seen(self):
        t = self.stored()
        return transpose(t, -1, -2) if self.layout == "t" else t


class Program:
    """name, leaves, stmts [(targets tuple, expr)], outputs (names), loss mode ('weighted' or
    'sum' of output `single`), backward mode ('backward', 'retain', 'grad', 'accumulate'),
    expect {name: (sum, sum of magnitudes, shape)} and grads {name: whether it needs grad} of each
    statement target."""

    def __init__(self, name, seed, leaves, stmts, outputs, loss, single, mode, expect, grads):
        self.name, self.seed, self.leaves, self.stmts = name, seed, leaves, stmts
        self.outputs, self.loss, self.single, self.mode = outputs, loss, single, mode
        self.expect, self.grads = expect, grads

    def without(self, drop):
        """The program without statements `drop` (indices) and every statement reading their
        results; None when no output that needs grad is left."""
        gone = set()
        kept = []
        for i, (targets, expr) in enumerate(self.stmts):
            if i in drop or any(_reads(expr, g) for g in gone):
                gone.update(targets)
                continue
            kept.append((targets, expr))
        outs = [o for o in self.outputs if o not in gone]
        if not any(self.grads[o] for o in outs):
            live = [v for ts, _ in kept for v in ts if self.grads.get(v)]
            if not live:
                return None
            outs = [live[-1]]
        single = self.single if self.single in outs else next(o for o in outs if self.grads[o])
        # inputs nothing reads any more go too, unless none that requires grad would be left
        leaves = [lf for lf in self.leaves if any(_reads(e, lf.name) for _, e in kept) or lf.name in outs]
        if not any(lf.requires_grad for lf in leaves):
            leaves = self.leaves
        return Program(self.name, self.seed, leaves, kept, outs, self.loss, single, self.mode, self.expect, self.grads)


def _reads(expr, var):
    return re.search(r"\b%s\b" % var, expr) is not None


def _fmt(x):
    s = "%.3f" % x
    s = s.rstrip("0")
    return s + "0" if s.endswith(".") else s


def _nested(shape, data, fmt):
    if not shape:
        return fmt(data[0])
    if len(shape) == 1:
        return "[" + ", ".join(fmt(x) for x in data) + "]"
    n = len(data) // shape[0]
    return "[" + ", ".join(_nested(shape[1:], data[i * n:(i + 1) * n], fmt) for i in range(shape[0])) + "]"


class Gen:
    """The state of one program being built."""

    def __init__(self, rng):
        self.rng = rng
        self.leaves = []
        self.env = {}  # name -> Val
        self.order = []  # names in creation order (args and statement targets)
        self.pending = []  # leaves proposed by the statement being tried

    # ---- names and values
    def floats(self, pred=None):
        return [n for n in self.order if self.env[n].kind == "f" and (pred is None or pred(self.env[n]))]

    def pick(self, pred=None):
        """A float name, the recent ones likelier (chains rather than fans)."""
        names = self.floats(pred)
        if not names:
            return None
        weights = [1 + 3 * (i >= len(names) - 3) for i in range(len(names))]
        return self.rng.choices(names, weights)[0]

    def rand_values(self, shape, positive=False):
        n = prod(shape)
        lo, hi = (0.1, 2.0) if positive else (-2.0, 2.0)
        return [f32(round(self.rng.uniform(lo, hi), 3)) for _ in range(n)]

    def new_leaf(self, shape, kind="f", requires_grad=None, data=None, layout="plain"):
        """A new input (committed only if the statement is): its argument name and value."""
        shape = tuple(shape)
        if requires_grad is None:
            requires_grad = kind == "f" and self.rng.random() < 0.7
        if data is None:
            data = self.rand_values(shape, positive=self.rng.random() < 0.25)
        if layout == "t":
            stored = list(shape[:-2]) + [shape[-1], shape[-2]]
            leaf = Leaf(stored, transpose(T(shape, data), -1, -2).data, kind, requires_grad, "t")
        else:
            leaf = Leaf(shape, data, kind, requires_grad)
        name = "x%d" % (len(self.leaves) + len(self.pending))
        leaf.name = name
        self.pending.append((name, leaf))
        return name, Val(leaf.seen(), kind, requires_grad, layout == "plain")

    def can_add_leaf(self, shape):
        return len(self.leaves) + len(self.pending) < MAX_LEAVES and 0 < prod(shape) <= MAX_LEAF_NUMEL

    def commit_leaves(self, vals):
        for name, leaf in self.pending:
            self.leaves.append(leaf)
            self.env[name] = vals[name]
            self.order.append(name)
        self.pending = []

    # ---- numeric guards
    @staticmethod
    def away(t, thr, rel=1e-3):
        """Every value of t at least rel * max(1, |x|) from thr (scalar or T of the same shape)."""
        ths = thr.data if isinstance(thr, T) else None
        for i, x in enumerate(t.data):
            th = ths[i] if ths is not None else thr
            if abs(x - th) < rel * max(1.0, abs(x), abs(th)):
                return False
        return True

    @staticmethod
    def fine(t):
        return all(math.isfinite(x) and abs(x) <= MAX_ABS for x in t.data) and prod(t.shape) <= MAX_NUMEL


# ---------------------------------------------------------------- the op table
# Each op: fn(gen) -> (targets, expr, {target: Val}) or None. Operands are names of float values;
# a new leaf may be proposed (gen.new_leaf) for weights, biases, targets and broadcast partners.
def _d(g, rank):
    """A dim of a rank-`rank` tensor, negative half the time."""
    d = g.rng.randrange(rank)
    return d - rank if g.rng.random() < 0.4 else d


def _contig_pw(*vals):
    return all(v.contig for v in vals)


def op_unary(g):
    a = g.pick()
    if a is None:
        return None
    va = g.env[a]
    t = va.t
    rng = g.rng
    positive = min(t.data) >= 0.05 if t.data else False
    choice = rng.choice(["neg", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "gelu_tanh",
                         "silu", "leaky", "square", "cube", "clamp"])
    sq = lambda x: x * x + 0.25  # noqa: E731 - the argument made positive when it is not
    if choice == "neg":
        expr, fn = rng.choice(["-{a}", "torch.neg({a})", "{a}.neg()"]), lambda x: -x
    elif choice == "exp":
        if max(t.data) > 3:
            return None
        expr, fn = rng.choice(["torch.exp({a})", "{a}.exp()"]), math.exp
    elif choice in ("log", "sqrt", "rsqrt"):
        base = {"log": math.log, "sqrt": math.sqrt, "rsqrt": lambda x: 1 / math.sqrt(x)}[choice]
        if positive:
            expr = rng.choice(["torch.%s({a})" % choice, "{a}.%s()" % choice])
            fn = base
        else:
            expr = "torch.%s({a} * {a} + 0.25)" % choice
            fn = lambda x: base(sq(x))  # noqa: E731
    elif choice == "tanh":
        expr, fn = rng.choice(["torch.tanh({a})", "{a}.tanh()"]), math.tanh
    elif choice == "sigmoid":
        expr, fn = rng.choice(["torch.sigmoid({a})", "{a}.sigmoid()"]), sigmoid
    elif choice == "relu":
        if not g.away(t, 0.0):
            return None
        expr, fn = rng.choice(["torch.relu({a})", "F.relu({a})", "{a}.relu()"]), lambda x: max(x, 0.0)
    elif choice == "gelu":
        expr, fn = rng.choice(["F.gelu({a})", "F.gelu({a}, approximate='none')"]), gelu
    elif choice == "gelu_tanh":
        expr, fn = "F.gelu({a}, approximate='tanh')", gelu_tanh
    elif choice == "silu":
        expr, fn = "F.silu({a})", lambda x: x * sigmoid(x)
    elif choice == "leaky":
        if not g.away(t, 0.0):
            return None
        slope = rng.choice([0.01, 0.1, 0.2])
        expr = "F.leaky_relu({a})" if slope == 0.01 else "F.leaky_relu({a}, %s)" % slope
        fn = lambda x: x if x > 0 else slope * x  # noqa: E731
    elif choice == "square":
        expr, fn = rng.choice(["torch.square({a})", "{a} ** 2", "{a} * {a}", "{a}.pow(2)"]), lambda x: x * x
    elif choice == "cube":
        expr, fn = rng.choice(["{a} ** 3", "torch.pow({a}, 3)"]), lambda x: x ** 3
    else:
        lo, hi = rng.choice([(-1.0, 1.0), (-0.5, None), (None, 0.75), (0.0, 2.0)])
        for b in (lo, hi):
            if b is not None and not g.away(t, b):
                return None
        if lo is not None and hi is not None:
            expr = rng.choice(["torch.clamp({a}, %s, %s)" % (lo, hi), "{a}.clamp(min=%s, max=%s)" % (lo, hi)])
        elif lo is not None:
            expr = "{a}.clamp(min=%s)" % lo
        else:
            expr = "torch.clamp({a}, max=%s)" % hi
        fn = lambda x: min(max(x, -1e300 if lo is None else lo), 1e300 if hi is None else hi)  # noqa: E731
    r = T(t.shape, [fn(x) for x in t.data])
    return expr.format(a=a), Val(r, "f", va.grad, va.contig, va.flat and choice == "neg")


def _partner_shape(g, shape):
    """A shape that broadcasts with `shape`: a suffix, some dims set to 1, or a leading dim more."""
    rng = g.rng
    s = list(shape)
    k = rng.choice(["same", "suffix", "ones", "lead"])
    if k == "suffix" and s:
        s = s[rng.randrange(len(s)):]
    elif k == "ones" and s:
        s = [1 if rng.random() < 0.5 else x for x in s]
    elif k == "lead" and len(s) < 3:
        s = [rng.choice([1, 2, 3])] + s
    return tuple(s)


def _operand_for(g, sa):
    """A name whose value broadcasts with shape sa (existing, or a new leaf), and its Val."""
    cands = [n for n in g.floats() if bshape(sa, g.env[n].t.shape) is not None
             and prod(bshape(sa, g.env[n].t.shape)) <= MAX_NUMEL]
    if cands and g.rng.random() < 0.6:
        b = g.rng.choice(cands)
        return b, g.env[b]
    shape = _partner_shape(g, sa)
    if not g.can_add_leaf(shape) or bshape(sa, shape) is None:
        return None, None
    return g.new_leaf(shape)


def op_binary(g):
    a = g.pick()
    if a is None:
        return None
    va = g.env[a]
    rng = g.rng
    if rng.random() < 0.35:  # with a Python scalar
        s = rng.choice(SCALARS)
        sv = float(s)
        form = rng.choice(["{a} + {s}", "{s} + {a}", "{a} - {s}", "{s} - {a}", "{a} * {s}", "{s} * {a}", "{a} / {s}",
                           "{s} / {a}"])
        if form == "{s} / {a}" and not g.away(va.t, 0.0, 0.25):
            form = "{s} / ({a} * {a} + 1)"
            fn = lambda x: sv / (x * x + 1)  # noqa: E731
        else:
            fn = {"{a} + {s}": lambda x: x + sv, "{s} + {a}": lambda x: sv + x, "{a} - {s}": lambda x: x - sv,
                  "{s} - {a}": lambda x: sv - x, "{a} * {s}": lambda x: x * sv, "{s} * {a}": lambda x: sv * x,
                  "{a} / {s}": lambda x: x / sv, "{s} / {a}": lambda x: sv / x}[form]
        r = T(va.t.shape, [fn(x) for x in va.t.data])
        if ("+" in form or "-" in form) and "/" not in form and not no_cancel(r, T(r.shape, [abs(x) + abs(sv) for x in va.t.data])):
            return None
        return form.format(a=a, s=s), Val(r, "f", va.grad, va.contig, va.flat and not form.startswith("{s} /"))
    b, vb = _operand_for(g, va.t.shape)
    if b is None:
        return None
    if rng.random() < 0.5:
        a, b, va, vb = b, a, vb, va
    op = rng.choice(["+", "-", "*", "/", "add", "sub", "mul"] if a != b else ["+", "*", "add", "mul"])
    if op == "/":
        if g.away(vb.t, 0.0, 0.25):
            expr, fn = "{a} / {b}", lambda x, y: x / y
        else:
            expr, fn = "{a} / ({b} * {b} + 1)", lambda x, y: x / (y * y + 1)
    else:
        expr = {"+": "{a} + {b}", "-": "{a} - {b}", "*": "{a} * {b}", "add": "torch.add({a}, {b})",
                "sub": "torch.sub({a}, {b})", "mul": "torch.mul({a}, {b})"}[op]
        fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y, "add": lambda x, y: x + y,
              "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}[op]
    r = pointwise(fn, va.t, vb.t)
    if op in ("+", "-", "add", "sub") and not no_cancel(r, pointwise(lambda x, y: abs(x) + abs(y), va.t, vb.t)):
        return None
    return expr.format(a=a, b=b), Val(r, "f", va.grad or vb.grad, _contig_pw(va, vb))


def op_reduce(g):
    a = g.pick()
    if a is None:
        return None
    va = g.env[a]
    t = va.t
    rank = len(t.shape)
    rng = g.rng
    kind = rng.choice(["sum", "mean"])
    fn = (lambda r: sum(r)) if kind == "sum" else (lambda r: sum(r) / len(r) if r else float("nan"))
    if not no_cancel(reduce(t, None, False, fn), reduce(absT(t), None, False, fn)):
        return None  # the whole sum cancels (and so may a part of it): not worth sorting out which
    if rank == 0 or rng.random() < 0.2:
        expr = rng.choice(["{a}.%s()" % kind, "torch.%s({a})" % kind])
        return expr.format(a=a), Val(reduce(t, None, False, fn), "f", va.grad, True, va.flat)
    if rng.random() < 0.25 and rank >= 2:
        d1, d2 = rng.sample(range(rank), 2)
        keep = rng.random() < 0.5
        dims = (d1 - rank if rng.random() < 0.3 else d1, d2)
        expr = rng.choice(["{a}.%s(dim=(%d, %d), keepdim=%s)" % (kind, dims[0], dims[1], keep),
                           "torch.%s({a}, [%d, %d], %s)" % (kind, dims[0], dims[1], keep)])
        r = reduce(t, dims, keep, fn)
        if not no_cancel(r, reduce(absT(t), dims, keep, fn)):
            return None
        return expr.format(a=a), Val(r, "f", va.grad, va.contig, va.flat)
    d = _d(g, rank)
    keep = rng.random() < 0.5
    if keep:
        expr = rng.choice(["{a}.%s(%d, keepdim=True)" % (kind, d), "torch.%s({a}, dim=%d, keepdim=True)" % (kind, d),
                           "{a}.%s(%d, True)" % (kind, d)])
    else:
        expr = rng.choice(["{a}.%s(%d)" % (kind, d), "torch.%s({a}, %d)" % (kind, d), "{a}.%s(dim=%d, keepdim=False)" % (kind, d)])
    r = reduce(t, [d], keep, fn)
    if not no_cancel(r, reduce(absT(t), [d], keep, fn)):
        return None
    return expr.format(a=a), Val(r, "f", va.grad, va.contig, va.flat)


def op_softmax(g):
    a = g.pick(lambda v: len(v.t.shape) >= 1)
    if a is None:
        return None
    va = g.env[a]
    d = _d(g, len(va.t.shape))
    if va.t.shape[d] < 2:  # a constant (softmax 1, log_softmax 0): no gradient to check
        return None
    if g.rng.random() < 0.5:
        expr = g.rng.choice(["F.softmax({a}, dim=%d)", "torch.softmax({a}, %d)", "{a}.softmax(%d)"]) % d
        r = along(va.t, d, softmax_row)
        return expr.format(a=a), Val(r, "f", va.grad, va.contig, True)
    else:
        expr = g.rng.choice(["F.log_softmax({a}, dim=%d)", "torch.log_softmax({a}, %d)", "{a}.log_softmax(dim=%d)"]) % d
        r = along(va.t, d, log_softmax_row)
    return expr.format(a=a), Val(r, "f", va.grad, va.contig)


def _norm_rows_ok(t, n):
    """Every row of n values has a variance well above its own rounding (not near-constant)."""
    for i in range(0, len(t.data), n):
        row = t.data[i:i + n]
        m = sum(row) / n
        var = sum((x - m) ** 2 for x in row) / n
        if var < 1e-2 or var < 0.05 * sum(x * x for x in row) / n:
            return False
    return True


def op_layer_norm(g):
    a = g.pick(lambda v: len(v.t.shape) >= 1 and v.t.shape[-1] >= 2)
    if a is None:
        return None
    va = g.env[a]
    t = va.t
    rng = g.rng
    nd = 2 if len(t.shape) >= 2 and rng.random() < 0.25 else 1
    nshape = t.shape[-nd:]
    n = prod(nshape)
    if not _norm_rows_ok(t, n):
        return None
    rows = []
    for i in range(0, len(t.data), n):
        row = t.data[i:i + n]
        m = sum(row) / n
        var = sum((x - m) ** 2 for x in row) / n
        rows.extend((x - m) / math.sqrt(var + 1e-5) for x in row)
    r = T(t.shape, rows)
    shape_txt = "(%s)" % "".join("%d, " % s for s in nshape) if rng.random() < 0.7 or nd == 2 else "{a}.shape[-1:]"
    affine = rng.choice(["none", "wb", "w", "b"])
    grad = va.grad
    names = {}
    if affine != "none":
        if not g.can_add_leaf(nshape) or len(g.leaves) + len(g.pending) + 2 > MAX_LEAVES:
            affine = "none"
    if affine in ("wb", "w"):
        w, vw = g.new_leaf(nshape)
        names["w"] = w
        grad = grad or vw.grad
        r = pointwise(lambda x, y: x * y, r, vw.t)
    if affine in ("wb", "b"):
        b, vb = g.new_leaf(nshape)
        names["b"] = b
        grad = grad or vb.grad
        r = pointwise(lambda x, y: x + y, r, vb.t)
    if affine == "wb":
        expr = rng.choice(["F.layer_norm({a}, %s, {w}, {b})", "F.layer_norm({a}, %s, weight={w}, bias={b})"]) % shape_txt
    elif affine == "w":
        expr = "F.layer_norm({a}, %s, {w})" % shape_txt
    elif affine == "b":
        expr = "F.layer_norm({a}, %s, None, {b})" % shape_txt
    else:
        expr = rng.choice(["F.layer_norm({a}, %s)" % shape_txt, "F.layer_norm({a}, %s, eps=1e-5)" % shape_txt])
    return expr.format(a=a, **names), Val(r, "f", grad, True, affine in ("none", "b"))


def op_matmul(g):
    a = g.pick(lambda v: len(v.t.shape) in (2, 3))
    rng = g.rng
    if a is None:
        return None
    va = g.env[a]
    t = va.t
    k = t.shape[-1]
    form = rng.choice(["linear", "linear_b", "mm", "mm_t", "bmm"] if len(t.shape) == 3 else ["linear", "linear_b", "mm", "mm_t"])
    o = rng.randint(1, 7)
    if form == "bmm":
        bs, m, _ = t.shape
        cands = [n for n in g.floats() if len(g.env[n].t.shape) == 3 and g.env[n].t.shape[:2] == (bs, k) and n != a]
        if cands and rng.random() < 0.5:
            b = rng.choice(cands)
            vb = g.env[b]
            expr = rng.choice(["torch.matmul({a}, {b})", "{a} @ {b}", "torch.bmm({a}, {b})"])
        else:
            shape = (bs, o, k) if rng.random() < 0.4 else (bs, k, o)
            if not g.can_add_leaf(shape):
                return None
            b, vb = g.new_leaf(shape)
            if shape[1] == k and shape[2] == o and shape != (bs, o, k):
                expr = rng.choice(["torch.matmul({a}, {b})", "{a} @ {b}", "torch.bmm({a}, {b})"])
            else:
                expr = "{a} @ {b}.transpose(1, 2)"
                vb = Val(transpose(vb.t, 1, 2), "f", vb.grad)
        r = matmul(t, vb.t)
        if not no_cancel(r, matmul(absT(t), absT(vb.t))):
            return None
        return expr.format(a=a, b=b), Val(r, "f", va.grad or vb.grad, True)
    names = {"a": a}
    if form in ("linear", "linear_b", "mm_t"):
        w, vw = g.new_leaf((o, k)) if g.can_add_leaf((o, k)) else (None, None)
        if w is None:
            return None
        names["w"] = w
        r = matmul(t, transpose(vw.t, 0, 1))
        mag = matmul(absT(t), absT(transpose(vw.t, 0, 1)))
        grad = va.grad or vw.grad
        if form == "linear":
            expr = "F.linear({a}, {w})"
        elif form == "mm_t":
            expr = rng.choice(["{a} @ {w}.t()", "torch.matmul({a}, {w}.t())"])
        else:
            if not g.can_add_leaf((o,)):
                return None
            bn, vbias = g.new_leaf((o,))
            names["b"] = bn
            r = pointwise(lambda x, y: x + y, r, vbias.t)
            mag = pointwise(lambda x, y: x + abs(y), mag, vbias.t)
            grad = grad or vbias.grad
            expr = rng.choice(["F.linear({a}, {w}, {b})", "F.linear({a}, {w}, bias={b})"])
    else:
        cands = [n for n in g.floats() if g.env[n].t.shape == (k, o) and n != a]
        if cands:
            w = cands[0]
            vw = g.env[w]
        else:
            if not g.can_add_leaf((k, o)):
                return None
            w, vw = g.new_leaf((k, o), layout="t" if rng.random() < 0.3 and k > 1 and o > 1 else "plain")
        names["w"] = w
        r = matmul(t, vw.t)
        mag = matmul(absT(t), absT(vw.t))
        grad = va.grad or vw.grad
        expr = rng.choice(["{a} @ {w}", "torch.matmul({a}, {w})"] + (["torch.mm({a}, {w})"] if len(t.shape) == 2 else []))
    if not no_cancel(r, mag):
        return None
    return expr.format(**names), Val(r, "f", grad, True)


def _factor_shape(rng, n):
    """A random shape with n elements, 1 to 3 dims."""
    dims = []
    rest = n
    for _ in range(rng.randint(0, 2)):
        divs = [d for d in range(1, rest + 1) if rest % d == 0 and d <= 7]
        d = rng.choice(divs)
        dims.append(d)
        rest //= d
    dims.append(rest)
    rng.shuffle(dims)
    return tuple(dims)


def op_view(g):
    a = g.pick()
    if a is None:
        return None
    va = g.env[a]
    t = va.t
    rank = len(t.shape)
    rng = g.rng
    kinds = ["reshape", "unsqueeze"]
    if rank >= 2:
        kinds += ["transpose", "permute"]
    if rank == 2:
        kinds.append("t")
    if 1 in t.shape:
        kinds += ["squeeze", "expand"]
    if rank >= 1 and max(t.shape) >= 2:
        kinds += ["slice", "narrow", "split"]
    k = rng.choice(kinds)
    grad = va.grad
    if k == "reshape":
        n = prod(t.shape)
        shape = _factor_shape(rng, n)
        txt = ", ".join(str(s) for s in shape)
        if rng.random() < 0.3 and len(shape) > 1:
            txt = ", ".join(["-1"] + [str(s) for s in shape[1:]])
        if va.contig and rng.random() < 0.6:
            expr = "{a}.view(%s)" % txt
        else:
            expr = rng.choice(["{a}.reshape(%s)" % txt, "torch.reshape({a}, (%s,))" % txt])
        if rng.random() < 0.2:
            shape = (n,)
            expr = rng.choice(["{a}.reshape(-1)", "{a}.flatten()"] + (["{a}.view(-1)"] if va.contig else []))
        return expr.format(a=a), Val(T(shape, list(t.data)), "f", grad, va.contig, va.flat)
    if k == "unsqueeze":
        d = rng.randint(-rank - 1, rank)
        pos = d + rank + 1 if d < 0 else d
        shape = t.shape[:pos] + (1,) + t.shape[pos:]
        return ("{a}.unsqueeze(%d)" % d).format(a=a), Val(T(shape, list(t.data)), "f", grad, va.contig, va.flat)
    if k == "transpose":
        d0, d1 = rng.sample(range(rank), 2)
        return ("{a}.transpose(%d, %d)" % (d0, d1 - rank if rng.random() < 0.3 else d1)).format(a=a), \
            Val(transpose(t, d0, d1), "f", grad, False, va.flat)
    if k == "t":
        return ("{a}.t()").format(a=a), Val(transpose(t, 0, 1), "f", grad, False, va.flat)
    if k == "permute":
        perm = list(range(rank))
        rng.shuffle(perm)
        expr = rng.choice(["{a}.permute(%s)" % ", ".join(map(str, perm)), "torch.permute({a}, (%s,))" % ", ".join(map(str, perm))])
        return expr.format(a=a), Val(permute(t, perm), "f", grad, perm == sorted(perm) and va.contig, va.flat)
    if k == "squeeze":
        ones = [i for i, s in enumerate(t.shape) if s == 1]
        if rng.random() < 0.3:
            shape = tuple(s for s in t.shape if s != 1)
            return "{a}.squeeze()".format(a=a), Val(T(shape, list(t.data)), "f", grad, va.contig, va.flat)
        d = rng.choice(ones)
        shape = t.shape[:d] + t.shape[d + 1:]
        return ("{a}.squeeze(%d)" % (d - rank if rng.random() < 0.3 else d)).format(a=a), Val(T(shape, list(t.data)), "f", grad, va.contig, va.flat)
    if k == "expand":
        shape = tuple(rng.randint(2, 5) if s == 1 and rng.random() < 0.7 else s for s in t.shape)
        if shape == t.shape or prod(shape) > MAX_NUMEL:
            return None
        txt = ", ".join(str(s) if s != o or rng.random() < 0.5 else "-1" for s, o in zip(shape, t.shape))
        expr = rng.choice(["{a}.expand(%s)" % txt, "{a}.expand(%s)" % txt])
        return expr.format(a=a), Val(expand_to(t, shape), "f", grad, False, va.flat)
    dims = [i for i, s in enumerate(t.shape) if s >= 2]
    d = rng.choice(dims)
    n = t.shape[d]
    if k == "slice":
        start = rng.randint(0, n - 1)
        stop = rng.randint(start + 1, n)
        if d == 0:
            expr = "{a}[%d:%d]" % (start, stop)
        elif d == rank - 1 and rng.random() < 0.5:
            expr = "{a}[..., %d:%d]" % (start, stop)
        else:
            expr = "{a}[%s%d:%d]" % (":, " * d, start, stop)
        return expr.format(a=a), Val(narrow(t, d, start, stop - start), "f", grad, False)
    if k == "narrow":
        start = rng.randint(0, n - 1)
        length = rng.randint(1, n - start)
        dd = d - rank if rng.random() < 0.3 else d
        expr = rng.choice(["{a}.narrow(%d, %d, %d)", "torch.narrow({a}, %d, %d, %d)"]) % (dd, start, length)
        return expr.format(a=a), Val(narrow(t, d, start, length), "f", grad, False)
    # split / chunk: either one item, or two items unpacked into two names
    dd = d - rank if rng.random() < 0.3 else d
    if rng.random() < 0.5:
        size = rng.randint(1, n - 1) if n > 1 else 1
        starts = list(range(0, n, size))
        pieces = [(s, min(size, n - s)) for s in starts]
        call = rng.choice(["{a}.split(%d, dim=%d)", "torch.split({a}, %d, %d)", "{a}.split(%d, %d)"]) % (size, dd)
    else:
        chunks = rng.randint(2, 4)
        size = -(-n // chunks)
        pieces = [(s, min(size, n - s)) for s in range(0, n, size)]
        call = rng.choice(["{a}.chunk(%d, %d)", "torch.chunk({a}, %d, dim=%d)", "{a}.chunk(%d, dim=%d)"]) % (chunks, dd)
    if len(pieces) == 2 and rng.random() < 0.5:
        return ("@2", call.format(a=a)), [Val(narrow(t, d, s, ln), "f", grad, False) for s, ln in pieces]
    i = rng.randrange(len(pieces))
    s, ln = pieces[i]
    return ("%s[%d]" % (call, i if rng.random() < 0.7 else i - len(pieces))).format(a=a), Val(narrow(t, d, s, ln), "f", grad, False)


def op_where(g):
    """torch.where / masked_fill on a comparison mask; the compared values stay clear of each other."""
    rng = g.rng
    c = g.pick()
    if c is None:
        return None
    vc = g.env[c]
    if rng.random() < 0.4:  # compared with another tensor
        o, vo = _operand_for(g, vc.t.shape)
        if o is None:
            return None
        shape = bshape(vc.t.shape, vo.t.shape)
        if not g.away(expand_to(vc.t, shape), expand_to(vo.t, shape)):
            return None
        op = rng.choice([">", "<"])
        mask = "%s %s %s" % (c, op, o)
        mt = pointwise((lambda x, y: x > y) if op == ">" else (lambda x, y: x < y), vc.t, vo.t)
    else:
        thr = rng.choice(["0", "0.5", "-0.25", "1.0"])
        if not g.away(vc.t, float(thr)):
            return None
        op = rng.choice([">", "<", ">=", "<="])
        mask = "%s %s %s" % (c, op, thr)
        th = float(thr)
        fn = {">": lambda x: x > th, "<": lambda x: x < th, ">=": lambda x: x >= th, "<=": lambda x: x <= th}[op]
        mt = T(vc.t.shape, [fn(x) for x in vc.t.data])
    if len(set(mt.data)) < 2 and len(mt.data) > 1:  # all true or all false: nothing is selected
        return None
    a, va = _operand_for(g, vc.t.shape) if rng.random() < 0.5 else (c, vc)
    # a broadcasts with c, not always with a mask that c was compared against another tensor for
    if a is None or bshape(mt.shape, va.t.shape) is None or prod(bshape(mt.shape, va.t.shape)) > MAX_NUMEL:
        return None
    if rng.random() < 0.5:
        # masked_fill: the mask must broadcast to a's shape, not past it
        if bshape(mt.shape, va.t.shape) != va.t.shape:
            return None
        s = rng.choice(["0.0", "-1.0", "2.5"])
        sv = float(s)
        r = pointwise(lambda m, x: sv if m else x, mt, va.t)
        return ("{a}.masked_fill(%s, %s)" % (mask, s)).format(a=a), Val(r, "f", va.grad, False)
    if rng.random() < 0.3:
        s = rng.choice(["0.0", "1.5"])
        sv = float(s)
        r = pointwise(lambda m, x: x if m else sv, mt, va.t)
        return ("torch.where(%s, {a}, %s)" % (mask, s)).format(a=a), Val(r, "f", va.grad, False)
    b, vb = _operand_for(g, va.t.shape)
    if b is None or bshape(mt.shape, va.t.shape, vb.t.shape) is None or prod(bshape(mt.shape, va.t.shape, vb.t.shape)) > MAX_NUMEL:
        return None
    r = pointwise(lambda m, x, y: x if m else y, mt, va.t, vb.t)
    return ("torch.where(%s, {a}, {b})" % mask).format(a=a, b=b), Val(r, "f", va.grad or vb.grad, False)


def op_loss(g):
    rng = g.rng
    if rng.random() < 0.5:
        a = g.pick(lambda v: len(v.t.shape) == 2 and v.t.shape[1] >= 2)
        if a is None:
            return None
        va = g.env[a]
        n, c = va.t.shape
        if not g.can_add_leaf((n,)):
            return None
        tgt_data = [rng.randrange(c) for _ in range(n)]
        tn, vt = g.new_leaf((n,), kind="i", requires_grad=False, data=tgt_data)
        lsm = along(va.t, 1, log_softmax_row)
        vals = [-lsm.data[i * c + tgt_data[i]] for i in range(n)]
        if min(vals) < 1e-2:  # a row that is all but certain: its loss is the rounding of x - logsumexp(x)
            return None
        red = rng.choice(["mean", "sum"])
        loss = sum(vals) / n if red == "mean" else sum(vals)
        expr = "F.cross_entropy({a}, {t})" if red == "mean" else "F.cross_entropy({a}, {t}, reduction='sum')"
        return expr.format(a=a, t=tn), Val(T((), [loss]), "f", va.grad, True)
    a = g.pick()
    if a is None:
        return None
    va = g.env[a]
    shape = va.t.shape
    cands = [n for n in g.floats() if g.env[n].t.shape == shape and n != a]
    if cands and rng.random() < 0.5:
        b = rng.choice(cands)
        vb = g.env[b]
    else:
        if not g.can_add_leaf(shape):
            return None
        b, vb = g.new_leaf(shape, requires_grad=rng.random() < 0.3)
    if rng.random() < 0.5:
        a, b, va, vb = b, a, vb, va
    if not no_cancel(pointwise(lambda x, y: x - y, va.t, vb.t), pointwise(lambda x, y: abs(x) + abs(y), va.t, vb.t)):
        return None
    sq = [(x - y) ** 2 for x, y in zip(va.t.data, vb.t.data)]
    red = rng.choice(["mean", "mean", "sum"])
    loss = sum(sq) / len(sq) if red == "mean" else sum(sq)
    expr = "F.mse_loss({a}, {b})" if red == "mean" else "F.mse_loss({a}, {b}, reduction='sum')"
    return expr.format(a=a, b=b), Val(T((), [loss]), "f", va.grad or vb.grad, True)


OPS = [(op_unary, 20), (op_binary, 18), (op_reduce, 8), (op_softmax, 6), (op_layer_norm, 5), (op_matmul, 8),
       (op_view, 16), (op_where, 7), (op_loss, 3)]


def _first_shape(rng):
    rank = rng.choice([1, 2, 2, 3, 3])
    dims = [rng.choice([1, 2, 3, 4, 5, 6, 7, 3, 5]) for _ in range(rank)]
    while prod(dims) > MAX_LEAF_NUMEL:
        dims[rng.randrange(rank)] = 1 + rng.randrange(3)
    return tuple(dims)


DROPOUT_SHARE = 0.25
DROPOUT_P = ["0.1", "0.2", "0.5", "0.15"]


def make_program(seed, index):
    rng = random.Random(seed * 1000003 + index)
    for _attempt in range(20):
        p = _try_program(rng, "g%d_%d" % (seed, index), seed * 7919 + index)
        if p is not None:
            return _with_dropout(p, random.Random(seed * 1000003 + index + 500009))
    return None


def _with_dropout(p, rng):
    """A quarter of the programs get dropout in training mode on one output that needs grad: its
    mask is random, so the generator knows the output's shape only (no sum to check), and each
    call seeds the generator alike on all three sides (compiled, eager float32, eager float64), so
    the compiled call must draw eager's mask. Its own RNG: the programs without it stay as they
    were."""
    cands = [o for o in p.outputs if p.grads[o]]
    if not cands or rng.random() >= DROPOUT_SHARE:
        return p
    o = rng.choice(cands)
    name = "v%d" % sum(len(ts) for ts, _ in p.stmts)
    p.stmts.append(((name,), "F.dropout(%s, %s, True)" % (o, rng.choice(DROPOUT_P))))
    p.expect[name] = (None, None, p.expect[o][2])
    p.grads[name] = True
    p.outputs = [name if x == o else x for x in p.outputs]
    if p.single == o:
        p.single = name
    return p


def _try_program(rng, name, pseed):
    g = Gen(rng)
    first = _first_shape(rng)
    n0, v0 = g.new_leaf(first, requires_grad=True,
                        layout="t" if len(first) >= 2 and first[-1] > 1 and first[-2] > 1 and rng.random() < 0.2 else "plain")
    g.commit_leaves({n0: v0})
    if rng.random() < 0.5:
        n1, v1 = g.new_leaf(_partner_shape(g, first))
        g.commit_leaves({n1: v1})
    stmts = []
    grads = {}
    expect = {}
    n_ops = rng.randint(2, 8)
    tries = 0
    nvar = 0
    fns, weights = zip(*OPS)
    while len(stmts) < n_ops and tries < 100:
        tries += 1
        g.pending = []
        res = rng.choices(fns, weights)[0](g)
        if res is None:
            continue
        expr, val = res
        if isinstance(expr, tuple):  # two targets unpacked
            targets = ("v%d" % nvar, "v%d" % (nvar + 1))
            vals = val
            expr = expr[1]
        else:
            targets = ("v%d" % nvar,)
            vals = [val]
        if not all(g.fine(v.t) for v in vals):
            continue
        leaf_vals = {}
        for lname, leaf in g.pending:
            leaf_vals[lname] = Val(leaf.seen(), leaf.kind, leaf.requires_grad, leaf.layout == "plain")
        g.commit_leaves(leaf_vals)
        for tname, v in zip(targets, vals):
            g.env[tname] = v
            g.order.append(tname)
            grads[tname] = v.grad
            expect[tname] = (sum(v.t.data), sum(abs(x) for x in v.t.data), v.t.shape)
        stmts.append((targets, expr))
        nvar += len(targets)
    if not stmts:
        return None
    targets = [t for ts, _ in stmts for t in ts]
    unread = [t for t in targets if not any(_reads(e, t) for _, e in stmts)]
    outs = [t for t in unread if g.env[t].kind == "f"][-3:]
    if not outs or rng.random() < 0.2:
        outs = [t for t in targets if g.env[t].kind == "f"][-rng.randint(1, 3):]
    if not any(grads[o] for o in outs):
        withgrad = [t for t in targets if grads[t]]
        if not withgrad:
            return None
        outs.append(withgrad[-1])
    loss = "weighted" if rng.random() < 0.7 else "sum"
    sums = [o for o in outs if grads[o] and not g.env[o].flat]
    if not sums:
        loss = "weighted"
    single = rng.choice(sums or [o for o in outs if grads[o]])
    mode = rng.choices(["backward", "retain", "grad", "accumulate"], [4, 2, 2, 2])[0]
    return Program(name, pseed, g.leaves, stmts, outs, loss, single, mode, expect, grads)


# ---------------------------------------------------------------- model script text
PRELUDE = r'''import torch
import torch.nn.functional as F

_INJECT = %(inject)s


def _sides(make):
    """Three sets of the same leaves: compiled float32, eager float32, eager float64."""
    base = make()
    sets = []
    for dtype in (torch.float32, torch.float32, torch.float64):
        leaves = []
        for x in base:
            if x.is_floating_point():
                leaves.append(x.detach().clone().to(dtype).requires_grad_(x.requires_grad))
            else:
                leaves.append(x.clone())
        sets.append(leaves)
    return sets


def _compare(c, e, d, floor):
    """(status, max |c - e|, why) for compiled c, eager e, float64 eager d (None for no gradient);
    status "ok", "fail", or "eager" when eager's float32 itself is wrong (far from float64 past
    anything rounding explains: LibTorch 1.13's float32 gelu backward of a transposed gradient
    reads memory it never wrote), which leaves nothing to judge c by.
    The tolerance, elementwise: 1e-5 |e| (float32 math that rounds otherwise: a few ulps, and
    sums of at most a few hundred terms added in another order), an absolute floor of 1e-5 times
    the tensor's largest magnitude and 1e-6 times the call's largest output or gradient (`floor`:
    a sum whose terms cancel keeps their rounding, not its own size's), and 16 times eager's own
    error against float64 (what this tensor's conditioning lets float32 get right at all). A
    gradient wrong by 1e-4 of its size exceeds this whenever eager is accurate to a few 1e-6 of
    it, as for nearly every generated case (--inject-error checks that)."""
    if c is None or e is None:
        if c is None and e is None:
            return "ok", 0.0, ""
        return "fail", float("nan"), "compiled %%s, eager %%s" %% ("None" if c is None else "a tensor", "None" if e is None else "a tensor")
    if c.dtype != e.dtype:
        return "fail", float("nan"), "dtype %%s, eager %%s" %% (c.dtype, e.dtype)
    if tuple(c.shape) != tuple(e.shape):
        return "fail", float("nan"), "shape %%s, eager %%s" %% (list(c.shape), list(e.shape))
    if e.numel() == 0:
        return "ok", 0.0, ""
    cd = c.detach().double()
    ed = e.detach().double()
    dd = d.detach().double()
    diff = (cd - ed).abs()
    maxabs = diff.max().item()
    err = (ed - dd).abs().max().item()
    # (a gradient that is rounding noise, as of a 0-d leaf broadcast into a layer_norm, is noise
    # of the size of the call's other gradients: 1e-4 of them is still rounding)
    if not err <= 1e-3 * max(dd.abs().max().item(), 0.1 * floor, 0.1):
        k = int((ed - dd).abs().argmax().item())
        return "eager", maxabs, "element %%d: eager float32 %%.9g, float64 %%.9g" %% (k, ed.reshape(-1)[k].item(), dd.reshape(-1)[k].item())
    if not bool(torch.isfinite(cd).all()):
        return "fail", maxabs, "not finite"
    scale = ed.abs().max().item()
    tol = ed.abs() * 1e-5 + (1e-5 * scale + 1e-6 * floor + 16 * err)
    if bool((diff <= tol).all()):
        return "ok", maxabs, ""
    k = int((diff - tol).argmax().item())
    return "fail", maxabs, "element %%d: %%.9g, eager %%.9g (float64 %%.9g), tolerance %%.3g" %% (
        k, cd.reshape(-1)[k].item(), ed.reshape(-1)[k].item(), dd.reshape(-1)[k].item(), tol.reshape(-1)[k].item())


def _largest(ts):
    m = 0.0
    for t in ts:
        if t is not None and t.numel():
            m = max(m, t.detach().abs().max().item())
    return m


def _grads(leaves):
    return [None if x.grad is None else x.grad.detach().clone() for x in leaves if x.is_floating_point()]


def _clear(leaves):
    for x in leaves:
        if x.is_floating_point():
            x.grad = None


def _step(fn, args, leaves, ws, loss_mode, single, mode):
    """One call of fn and its backward: (outputs, [gradient records])."""
    outs = fn(*args)
    if not isinstance(outs, tuple):
        outs = (outs,)
    if loss_mode == "sum":
        loss = outs[single].sum()
    else:
        loss = sum((o * r).sum() for o, r in zip(outs, ws))
    floats = [x for x in leaves if x.is_floating_point()]
    if mode == "grad":
        want = [x for x in floats if x.requires_grad]
        got = list(torch.autograd.grad(loss, want, allow_unused=True))
        gs = []
        for x in floats:
            gs.append(got.pop(0) if x.requires_grad else None)
        # autograd.grad leaves .grad alone
        return outs, [gs, _grads(leaves)]
    if mode == "retain":
        loss.backward(retain_graph=True)
        first = _grads(leaves)
        _clear(leaves)
        loss.backward()
        second = _grads(leaves)
        _clear(leaves)
        return outs, [first, second]
    loss.backward()
    gs = _grads(leaves)
    if mode != "accumulate":
        _clear(leaves)
    return outs, [gs]


def _case(name, f, args_of, make, names, seed, loss_mode, single, mode, expect):
    """Three calls of f compiled (the first traces, the others replay), each beside eager float32
    and eager float64 on leaves of their own; expect: per output, the generator's (sum, sum of
    magnitudes, shape)."""
    cf = torch.compile(f)
    lc, le, ld = _sides(make)
    float_names = [n for n, x in zip(names, lc) if x.is_floating_point()]
    # a fixed random weight per output element: every output, every element gets its own gradient
    torch.manual_seed(seed)
    ws = [torch.rand(want[2]) * 2 - 1 for want in expect]
    bad = wrong = None
    for call in range(3):
        try:
            torch.manual_seed(seed * 7 + call)  # dropout draws the same masks on every side
            oe, ge = _step(f, args_of(le), le, ws, loss_mode, single, mode)
            torch.manual_seed(seed * 7 + call)
            od, gd = _step(f, args_of(ld), ld, [w.double() for w in ws], loss_mode, single, mode)
        except Exception as ex:
            print("CASE SKIP %%s: eager raised %%s: %%s" %% (name, type(ex).__name__, str(ex).split(chr(10))[0][:200]))
            return
        if call == 0:
            for k in range(len(od)):
                want = expect[k]
                if tuple(od[k].shape) != tuple(want[2]):
                    print("CASE FAIL %%s: output %%d: eager shape %%s, the generator's %%s" %% (name, k, list(od[k].shape), list(want[2])))
                    return
                got_sum = od[k].detach().sum().item()
                if want[0] is not None and abs(got_sum - want[0]) > 1e-7 * (want[1] + 1e-3):
                    print("CASE FAIL %%s: output %%d: float64 eager sum %%.12g, the generator's %%.12g (generator or eager wrong)" %% (
                        name, k, got_sum, want[0]))
                    return
        try:
            torch.manual_seed(seed * 7 + call)
            oc, gc = _step(cf, args_of(lc), lc, ws, loss_mode, single, mode)
        except Exception as ex:
            print("CASE FAIL %%s: compiled call %%d raised %%s: %%s" %% (name, call, type(ex).__name__, str(ex).split(chr(10))[0][:200]))
            return
        if _INJECT and call == 1:
            # self-test: the largest compiled gradient, off by 1e-4 of itself
            best = None
            for rec in gc:
                for i, g in enumerate(rec):
                    if g is not None and g.numel() and (best is None or g.abs().max().item() > best[0]):
                        best = (g.abs().max().item(), rec, i)
            if best is not None and best[0] > 0:
                best[1][best[2]] = best[1][best[2]] * (1 + 1e-4)
            else:
                print("INJECT NONE %%s: every gradient is zero" %% name)
        if len(oc) != len(oe):
            print("CASE FAIL %%s: call %%d: %%d outputs, eager %%d" %% (name, call, len(oc), len(oe)))
            return
        checks = []
        for k in range(len(oe)):
            checks.append(("out %%d" %% k, oc[k], oe[k], od[k], _largest(od)))
        for p in range(len(ge)):
            what = "" if len(ge) == 1 else (" pass %%d" %% (p + 1) if mode == "retain" else (" .grad" if p == 1 else ""))
            for i in range(len(float_names)):
                # (the floor of a gradient also counts the loss's own weights: a gradient that
                # cancels to 0 in eager, such as that of the mean of a softmax over its own dim,
                # keeps rounding of the size of the gradient flowing in, whatever order sums it)
                wscale = 1.0 if loss_mode == "sum" else max([1e-30] + [w.abs().max().item() for w in ws if w.numel()])
                checks.append(("grad %%s%%s" %% (float_names[i], what), gc[p][i], ge[p][i], gd[p][i], max(_largest(gd[p]), wscale)))
        for what, c, e, d, floor in checks:
            status, m, why = _compare(c, e, d, floor)
            print("%%s %%s call %%d maxabs %%.2g %%s" %% (name, what, call, m, "ok" if status == "ok" else status.upper() + " " + why))
            if status == "eager" and wrong is None:
                wrong = "%%s call %%d: %%s" %% (what, call, why)
            if status == "fail" and bad is None:
                bad = "%%s call %%d: %%s" %% (what, call, why)
    if wrong is not None:
        print("CASE SKIP %%s: eager float32 is wrong, nothing to compare with: %%s" %% (name, wrong))
    elif bad is None:
        print("CASE OK %%s" %% name)
    else:
        print("CASE FAIL %%s: %%s" %% (name, bad))
'''


def _leaf_expr(leaf):
    if leaf.kind == "i":
        return "torch.tensor(%s)" % _nested(leaf.shape, leaf.data, str)
    return "torch.tensor(%s, requires_grad=%s)" % (_nested(leaf.shape, leaf.data, _fmt), leaf.requires_grad)


def render_program(p):
    args = [lf.name for lf in p.leaves]
    lines = ["def %s(%s):" % (p.name, ", ".join(args))]
    for targets, expr in p.stmts:
        lines.append("    %s = %s" % (", ".join(targets), expr))
    lines.append("    return " + (p.outputs[0] if len(p.outputs) == 1 else "(%s)" % ", ".join(p.outputs)))
    lines.append("")
    lines.append("")
    views = ", ".join("L[%d]" % i if lf.layout == "plain" else "L[%d].transpose(-1, -2)" % i for i, lf in enumerate(p.leaves))
    lines.append("_case(%r, %s, lambda L: [%s], lambda: [" % (p.name, p.name, views))
    for lf in p.leaves:
        lines.append("    %s," % _leaf_expr(lf))
    lines.append("], %r, %d, %r, %d, %r, [%s])" % (args, p.seed, p.loss, p.outputs.index(p.single), p.mode,
                                              ", ".join("(%r, %r, %r)" % p.expect[o] for o in p.outputs)))
    lines.append("")
    lines.append("")
    return "\n".join(lines)


def render(programs, inject=False):
    return PRELUDE % {"inject": "True" if inject else "False"} + "\n\n" + "".join(render_program(p) for p in programs) + "print('done')\n"
