"""Random differential programs: compiled against eager, on several shapes in a row.

A *program* is a function `pN(x0, x1, ...)` built one statement at a time from the op catalogue
below, plus the inputs it is called with (several shape variants, so that a second shape turns on
automatic dynamic sizes and later ones replay or recompile). Every candidate statement is run
under the PyTorch this generator is run with (Debian's python3-torch 1.13, the oracle's eager
truth) on every variant's inputs; a statement that raises on any of them is dropped, so every
program is one that eager accepts. The program is kept as data (`Program`), written out as model
script text by `render`, and shrunk by `without` (drop statements and whatever depends on them).

Needs /usr/bin/python3 with torch (python3-torch); nothing of Fuselab.
"""
import random
import warnings

import torch

warnings.filterwarnings("ignore")

SPECIALS = ["float('inf')", "float('-inf')", "float('nan')", "-0.0", "0.0", "1e-45", "1e-38", "3e38", "-3e38",
            "88.7", "-87.4", "-103.9", "1e7", "16777217.0", "-1.0", "1.0"]

FLOAT_DTYPES = (torch.float32, torch.float64)


class Program:
    """name, inputs (list of input-construction expressions per variant), stmts, outputs."""

    def __init__(self, name, seed, variants, stmts, outputs, note=""):
        self.name = name
        self.seed = seed
        self.variants = variants  # [[expr of x0, expr of x1, ...], ...] one list per call
        self.stmts = stmts  # [(target var, expression text)]
        self.outputs = outputs  # var names returned
        self.note = note

    def arity(self):
        return len(self.variants[0])

    def without(self, drop):
        """The program without statements `drop` (indices) and every statement reading their results."""
        gone = set()
        kept = []
        for i, (var, expr) in enumerate(self.stmts):
            if i in drop or any(_reads(expr, g) for g in gone):
                gone.add(var)
                continue
            kept.append((var, expr))
        outs = [o for o in self.outputs if o not in gone]
        if not outs:
            live = [v for v, _ in kept if not v.startswith("_")] or ["x0"]
            outs = [live[-1]]
        return Program(self.name, self.seed, self.variants, kept, outs, self.note)

    def with_variants(self, variants):
        return Program(self.name, self.seed, variants, self.stmts, self.outputs, self.note)

    def text(self):
        return render_program(self)


