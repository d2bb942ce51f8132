#!/usr/bin/python3
"""Writes cases.txt for test_format.cpp: inputs and the output CPython 3.11 / PyTorch 1.13 print.

Run with Debian's interpreter (it has python3-torch 1.13):
    /usr/bin/python3 tests/format/gen_cases.py tests/format/cases.txt

One case per line, tab-separated fields; the expected text is always the last field, escaped
(backslash -> \\\\, newline -> \\n, tab -> \\t, other control characters -> \\xHH; other text
is UTF-8, lone surrogates encoded like any code point). Hex fields are lowercase byte hex.

    repr_float    <float64 bits, 16 hex>                   <expected>
    repr_str      <utf-8 hex>                              <expected>
    format_int    <decimal int64>  <spec utf-8 hex>  <ok|ValueError|OverflowError>  <result or message>
    format_float  <float64 bits, 16 hex>  <spec hex>  <ok|...>  <result or message>
    format_str    <utf-8 hex>  <spec hex>  <ok|...>  <result or message>
    tensor        <name> <dtype> <storage hex> <size> <stride> <offset> <flags> <expected>

For tensors the storage is the little-endian bytes of the whole underlying storage (float16 and
bfloat16 as their 16-bit patterns, bool as bytes); the tensor is storage.as_strided(size, stride,
offset) (comma-separated ints, empty for 0-dim). Flags, comma-separated or '-':
    rg       the tensor is a leaf with requires_grad=True
    param    printed as torch.nn.Parameter (requires_grad as rg says)
    op=NAME  rg, then the printed tensor is OPS[NAME](tensor), which has a grad_fn
    sparse   the printed tensor is tensor.to_sparse() (sparse1: tensor.to_sparse(1))
    meta     the printed tensor is an empty tensor of the same size and dtype on the meta device
"""

import math
import random
import struct
import sys

import torch

random.seed(1234)
torch.manual_seed(1234)

lines = []


def esc(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        else:
            out.append(ch)
    return "".join(out)


def u8(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


def f64hex(v: float) -> str:
    return struct.pack(">d", v).hex()


def add(*fields):
    lines.append("\t".join(fields))


def outcome(fn):
    try:
        return "ok", fn()
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e)


# ---------------------------------------------------------------------------------------------
# repr(float)

floats = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 100.0, 1e-5, 1e-4, 1.5e-4, 9.999e-5, 0.001,
    1e15, 1e16, 1e17, 9999999999999998.0, 1e16 - 2, 2.0**53, 2.0**53 + 2, 123456789012345678.0,
    1e22, 1e23, 1.5e300, -1.5e300, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
    math.pi, math.e, 12345.678, 0.5, 2.5, 1e100, 1e-100, 4.35, 0.1 + 0.2, 1234567890.0,
    float("inf"), float("-inf"), float("nan"), -float("nan"),
]
for i in range(150):  # random finite bit patterns
    while True:
        v = struct.unpack("<d", struct.pack("<Q", random.getrandbits(64)))[0]
        if math.isfinite(v):
            break
    floats.append(v)
for i in range(100):  # float32 values seen as doubles, over many magnitudes
    floats.append(torch.tensor(random.gauss(0, 1) * 10.0 ** random.randint(-12, 12)).item())
for e in range(-8, 25):
    floats += [10.0**e, 1.5 * 10.0**e, -(10.0**e) * 9.87654321]
for v in floats:
    add("repr_float", f64hex(v), esc(repr(v)))

# ---------------------------------------------------------------------------------------------
# repr(str)

strings = [
    "", "a", "abc", "it's", 'say "hi"', "both ' and \"", "\\", "back\\slash'", "\n\t\r", "\x00\x01\x1f\x7f",
    "é", "naïve café", "日本語", "\u00a0nbsp", "\u00ad", "\x80\x9f\xa0\xff", "\u200b\u200e", "\u2028\u2029",
    "\u3000", "\ufeff", "\ufffd", "\uffff", "\ud800", "\udfff", "a\udc80b", "😀", "\U0001f600\U000e0001",
    "\U0010ffff", "\U000f0000", "\u0378", "\u0300", "e\u0301", "Ω≈ç√∫", "tab\there", "'", '"', "''\"\"",
    "\x1b[31m", "\u061c", "\u1680", "\u2000", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
]
for i in range(250):  # random code points, BMP-heavy
    n = random.randint(1, 3)
    cps = []
    for _ in range(n):
        r = random.random()
        if r < 0.5:
            cps.append(random.randint(0x80, 0x3000))
        elif r < 0.8:
            cps.append(random.randint(0x3000, 0xFFFF))
        else:
            cps.append(random.randint(0x10000, 0x10FFFF))
    strings.append("".join(map(chr, cps)))
for s in strings:
    add("repr_str", u8(s).hex(), esc(repr(s)))
# Bytes that are not UTF-8 read as surrogateescape.
for b in [b"\x80", b"a\xffb", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xf5\x80\x80\x80"]:
    add("repr_str", b.hex(), esc(repr(b.decode("utf-8", "surrogateescape"))))

# ---------------------------------------------------------------------------------------------
# format(value, spec)

int_values = [0, 1, -1, 7, -7, 42, 255, -255, 1000, 1234567, -1234567, 65, 0x263A, 0xD800, 0x10FFFF,
              0x110000, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 10**15, 123456789]
int_specs = [
    "", "d", "n", "b", "o", "x", "X", "c", "#b", "#o", "#x", "#X", "5", "05", "010", "<8", ">8", "^8",
    "=8", "*^9", "é>7", "+", "-", " ", "+d", " 5", "+08", "=+10", "0=10", "0<10", "x^11", ",", "_", ",d",
    "_d", "010,", "012_", "09,", "08,", "+013,", "_b", "_x", "#_x", "#012_x", "_o", "#010b", "+#x", "-#X",
    ",x", ",b", "_n", ",n", "_c", ".2", ".2d", "z", "zd", "z.2c", "e", ".3e", "E", "f", ".2f", "F", "g",
    "G", ".3g", "%", ".1%", "10.3f", "+,.2f", ",.0f", "_g", "s", "q", "xx", "10dd", ".", "#c", "+c", "5c",
    "<5c", "=5c", " c", "-c", "05c", "^", "<", "0", "00", "0x", ",,", ",_", "_,", "=", "99999999999999999999999",
    " #o", "é", "\x01", "\x7f", "#", "#d", "+#o", "#n", "z#x", "a=+#012_x",
]
for v in int_values:
    for spec in int_specs:
        kind, res = outcome(lambda: format(v, spec))
        add("format_int", str(v), u8(spec).hex(), kind, esc(res))

float_values = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 3.14159265358979, -3.14159, 1234.5,
    1234567.891, 1e-5, 1e-4, 0.00012345, 1e16, 1e17, 1e20, 1.5e300, 5e-324, 1.7976931348623157e308,
    1 / 3, 9.999999, 0.9999999, 99.995, 0.045, 100.0, 123.0, 999999.5, 1e6, 9.5, 0.05, -1e-10,
    -0.0004, float("inf"), float("-inf"), float("nan"), -float("nan"), torch.tensor(0.1).item(),
]
float_specs = [
    "", "e", "E", "f", "F", "g", "G", "n", "%", ".0e", ".1e", ".4e", ".10e", ".0f", ".1f", ".2f", ".4f",
    ".20f", ".0g", ".1g", ".3g", ".10g", ".17g", ".0", ".1", ".2", ".3", ".5", ".16", ".17", "#", "#g",
    "#.3g", "#.0f", "#.0e", "#.0", "#e", "#.2", "+", " ", "-", "+.2f", " .3e", "10", "<10", "^12",
    "=+12", "010", "012.3f", "0=12.3e", "*>12.2f", "0<9", ",", "_", ",.2f", "_.3f", "015,.2f", "_e",
    ",g", ",.3", "z", "z.2f", "z.0e", "z.1g", "+z.2f", "z.1%", "z.1", "d", "x", "c", "s", "q", ".2d",
    ",n", "_n", ".0%", ".3%", "10.1%", ".", "ff", ".30f", ".25e", ".20", "15.6n", "-^+20,.4e",
]
for v in float_values:
    for spec in float_specs:
        kind, res = outcome(lambda: format(v, spec))
        add("format_float", f64hex(v), u8(spec).hex(), kind, esc(res))