class Regression:
    """A hand-written case (tests/difftest/regressions/NAME.py): functions and `_check` calls that
    use the prelude's helpers. Its checks' lines come between `begin NAME` and `end NAME`."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as fh:
            self.body = fh.read()
        self.name = path.rsplit("/", 1)[-1][:-3]
        self.stmts = []

    def text(self):
        return "print('begin %s')\n%s\nprint('end %s')\n\n\n" % (self.name, self.body, self.name)


def _reads(expr, var):
    import re
    return re.search(r"\b%s\b" % var, expr) is not None


# ---------------------------------------------------------------- the op catalogue
# Each entry: (kind, template). Templates name operands {a}, {b}, {c}; {d} is a dim of {a}, {k} a
# small int, {s} a Python scalar. The generator fills them, then eager decides if the result is valid.
UNARY = [
    "torch.neg({a})", "-{a}", "torch.abs({a})", "{a}.abs()", "torch.exp({a})", "torch.log({a})", "torch.log(torch.abs({a}) + 1)",
    "torch.log1p(torch.abs({a}))", "torch.expm1({a})", "torch.sqrt({a})", "torch.sqrt(torch.abs({a}))", "torch.rsqrt(torch.abs({a}) + 1)",
    "torch.sin({a})", "torch.cos({a})", "{a}.sin()", "torch.tanh({a})", "torch.sigmoid({a})", "{a}.sigmoid()", "torch.relu({a})",
    "F.relu({a})", "F.gelu({a})", "F.gelu({a}, approximate='tanh')", "F.silu({a})", "torch.erf({a})", "torch.floor({a})",
    "torch.ceil({a})", "torch.round({a})", "torch.trunc({a})", "torch.sign({a})", "torch.reciprocal({a})", "{a} * {a}",
    "torch.clamp({a}, -1.5, 2.0)", "torch.clamp({a}, min=-0.5)", "{a}.clamp(max=1.0)", "torch.clamp({a}, min=0.0, max=1.0)",
    "F.leaky_relu({a}, 0.2)", "F.leaky_relu({a}, negative_slope=0.1)", "F.elu({a})", "F.softplus({a})", "F.hardtanh({a})",
    "torch.logical_not({a})", "torch.isnan({a})", "torch.isinf({a})", "torch.nan_to_num({a})", "{a}.float()", "{a}.double()",
    "{a}.to(torch.int64)", "{a}.long()", "{a}.bool()", "{a}.int()", "~{a}", "torch.square({a})", "{a} ** 2", "{a} ** 3",
    "{a} ** 0.5", "torch.pow({a}, 2)", "torch.pow({a}, -0.5)", "torch.pow({a}, 16777217)", "{a} ** -1", "torch.frac({a})",
    "F.relu6({a})", "F.hardswish({a})", "F.hardsigmoid({a})", "F.mish({a})", "F.softsign({a})", "torch.atan({a})", "torch.tan({a})",
    "torch.asin(torch.clamp({a}, -1, 1))", "torch.log2(torch.abs({a}) + 1)", "torch.exp2({a})", "F.logsigmoid({a})",
    "{a}.clone()", "{a}.contiguous()", "{a}.detach()",
]
SCALAR = [
    "{a} + {s}", "{s} + {a}", "{a} - {s}", "{s} - {a}", "{a} * {s}", "{s} * {a}", "{a} / {s}", "{s} / {a}", "{a} // {s}",
    "{a} % {s}", "{a} ** {s}", "{a} & 2", "{a} | 2", "{a} ^ 3", "{a} & True", "{a} > {s}", "{a} <= {s}", "{a} == {s}",
    "{a} != {s}", "{a} * 10**20", "{a} + 2**70", "{a} * True", "torch.add({a}, {s}, alpha=2)", "torch.mul({a}, {s})",
    "torch.where({a} > 0, {a}, {s})", "{a}.masked_fill({a} > 0.5, {s})", "torch.fmod({a}, 1.5)", "torch.remainder({a}, 2)",
    "torch.full_like({a}, {s})", "torch.zeros_like({a})", "torch.ones_like({a}) * {a}", "{a}.new_zeros({a}.shape) + {a}",
    "torch.zeros({a}.shape) + {a}", "torch.full({a}.shape, 2.0) * {a}", "torch.ones(*{a}.shape)", "{a} * {a}.numel()",
    "{a} * len({a})", "{a}.reshape({a}.shape) * 3", "{a}.expand({a}.shape) + 1", "{a} * {a}.shape[-1]", "{a} + {a}.size(0)",
]
BINARY = [
    "{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / {b}", "{a} / (torch.abs({b}) + 1)", "{a} // {b}", "{a} % {b}", "{a} ** {b}",
    "torch.maximum({a}, {b})", "torch.minimum({a}, {b})", "torch.where({a} > {b}, {a}, {b})", "{a} > {b}", "{a} == {b}",
    "{a} < {b}", "{a} & {b}", "{a} | {b}", "{a} ^ {b}", "torch.atan2({a}, {b})", "torch.fmod({a}, {b})",
    "torch.remainder({a}, {b})", "torch.add({a}, {b}, alpha=0.5)", "torch.sub({a}, {b})", "torch.mul({a}, {b})",
    "torch.div({a}, {b}, rounding_mode='floor')", "torch.div({a}, {b}, rounding_mode='trunc')", "torch.lerp({a}, {b}, 0.3)",
    "torch.logical_and({a}, {b})", "torch.logical_or({a}, {b})", "torch.eq({a}, {b})", "torch.ne({a}, {b})",
    "{a} @ {b}", "torch.matmul({a}, {b})", "torch.mm({a}, {b})", "torch.bmm({a}, {b})", "F.linear({a}, {b})",
    "torch.cat([{a}, {b}], {d})", "torch.cat([{a}, {b}], dim=0)", "torch.stack([{a}, {b}])", "torch.stack([{a}, {b}], dim={d})",
    "{a}.masked_fill({b} > 0, 0.0)", "torch.where({b} > 0, {a}, 0.0)", "torch.copysign({a}, torch.nan_to_num({b}))", "torch.hypot({a}, {b})",
]
TERNARY = ["torch.where({a} > 0, {b}, {c})", "torch.addcmul({a}, {b}, {c})", "torch.clamp({a}, {b}, {c})",
           "torch.lerp({a}, {b}, {c})", "torch.addcdiv({a}, {b}, torch.abs({c}) + 1)"]
# `+ 0` after a min or max: which zero a row of -0.0 and 0.0 gives is the order the reduction
# visits it in, which eager itself does not fix (LibTorch 1.13: amin and amax of [-0.0, 0.0] are
# both -0.0; amin of forty -0.0 then forty 0.0 is 0.0), so a later division or copysign must not
# see it. -0.0 + 0 is 0.0; the min or max itself is still checked.
REDUCE = [
    "torch.sum({a})", "{a}.sum()", "torch.sum({a}, {d})", "torch.sum({a}, dim={d}, keepdim=True)", "{a}.sum({d}, True)",
    "torch.sum({a}, dim=[])", "torch.sum({a}, dim=({d},))", "{a}.sum(dim=[0, -1])", "torch.mean({a})", "torch.mean({a}, {d})",
    "{a}.mean({d}, keepdim=True)", "torch.amax({a}, {d}) + 0", "torch.amax({a}, dim=()) + 0", "{a}.amin({d}, True) + 0",
    "torch.amax({a}, dim=[0, -1]) + 0", "torch.max({a}) + 0", "torch.max({a}, {d})[0] + 0", "torch.max({a}, {d})[1]",
    "torch.min({a}, dim={d}, keepdim=True).values + 0",
    "{a}.max(dim={d}).indices", "torch.argmax({a})", "torch.argmax({a}, {d})", "torch.argmin({a}, dim={d}, keepdim=True)",
    "torch.prod({a}, {d})", "torch.var({a})", "torch.var({a}, {d})", "{a}.var({d}, False)", "{a}.var(dim={d}, unbiased=False)",
    "{a}.std({d}, False)", "torch.std({a}, {d}, True, True)", "{a}.var({d}, keepdim=True)", "torch.all({a})", "torch.any({a}, {d})",
    "torch.logsumexp({a}, {d})", "torch.norm({a})", "torch.softmax({a}, {d})", "F.softmax({a}, dim={d})",
    "F.log_softmax({a}, {d})", "torch.log_softmax({a}, dim={d})", "torch.cumsum({a}, {d})", "{a}.cumsum(dim={d})",
    "F.layer_norm({a}, {a}.shape[-1:])", "F.normalize({a}, dim={d})", "torch.count_nonzero({a}, {d})",
    "F.cross_entropy({a}, torch.arange({a}.shape[0]) % {a}.shape[-1])",
    "F.cross_entropy({a}, torch.arange({a}.shape[0]) % 3 - 1, ignore_index=-1, reduction='sum')",
    "F.cross_entropy({a}.t(), torch.arange({a}.shape[1]) % {a}.shape[0], reduction='none')",
]
VIEW = [
    "{a}.t()", "{a}.T", "{a}.transpose(0, {d})", "{a}.transpose({d}, -1)", "{a}.permute(*reversed(range({a}.dim())))",
    "{a}.unsqueeze({d})", "{a}.unsqueeze(-1)", "{a}.squeeze()", "{a}.squeeze({d})", "{a}.reshape(-1)", "{a}.view(-1)",
    "{a}.flatten()", "{a}.flatten(1)", "{a}.reshape({a}.shape[0], -1)", "{a}.view({a}.size(0), -1)",
    "{a}[0]", "{a}[-1]", "{a}[1:]", "{a}[:, 1:]", "{a}[..., ::2]", "{a}[::2]", "{a}[None]", "{a}[True]", "{a}[False]",
    "{a}[:10**30]", "{a}[-10**30:]", "{a}[..., None]", "{a}[:, 0]", "{a}[:, -1]", "{a}.narrow(0, 0, 1)", "{a}.select({d}, 0)",
    "{a}.unbind(0)[0]", "{a}.unbind(0)[-1]", "torch.stack({a}.unbind(0))", "torch.stack({a}.unbind({d}), {d})",
    "{a}.chunk(3, 0)[-1]", "{a}.chunk(2, {d})[0]", "{a}.split(2)[-1]", "{a}.split(1, {d})[0]", "torch.cat({a}.split(2), 0)",
    "{a}.movedim(0, -1)", "{a}.expand(2, *{a}.shape)", "{a}.repeat(2, 1)", "{a}.flip(0)", "{a}.roll(1, 0)", "{a}.tril()",
    "{a}.triu(1)", "{a}.diagonal()", "{a}[{a}.shape[0] - 1]", "{a}[:{a}.shape[0] // 2]", "{a}.contiguous().view(-1)",
    "{a}.reshape(-1, 2)", "{a}.index_select(0, torch.tensor([0, 0]))", "{a}[torch.tensor([0, -1])]",
    "torch.gather({a}, {d}, torch.zeros_like({a}, dtype=torch.int64))", "{a}[{a} > 0]", "{a}.masked_select({a} > 0)",
    "F.embedding(torch.arange({a}.shape[0]) % 3, {a})", "F.embedding(torch.arange(6).view(2, 3) % {a}.shape[0], {a}.t())",
    "F.pad({a}, (1, 2))", "F.pad({a}, (-1, 1), value=0.5)", "F.pad({a}, (0, 0, 1, 0), value=float('nan'))",
]
INPLACE = [
    "{v}.add_({b})", "{v}.mul_(2)", "{v}.clamp_(min=0)", "{v}.relu_()", "F.relu({v}, True)", "F.relu({v}, inplace=True)",
    "F.leaky_relu({v}, 0.2, True)", "{v}[0] = 1", "{v}[..., 0] = {s}", "{v}[0].add_(1)", "{v}.t().mul_(3)", "{v}.sub_({b})",
    "{v}.div_(2)", "{v}.masked_fill_({v} > 0, 0.5)", "{v}.zero_()", "{v}.fill_({s})", "{v}.copy_({b})", "{v} += {b}",
    "{v} *= 2", "{v}.contiguous().view(-1)[0:1].add_(5)", "{v}.reshape(-1)[:2].mul_(5)", "{v}.flatten()[0:1].sub_(3)",
]
SCALARS = ["2", "-1", "0.5", "3.0", "-2.5", "0", "1", "True", "1e-3", "10**20", "float('inf')", "float('nan')", "-0.0", "2**70"]


def _fill(tpl, rng, names, meta):
    a = rng.choice(names)
    b = rng.choice(names)
    c = rng.choice(names)
    rank = meta[a][1]
    d = rng.randint(-rank, rank - 1) if rank > 0 else 0
    return tpl.format(a=a, b=b, c=c, d=d, s=rng.choice(SCALARS), k=rng.randint(1, 3), v="{v}")


# ---------------------------------------------------------------- inputs
def _input_exprs(rng, arity, specials):
    """Per input: a function of the batch size B giving the expression that builds it."""
    makers = []
    base = [rng.choice([2, 3, 4, 5]) for _ in range(3)]
    for i in range(arity):
        rank = rng.choice([0, 1, 2, 2, 3, 3] if i else [1, 2, 2, 3, 3])
        batched = rank > 0 and rng.random() < 0.8
        shape_tail = base[3 - rank + (1 if rank else 0):] if rank else []
        if rank and i and rng.random() < 0.3:
            shape_tail = [1 if rng.random() < 0.5 else s for s in shape_tail]
        dtype = rng.choices(["f32", "f64", "i64", "bool"], [10, 2, 2, 1])[0]
        layout = rng.choices(["plain", "t", "step", "expand"], [6, 2, 2, 1])[0] if rank >= 2 else "plain"
        special = specials and dtype in ("f32", "f64") and rng.random() < 0.5
        fixed0 = base[3 - rank] if rank else None

        def make(B, rank=rank, batched=batched, tail=tuple(shape_tail), dtype=dtype, layout=layout, special=special, fixed0=fixed0):
            if rank == 0:
                shape = []
            else:
                shape = [B if batched else fixed0] + list(tail)
            return _build(shape, dtype, layout, special)
        makers.append(make)
    return makers


def _build(shape, dtype, layout, special):
    if layout == "t" and len(shape) >= 2:
        raw = shape[:-2] + [shape[-1], shape[-2]]
        post = ".transpose(-1, -2)"
    elif layout == "step" and len(shape) >= 1:
        raw = shape[:-1] + [shape[-1] * 2]
        post = "[..., ::2]"
    elif layout == "expand" and len(shape) >= 2:
        raw = [1] + shape[1:]
        post = ".expand(%s)" % ", ".join(str(s) for s in shape)
    else:
        raw, post = shape, ""
    sh = "(%s)" % "".join("%d, " % s for s in raw)
    if dtype == "i64":
        e = "torch.randint(-5, 6, %s)" % (sh,)
    elif dtype == "bool":
        e = "(torch.rand(%s) > 0.5)" % (sh,)
    else:
        e = "torch.randn(%s)" % (sh,)
        if dtype == "f64":
            e += ".double()"
        if special:
            e = "_special(%s)" % e
    return e + post


def _special_fn(t):
    # the same function is written into the script (see render): every third element special
    flat = t.reshape(-1)
    vals = [float(eval(s)) for s in SPECIALS]
    for i in range(0, flat.numel(), 3):
        flat[i] = vals[(i // 3) % len(vals)]
    return t


# ---------------------------------------------------------------- building a program
def _run(stmts, inputs, env_base):
    env = dict(env_base)
    for i, x in enumerate(inputs):
        env["x%d" % i] = x
    for var, expr in stmts:
        if var.startswith("_"):
            exec(expr, env)
        else:
            env[var] = eval(expr, env)
    return env


def _eval_inputs(exprs, env_base, seed):
    torch.manual_seed(seed)
    return [eval(e, env_base) for e in exprs]


def _wide(x):
    return x.double() if isinstance(x, torch.Tensor) and x.dtype == torch.float32 else x


def _step(env, new):
    e2 = dict(env)
    for v, x in new:
        if v.startswith("_"):
            exec(x, e2)
        else:
            e2[v] = eval(x, e2)
    return e2


def _rounds_to(wide, r):
    """Whether float64's result `wide` is float32's `r` up to rounding."""
    if not isinstance(wide, torch.Tensor) or wide.shape != r.shape:
        return False
    if r.numel() == 0:
        return True
    if r.dtype.is_floating_point:
        w = wide.to(r.dtype)
        if not torch.allclose(r, w, rtol=2e-5, atol=2e-5, equal_nan=True):
            return False
        # no element may be rounding noise: nonzero, yet not larger than its own error (layer_norm
        # over a dim of size 1 is 3e-7 in eager's float32 and 0 in a kernel; any() then differs)
        err = (r.double() - wide.double()).abs()
        noise = (r != 0) & torch.isfinite(r) & (r.double().abs() <= 8 * err)
        return not bool(noise.any())
    return wide.dtype == r.dtype and bool(torch.equal(wide, r))


def _well_conditioned(shadow, new, var, want, env=None):
    """Whether the statements' float64 result stays within half the checker's tolerance when every
    float tensor they read moves by a few float32 rounding steps, and by a few times the error
    eager's float32 value of it already carries (`env`: the float32 values). A sum of 3e38, -3e38
    and small values, or a comparison of near-equal values, is not: compiled code that adds in
    another order (as it may) would be reported as wrong. Nor is fmod(x, gelu(y, 'tanh')): gelu's
    1 + tanh cancels, so one ulp of tanh (its math differs from eager's by a few) is 5e-5 of the
    divisor, which fmod multiplies by x / divisor."""
    moved = dict(shadow)
    gen_ = torch.Generator().manual_seed(12345)
    for name, v in shadow.items():
        if not isinstance(v, torch.Tensor) or v.dtype != torch.float64 or not any(_reads(x, name) for _, x in new):
            continue
        # a different amount for every element: equal values (3e38 and -3e38 in one sum) must not
        # move alike and cancel as before
        amount = torch.rand(v.shape, generator=gen_, dtype=torch.float64) * 2 - 1
        moved_v = v * (1 + 1e-6 * amount)
        f = env.get(name) if env is not None else None
        if isinstance(f, torch.Tensor) and f.shape == v.shape and f.dtype.is_floating_point:
            err = (f.double() - v).abs()
            moved_v = moved_v + 4 * torch.where(torch.isfinite(err), err, torch.zeros_like(err)) * amount
        moved[name] = moved_v
    try:
        got = _step(moved, new)[var]
    except Exception:
        return False
    if not isinstance(got, torch.Tensor) or got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.numel() == 0:
        return True
    if want.dtype.is_floating_point:
        return bool(torch.allclose(got, want, rtol=5e-5, atol=5e-5, equal_nan=True))
    return bool(torch.equal(got, want))


def make_program(seed, index, specials_rate=0.15):
    rng = random.Random(seed * 1000003 + index)
    arity = rng.choice([1, 1, 2, 2, 3])
    specials = rng.random() < specials_rate
    makers = _input_exprs(rng, arity, specials)
    batch_seqs = [[4, 6, 4, 9], [3, 5, 7], [2, 3, 2], [5, 1, 5], [4, 0, 4], [6, 6], [3, 7, 11, 7], [1, 2, 3]]
    bs = rng.choice(batch_seqs)
    variants = [[m(B) for m in makers] for B in bs]
    env_base = {"torch": torch, "F": torch.nn.functional, "_special": _special_fn}
    try:
        inputs = [_eval_inputs(v, env_base, seed * 7 + k) for k, v in enumerate(variants)]
    except Exception:
        return None
    names = ["x%d" % i for i in range(arity)]
    meta = {}
    for n, x in zip(names, inputs[0]):
        meta[n] = (x.dtype, x.dim())
    envs = [dict(env_base, **{n: x for n, x in zip(names, xs)}) for xs in inputs]
    # the same program in float64, beside it: a statement whose float32 result is not its float64
    # result rounded (a comparison or floor that decides on rounding noise, as `layer_norm` over
    # a dim of size 1 then `> 0`) is dropped. Compiled code may round otherwise than eager and
    # still be right; a decision on noise would be reported as a mismatch.
    shadows = [dict(env_base, **{n: _wide(x) for n, x in zip(names, xs)}) for xs in inputs]
    stmts = []
    n_ops = rng.randint(2, 9)
    tries = 0
    while len(stmts) < n_ops and tries < 80:
        tries += 1
        kind = rng.choices(["u", "s", "b", "t", "r", "v", "i"], [18, 10, 14, 2, 10, 12, 4])[0]
        var = "v%d" % len(stmts)
        if kind == "i":
            # in-place on an intermediate (never an input): clone first, then mutate the clone
            src = rng.choice(names)
            tpl = rng.choice(INPLACE)
            stmt_c = (var, "%s.clone()" % src)
            body = _fill(tpl.replace("{v}", "@V@"), rng, names, meta).replace("@V@", var)
            new = [stmt_c, ("_" + var, body)]
        else:
            tpl = rng.choice({"u": UNARY, "s": SCALAR, "b": BINARY, "t": TERNARY, "r": REDUCE, "v": VIEW}[kind])
            new = [(var, _fill(tpl, rng, names, meta))]
        ok = True
        # layer_norm over a dim of size 1 is 0 up to rounding noise times 1/sqrt(eps) = 316: a
        # kernel that computes its input twice (once for the mean) may round the two apart
        import re
        for ln in re.findall(r"layer_norm\((\w+),", " ".join(x for _, x in new)):
            if any(isinstance(e.get(ln), torch.Tensor) and e[ln].dim() and e[ln].shape[-1] == 1 for e in envs):
                ok = False
        results = []
        for env, shadow in zip(envs, shadows):
            if not ok:
                break
            try:
                e2 = _step(env, new)
                r = e2[var]
                if not isinstance(r, torch.Tensor) or r.numel() > 4096 or r.is_complex():
                    ok = False
                    break
                s2 = _step(shadow, new)
                # a float32 result made from ints (`x0 // 1e-3` of an int64 x0) is float32 in the
                # shadow too: widen it, so the statements after it are checked in float64 as well
                # (cos(4999.0 ** 2 + 0.5) rests on how the square rounds; unwidened it went unseen)
                for name, _ in new:
                    s2[name.lstrip("_")] = _wide(s2.get(name.lstrip("_")))
                if not _rounds_to(s2[var], r):
                    ok = False
                    break
                if not _well_conditioned(shadow, new, var, s2[var], env):
                    ok = False
                    break
                results.append((e2, s2, r))
            except Exception:
                ok = False
                break
        if not ok:
            continue
        dtypes = {r.dtype for _, _, r in results}
        ranks = {r.dim() for _, _, r in results}
        if len(dtypes) != 1 or len(ranks) != 1:
            continue
        for k, (e2, s2, r) in enumerate(results):
            envs[k] = e2
            shadows[k] = s2
        stmts.extend(new)
        names.append(var)
        meta[var] = (results[0][2].dtype, results[0][2].dim())
    if not stmts:
        return None
    read = set()
    for var, expr in stmts:
        for n in names:
            if _reads(expr, n) and var != "_" + n:
                read.add(n)
    outs = [v for v, _ in stmts if not v.startswith("_") and v not in read]
    if not outs or rng.random() < 0.2:
        outs = [v for v, _ in stmts if not v.startswith("_")][-3:]
    name = "p%d_%d" % (seed, index)
    return Program(name, seed * 7, variants, stmts, outs)


# ---------------------------------------------------------------- model script text
PRELUDE = '''import torch
import torch.nn.functional as F

_SPECIALS = [%s]


def _special(t):
    flat = t.reshape(-1)
    for i in range(0, flat.numel(), 3):
        flat[i] = _SPECIALS[(i // 3) %% len(_SPECIALS)]
    return t


def _layout(t):
    if t.dim() == 0 or t.numel() <= 1:
        return "scalar"
    dims = [d for d in range(t.dim()) if t.shape[d] > 1]
    order = sorted(dims, key=lambda d: (-t.stride(d), d))
    return "%%s%%s" %% ("c" if t.is_contiguous() else "n", order)


def _same(a, b):
    """None when compiled `a` matches eager `b`, else what differs."""
    if isinstance(b, (tuple, list)):
        if not isinstance(a, (tuple, list)) or len(a) != len(b):
            return "structure"
        for i in range(len(b)):
            w = _same(a[i], b[i])
            if w is not None:
                return "[%%d] %%s" %% (i, w)
        return None
    if isinstance(b, torch.Tensor):
        if not isinstance(a, torch.Tensor):
            return "not a tensor: %%s" %% type(a).__name__
        if a.dtype != b.dtype:
            return "dtype %%s, eager %%s" %% (a.dtype, b.dtype)
        if a.shape != b.shape:
            return "shape %%s, eager %%s" %% (list(a.shape), list(b.shape))
        if _layout(a) != _layout(b):
            return "layout %%s, eager %%s" %% (_layout(a), _layout(b))
        if a.numel() == 0:
            return None
        if a.dtype.is_floating_point:
            # float64 results are often float32 math converted (x.sum().double()): the same
            # tolerance for both, which reassociation of a float32 reduction stays inside
            tol = 1e-4
            if not torch.allclose(a, b, rtol=tol, atol=tol, equal_nan=True):
                d = (a - b).abs()
                d = d[~torch.isnan(d)]
                return "values differ (max abs diff %%s)" %% (d.max().item() if d.numel() else "nan")
            return None
        if not torch.equal(a, b):
            return "values differ"
        return None
    if a != b and not (a != a and b != b):
        return "%%r, eager %%r" %% (a, b)
    return None


def _check(name, f, cf, make):
    for k in range(len(make)):
        torch.manual_seed(make[k][0])
        xs = make[k][1]()
        torch.manual_seed(make[k][0])
        ys = make[k][1]()
        try:
            want = f(*xs)
        except Exception as e:
            print("SKIP %%s call %%d: eager raised %%s: %%s" %% (name, k, type(e).__name__, str(e).split(chr(10))[0][:200]))
            return
        try:
            got = cf(*ys)
        except Exception as e:
            print("MISMATCH %%s call %%d: compiled raised %%s: %%s" %% (name, k, type(e).__name__, e))
            return
        why = _same(got, want)
        if why is not None:
            print("MISMATCH %%s call %%d: %%s" %% (name, k, why))
            return
    print("ok %%s" %% name)
''' % ", ".join(SPECIALS)


def render_program(p):
    args = ", ".join("x%d" % i for i in range(p.arity()))
    lines = ["def %s(%s):" % (p.name, args)]
    for var, expr in p.stmts:
        lines.append("    " + (expr if var.startswith("_") else "%s = %s" % (var, expr)))
    outs = p.outputs
    lines.append("    return " + (outs[0] if len(outs) == 1 else "(%s)" % ", ".join(outs)))
    lines.append("")
    lines.append("")
    lines.append("_make_%s = [" % p.name)
    for k, v in enumerate(p.variants):
        lines.append("    (%d, lambda: [%s])," % (p.seed + k, ", ".join(v)))
    lines.append("]")
    lines.append("_check(%r, %s, torch.compile(%s), _make_%s)" % (p.name, p.name, p.name, p.name))
    lines.append("")
    lines.append("")
    return "\n".join(lines)


def render(programs):
    return PRELUDE + "\n\n" + "".join(p.text() for p in programs) + "print('done')\n"


def programs(seed, start, count):
    out = []
    i = start
    while len(out) < count:
        p = make_program(seed, i)
        i += 1
        if p is not None:
            out.append(p)
    return out, i