str_values = ["", "a", "abc", "hello world", "é", "naïve", "日本語", "😀x", "a\tb"]
str_specs = [
    "", "s", "5", "<5", ">5", "^5", "^6", "*^7", ".2", ".0", "10.3", ">10.3s", "05", "0", "=5", "+", " ",
    "-", "z", "#", ",", "_", "d", "x", "é^6", "😀<4", "q", ".", "1", "ss", "<", "^", ".1s", "0^7", "_<5", "=+5", "= 5", "z=5", "#=5", "+#", "z#", " z", "-=3", "+03", "#0",
]
for v in str_values:
    for spec in str_specs:
        kind, res = outcome(lambda: format(v, spec))
        add("format_str", u8(v).hex(), u8(spec).hex(), kind, esc(res))

# ---------------------------------------------------------------------------------------------
# Tensors

DTYPES = {
    torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool", torch.complex64: "complex64",
    torch.complex128: "complex128",
}

# Ops whose result is bit-identical on any CPU (no transcendental or reordered float math).
OPS = {
    "mul2": lambda x: x * 2,
    "add1": lambda x: x + 1,
    "neg": lambda x: x.neg(),
    "relu": lambda x: x.relu(),
    "sum": lambda x: x.sum(),
    "mean": lambda x: x.mean(),
    "view": lambda x: x.view(-1),
    "t": lambda x: x.t(),
    "transpose": lambda x: x.transpose(0, 1),
    "select0": lambda x: x[0],
    "clone": lambda x: x.clone(),
    "double": lambda x: x.double(),
    "unsqueeze": lambda x: x.unsqueeze(0),
    "setitem0": lambda x: setitem0(x),
}


def setitem0(x):
    y = x.clone()
    y[0] = 0  # grad_fn=<CopySlices>
    return y


def storage_bytes(t: torch.Tensor) -> bytes:
    s = t.storage()
    base = torch.empty(0, dtype=t.dtype)
    base.set_(s, 0, (s.size(),), (1,))
    if t.dtype in (torch.float16, torch.bfloat16):
        base = base.view(torch.int16)
    elif t.dtype == torch.bool:
        base = base.view(torch.uint8)
    return base.numpy().tobytes()


def ints(xs):
    return ",".join(str(int(x)) for x in xs)


def T(name, t, rg=False, param=False, op=None, sparse=None, meta=False):
    t = t.detach()
    flags = []
    if rg or op:
        flags.append("rg")
    if param:
        flags.append("param")
    if op:
        flags.append("op=" + op)
    if sparse is not None:
        flags.append("sparse" if sparse == 0 else "sparse%d" % sparse)
    if meta:
        flags.append("meta")
    if sparse is not None:
        shown = repr(t.to_sparse() if sparse == 0 else t.to_sparse(sparse))
    elif meta:
        shown = repr(torch.empty(t.size(), dtype=t.dtype, device="meta"))
    elif param:
        shown = repr(torch.nn.Parameter(t, requires_grad=bool(rg)))
    else:
        x = t.requires_grad_(True) if (rg or op) else t
        shown = repr(OPS[op](x) if op else x)
    add("tensor", name, DTYPES[t.dtype], storage_bytes(t).hex(), ints(t.size()), ints(t.stride()),
        str(t.storage_offset()), ",".join(flags) or "-", esc(shown))


nan, inf = float("nan"), float("inf")
f32 = torch.float32

# Random normal values in many shapes, including summarized (> 1000 elements) and 3-D / 4-D / 5-D.
shapes = [(), (1,), (2,), (5,), (8,), (10,), (3, 4), (4, 3), (2, 3, 4), (2, 2, 2, 2), (1, 1, 5), (7, 9), (30,),
          (100,), (6, 20), (1001,), (1200,), (33, 33), (40, 40), (3, 400), (2, 3, 200), (11, 10, 10),
          (2, 2, 2, 2, 70), (1, 1001), (1001, 1), (5, 6, 7, 8), (12, 13, 14), (7, 7, 7, 7)]
for shape in shapes:
    T("randn%s" % (shape,), torch.randn(shape))

# Magnitudes: fixed vs scientific mode.
for scale in [1e-10, 1e-6, 1e-4, 1e-3, 0.01, 10.0, 1e3, 1e4, 1e5, 1e7, 1e9, 1e20, 1e30]:
    T("randn*%g" % scale, torch.randn(7) * scale)
    T("randn(3,3)*%g" % scale, torch.randn(3, 3) * scale)
T("randn(1500)*1e-5", torch.randn(1500) * 1e-5)
T("randn(30,40)*1e6", torch.randn(30, 40) * 1e6)
spread = torch.randn(2000)
spread[1000] = 1e12  # elided: must not affect the formatting
T("summarized middle outlier", spread)
for vals in [[1e-5, 1.0], [1e-4, 0.5], [0.0001, 0.1], [0.00011, 0.1], [1.0, 1000.0], [1.0, 1001.0],
             [0.5, 500.0], [0.5, 500.5], [0.5, 501.0], [1e8], [1e8 + 8], [1.5e8], [123456789.0],
             [100000000.0, 1.0], [99999999.0, 1.0], [-1e-5, 2.0, 3.0], [12345.678, 0.001], [0.1, 0.25, -0.125],
             [1.0, 2.0, 3.0], [-1.0, 0.0, 1.0], [-0.0], [0.0, -0.0], [0.0, 0.0, 0.0], [1e-45], [3.4e38, 1.0],
             [2.0**24, 1.0], [65504.0, -65504.0], [0.99995, 0.99994], [9.99995, 1.0]]:
    T("values %s" % vals, torch.tensor(vals))
T("arange(10.)", torch.arange(10.0))
T("arange(-5.,5.)", torch.arange(-5.0, 5.0).view(2, 5))
T("arange(1100.)", torch.arange(1100.0))
T("arange(1100.)*1e5", torch.arange(1100.0) * 1e5)
T("zeros(3)", torch.zeros(3))
T("zeros(2,2)", torch.zeros(2, 2))
T("-zeros(3)", -torch.zeros(3))
T("ones(2,3,4)", torch.ones(2, 3, 4))

# nan / inf.
for vals in [[nan], [inf], [-inf], [inf, -inf], [nan, 1.5], [nan, 1.0, 2.0], [inf, 0.5, -1e-5],
             [nan, inf, -inf, 0.0], [nan, 1e-5, 1.0], [inf, 1e9], [nan, -3.0, 100.0], [-inf, 0.0, 0.25],
             [nan, 1e10, 1.0]]:
    T("nonfinite %s" % vals, torch.tensor(vals))
mixed = torch.randn(6, 7)
mixed[1, 2], mixed[3, 4], mixed[5, 0] = nan, inf, -inf
T("randn(6,7) with nan/inf", mixed)

# 0-dim.
for v in [3.0, 0.1, -2.5, 1e-10, 1e10, 0.0, -0.0, nan, inf, -inf, 123456.0, 1e8, 1.5e8]:
    T("scalar %r" % v, torch.tensor(v))
T("scalar True", torch.tensor(True))
T("scalar False", torch.tensor(False))
T("scalar 5", torch.tensor(5))
T("scalar -7 int32", torch.tensor(-7, dtype=torch.int32))
T("scalar 200 uint8", torch.tensor(200, dtype=torch.uint8))
T("scalar 2.5 float64", torch.tensor(2.5, dtype=torch.float64))
T("scalar 1.5 half", torch.tensor(1.5, dtype=torch.float16))
T("scalar 0.1 bfloat16", torch.tensor(0.1, dtype=torch.bfloat16))
T("scalar complex", torch.tensor(1.5 - 2j))

# Integer dtypes.
T("int8", torch.randint(-128, 128, (20,), dtype=torch.int8))
T("uint8", torch.randint(0, 256, (4, 5), dtype=torch.uint8))
T("int16", torch.randint(-32768, 32768, (3, 3), dtype=torch.int16))
T("int32", torch.randint(-(2**31), 2**31, (2, 5), dtype=torch.int32))
T("int64", torch.randint(-(2**62), 2**62, (5,), dtype=torch.int64))
T("int64 extremes", torch.tensor([2**63 - 1, -(2**63), 0, 1]))
T("int64 small", torch.tensor([1, 2, 3]))
T("int64 2d", torch.tensor([[1, -20, 300], [4000, 5, -6]]))
T("int64 1500", torch.randint(-1000, 1000, (1500,)))
T("int32 40x40", torch.randint(-50, 50, (40, 40), dtype=torch.int32))
T("uint8 2000", torch.randint(0, 256, (2000,), dtype=torch.uint8))
T("int16 3d", torch.randint(-300, 300, (3, 4, 5), dtype=torch.int16))
T("int64 arange 40", torch.arange(40))

# Bool.
T("bool 10", torch.rand(10) > 0.5)
T("bool 3x4", torch.rand(3, 4) > 0.5)
T("bool 1200", torch.rand(1200) > 0.5)
T("bool 2x3x2", torch.rand(2, 3, 2) > 0.5)

# Empty.
T("empty", torch.zeros(0))
T("empty 0x3", torch.zeros(0, 3))
T("empty 2x0x4", torch.zeros(2, 0, 4))
T("empty int64", torch.zeros(0, dtype=torch.int64))
T("empty float64", torch.zeros(0, dtype=torch.float64))
T("empty half", torch.zeros(0, dtype=torch.float16))
T("empty int32 3x0", torch.zeros(3, 0, dtype=torch.int32))
T("empty bool", torch.zeros(0, dtype=torch.bool))
T("empty rg", torch.zeros(0), rg=True)
T("empty 0x3 rg float64", torch.zeros(0, 3, dtype=torch.float64), rg=True)

# Reduced precision and double.
T("half", torch.randn(10).half())
T("half 3x4", torch.randn(3, 4).half())
T("half extremes", torch.tensor([65504.0, 1e-7, -2.0]).half())
T("half inf", torch.tensor([inf, 1.0, 1e5]).half())
T("half 1100", torch.randn(1100).half())
T("half ints", torch.arange(6.0).half())
T("bfloat16", torch.randn(6).bfloat16())
T("bfloat16 2x3", (torch.randn(2, 3) * 1000).bfloat16())
T("bfloat16 big", torch.tensor([1e30, 1.0]).bfloat16())
T("float64", torch.randn(5).double())
T("float64 3x3 tiny", torch.randn(3, 3).double() * 1e-8)
T("float64 1001", torch.randn(1001).double())
T("float64 precise", torch.tensor([1 / 3, 2 / 3, 0.1], dtype=torch.float64))

# Complex.
T("complex64", torch.randn(4, dtype=torch.complex64))
T("complex64 2x3", torch.randn(2, 3, dtype=torch.complex64))
T("complex128", torch.randn(3, dtype=torch.complex128))
T("complex nan", torch.tensor([complex(nan, 1.0), complex(1.0, -inf), 1 + 2j]))
T("complex ints", torch.tensor([1 + 2j, -3 - 4j]))
T("complex sci", torch.tensor([1e-6 + 1j, 1e3 - 1e5j]))

# Non-contiguous views.
T("transposed 4x6", torch.randn(4, 6).t())
T("permuted 3x4x5", torch.randn(3, 4, 5).permute(2, 0, 1))
T("step slice", torch.randn(20)[::3])
T("column slice", torch.randn(5, 6)[:, 1:4])
T("offset slice", torch.randn(5, 6)[2:, 3:])
T("expanded", torch.randn(3).expand(4, 3))
T("transposed big", torch.randn(50, 40).t())
T("int transposed", torch.randint(-9, 99, (3, 5)).t())

# requires_grad, grad_fn and the suffix line breaking.
T("rg 3", torch.randn(3), rg=True)
T("rg 2x3", torch.randn(2, 3), rg=True)
T("rg scalar", torch.tensor(1.5), rg=True)
for n in range(3, 12):
    T("rg float64 %d" % n, torch.randn(n).double(), rg=True)
    T("rg float64 2x%d" % n, torch.randn(2, n).double(), rg=True)
    T("rg sci float64 %d" % n, (torch.randn(n) * 1e-7).double(), rg=True)
T("rg 1200", torch.randn(1200), rg=True)
T("rg half", torch.randn(5).half(), rg=True)
T("op mul2", torch.randn(3), op="mul2")
T("op mul2 2x3", torch.randn(2, 3), op="mul2")
T("op add1", torch.randn(4), op="add1")
T("op neg float64", torch.randn(3).double(), op="neg")
T("op relu", torch.randn(2, 4), op="relu")
T("op sum", torch.arange(6.0).view(2, 3), op="sum")
T("op mean", torch.tensor([1.0, 2.0, 3.0, 4.0]), op="mean")
T("op view", torch.randn(2, 3), op="view")
T("op t", torch.randn(2, 3), op="t")
T("op transpose", torch.randn(2, 3, 2), op="transpose")
T("op select0", torch.randn(3, 4), op="select0")
T("op clone", torch.randn(5), op="clone")
T("op double", torch.randn(7), op="double")
T("op unsqueeze", torch.randn(4), op="unsqueeze")
for n in range(4, 11):
    T("op double %d" % n, torch.randn(n) * 1e-6, op="double")
T("op setitem0", torch.randn(3), op="setitem0")
T("op setitem0 2x3", torch.randn(2, 3), op="setitem0")

# Sparse COO and meta tensors.
T("sparse 1d", torch.tensor([0.0, 1.5, 0.0, -2.0]), sparse=0)
T("sparse 2d", torch.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]), sparse=0)
T("sparse int32", torch.tensor([[0, 7], [0, 0]], dtype=torch.int32), sparse=0)
T("sparse float64 hybrid", torch.tensor([[0.0, 0.0], [1.0, 2.5]], dtype=torch.float64), sparse=1)
T("sparse empty", torch.zeros(2, 3), sparse=0)
T("sparse empty hybrid", torch.zeros(3, 2), sparse=1)
sp = torch.zeros(30, 30)
sp[torch.randint(0, 30, (40,)), torch.randint(0, 30, (40,))] = torch.randn(40)
T("sparse 30x30", sp, sparse=0)
T("meta 2x3", torch.zeros(2, 3), meta=True)
T("meta int64", torch.zeros(4, dtype=torch.int64), meta=True)
T("meta scalar", torch.tensor(1.0), meta=True)
T("meta empty half", torch.zeros(0, 2, dtype=torch.float16), meta=True)

# nn.Parameter.
T("param 3", torch.randn(3), rg=True, param=True)
T("param 2x3", torch.randn(2, 3), rg=True, param=True)
T("param no grad", torch.randn(2), param=True)
T("param int", torch.arange(3), param=True)
T("param float64", torch.randn(4).double(), rg=True, param=True)

with open(sys.argv[1] if len(sys.argv) > 1 else "cases.txt", "wb") as f:
    f.write(b"# Generated by tests/format/gen_cases.py with CPython %s, torch %s. Do not edit.\n"
            % (sys.version.split()[0].encode(), torch.__version__.encode()))
    for line in lines:
        f.write(u8(line) + b"\n")
print("%d cases" % len(lines))
