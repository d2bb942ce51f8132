# re, written in the script language: regular expressions over str with CPython 3.11's results,
# match objects, reprs and error messages for the common subset: compile / match / search /
# fullmatch / findall / finditer / sub / subn / split / escape / purge, the flags A I M S X U
# (objects that combine with |), inline flags global and scoped, classes, \d \w \s \b with
# Unicode tables of their own (re's classes and case folding, not str's), greedy, lazy and
# possessive repeats, groups (named, atomic, non-capturing), backreferences, look-ahead and
# fixed-width look-behind, conditionals and comments.
#
# A pattern is parsed by recursive descent into nested tuples, checked (group references,
# look-behind widths) and compiled to a flat list of instructions; a loop runs them with an
# explicit stack of choice points, so a long subject never deepens the interpreter's recursion
# (only look-arounds, atomic groups and possessive repeats run a nested loop, as deep as the
# pattern nests them). Repeats of one character scan in a tight loop and give characters back
# one at a time on backtracking. The subject is matched as a list of characters (indexing a str
# is not O(1) here); the list of the last subject is kept for the next call.
#
# Not provided, each an error rather than a different answer: bytes patterns and subjects (the
# interpreter has no bytes type; NotImplementedError), \N{name} escapes (no Unicode name
# database: NotImplementedError), re.LOCALE (refused for str as CPython does), re.DEBUG output
# and Pattern.scanner (NotImplementedError). Known differences: re.I etc. are objects of their
# own, not int subclasses (the interpreter cannot subclass int): isinstance(re.I, int) is False,
# '%d' % re.I needs int(re.I), and the class prints as <class 're.RegexFlag'>;
# Pattern.groupindex is a plain dict, not a mappingproxy; where CPython 3.11 reports stale group
# spans after a possessive repeat's last, failed attempt (or raises SystemError), the spans of
# the last successful iteration are given.

__all__ = ["match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "compile",
           "purge", "template", "escape", "error", "Pattern", "Match", "A", "I", "L", "M", "S", "X",
           "U", "ASCII", "IGNORECASE", "LOCALE", "MULTILINE", "DOTALL", "VERBOSE", "UNICODE",
           "NOFLAG", "RegexFlag"]

# ---------------------------------------------------------------------------------------------
# flags

_FLAG_ORDER = (("ASCII", 256), ("IGNORECASE", 2), ("LOCALE", 4), ("UNICODE", 32), ("MULTILINE", 8),
               ("DOTALL", 16), ("VERBOSE", 64), ("TEMPLATE", 1), ("DEBUG", 128))
_FLAG_BY_VALUE = {}
for _nm, _v in _FLAG_ORDER:
    _FLAG_BY_VALUE[_v] = _nm


def _as_int(v):
    if isinstance(v, RegexFlag):
        return v.value
    return v


class RegexFlag:
    # stands in for CPython's enum.IntFlag: combines with | & ^ ~, compares and hashes as its int
    def __init__(self, value):
        self._value_ = value

    @property
    def value(self):
        return self._value_

    @property
    def name(self):
        if self._value_ == 0:
            return "NOFLAG"
        parts = [nm for nm, v in _FLAG_ORDER if self._value_ & v]
        return "|".join(parts) if parts else None

    def __repr__(self):
        v = self._value_
        if v == 0:
            return "re.NOFLAG"
        parts = ["re." + nm for nm, bit in _FLAG_ORDER if v & bit]
        rest = v & ~511
        if rest:
            parts.append(hex(rest))
        return "|".join(parts)

    __str__ = __repr__

    def __format__(self, spec):
        return format(repr(self), spec)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __bool__(self):
        return self._value_ != 0

    def __hash__(self):
        return hash(self._value_)

    def __eq__(self, other):
        if isinstance(other, (RegexFlag, int)):
            return self._value_ == _as_int(other)
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, (RegexFlag, int)):
            return self._value_ != _as_int(other)
        return NotImplemented

    def __lt__(self, other):
        return self._value_ < _as_int(other)

    def __le__(self, other):
        return self._value_ <= _as_int(other)

    def __gt__(self, other):
        return self._value_ > _as_int(other)

    def __ge__(self, other):
        return self._value_ >= _as_int(other)

    def __or__(self, other):
        if isinstance(other, (RegexFlag, int)):
            return RegexFlag(self._value_ | _as_int(other))
        return NotImplemented

    __ror__ = __or__

    def __and__(self, other):
        if isinstance(other, (RegexFlag, int)):
            return RegexFlag(self._value_ & _as_int(other))
        return NotImplemented

    __rand__ = __and__

    def __xor__(self, other):
        if isinstance(other, (RegexFlag, int)):
            return RegexFlag(self._value_ ^ _as_int(other))
        return NotImplemented

    __rxor__ = __xor__

    def __invert__(self):
        return RegexFlag(511 & ~self._value_)

    def __add__(self, other):
        return self._value_ + _as_int(other)

    __radd__ = __add__

    def __sub__(self, other):
        return self._value_ - _as_int(other)

    def __rsub__(self, other):
        return _as_int(other) - self._value_

    def __mul__(self, other):
        return self._value_ * _as_int(other)

    __rmul__ = __mul__


NOFLAG = RegexFlag(0)
ASCII = A = RegexFlag(256)
IGNORECASE = I = RegexFlag(2)
LOCALE = L = RegexFlag(4)
UNICODE = U = RegexFlag(32)
MULTILINE = M = RegexFlag(8)
DOTALL = S = RegexFlag(16)
VERBOSE = X = RegexFlag(64)
TEMPLATE = T = RegexFlag(1)
DEBUG = RegexFlag(128)

_F_T = 1
_F_I = 2
_F_L = 4
_F_M = 8
_F_S = 16
_F_U = 32
_F_X = 64
_F_DEBUG = 128
_F_A = 256
_INLINE_FLAGS = {"a": _F_A, "i": _F_I, "L": _F_L, "m": _F_M, "s": _F_S, "u": _F_U, "x": _F_X}

_MAXREPEAT = 4294967295
_MAXGROUPS = 1073741823


# messages CPython gives outside re.error
_MSG_REPEAT_BIG = "the repetition number is too large"
_MSG_A_AND_U = "ASCII and UNICODE flags are incompatible"
_MSG_NOT_PATTERN = "first argument must be string or compiled pattern"
_MSG_LOCALE = "cannot use LOCALE flag with a str pattern"
_MSG_BEHIND_WIDTH = "look-behind requires fixed-width pattern"


class error(Exception):
    # re.error: msg, pattern, pos, lineno, colno; str() adds the position as CPython does
    def __init__(self, message, pattern=None, pos=None):
        self.msg = message
        self.pattern = pattern
        self.pos = pos
        text = message
        located = pos is not None and pattern is not None
        if located:
            text = "%s at position %d" % (message, pos)
            nl = "\n" if isinstance(pattern, str) else None
            self.lineno = pattern.count(nl, 0, pos) + 1
            self.colno = pos - pattern.rfind(nl, 0, pos)
            if nl in pattern:
                text = "%s (line %d, column %d)" % (text, self.lineno, self.colno)
        else:
            self.lineno = None
            self.colno = None
        super().__init__(text)


def _no_bytes(what):
    return NotImplementedError("re in model scripts works on str only: %s are not supported" % what)

# ---------------------------------------------------------------------------------------------
# Unicode data. \w, \d, \s and case-insensitive matching beyond ASCII follow re's own rules
# (matching ignoring case pairs characters up, where str.lower maps one way), so they use these
# tables, written from the Unicode 14 data CPython 3.11 uses. Numbers are base 36. _WORD_RANGES / _DIGIT_RANGES: "gap.length" pairs, each
# range starting gap after the previous range's last code point and spanning length more.
# _FOLD_RUNS: "gap.delta.count[.2]": count pairs of characters that match each other ignoring
# case, (a, a + delta), a advancing by 1 (or by 2) within the run, the first a being gap past the
# previous run's first a. _FOLD_GROUPS: larger sets of mutually matching characters.
# _LOWER_EXCEPTIONS: "char.lower" for the characters of those sets whose backreference
# comparison (simple lower case) does not follow from the set alone.

_SPACE_CHARS = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_ASCII_SPACE = " \t\n\r\x0c\x0b"
_ASCII_DIGITS = "0123456789"
_ASCII_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_ASCII_WORD_SET = set(_ASCII_WORD)
_ASCII_DIGIT_SET = set(_ASCII_DIGITS)
_ASCII_SPACE_SET = set(_ASCII_SPACE)
_UNI_SPACE_SET = set(_SPACE_CHARS)
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_WORD_RANGES = (
    "4q.0 8.1 2.0 4.1 2.2 2.m 2.u 2.cp 5.b f.4 8.0 2.0 3m.4 2.1 3.3 2.0 7.0 2.2 2.0 2.j 2.2a 2.3u "
    "9.4l 2.11 3.0 7.14 20.q 5.3 1a.16 m.9 5.1 2.2q 2.0 g.1 8.e 3.0 h.0 2.t u.2g c.0 f.16 a.1 5.0 6.l "
    "5.0 a.0 4.0 o.o 8.a 6.n 2.5 i.15 1n.1h 4.0 j.0 8.9 5.9 2.f 5.7 3.1 3.l 2.6 2.0 4.3 4.0 h.0 e.1 "
    "2.2 5.b 3.5 3.0 9.5 5.1 3.l 2.6 2.1 2.1 2.1 w.3 2.0 8.9 3.2 h.8 2.2 2.l 2.6 2.1 2.4 4.0 j.0 g.1 "
    "5.9 a.0 c.7 3.1 3.l 2.6 2.1 2.4 4.0 v.1 2.2 5.9 2.6 c.0 2.5 4.2 2.3 4.1 2.0 2.1 4.1 4.2 4.b n.0 "
    "m.c j.7 2.2 2.m 2.f 4.0 r.2 3.0 3.1 5.9 9.6 2.0 5.7 2.2 2.m 2.9 2.4 4.0 w.1 2.1 5.9 2.1 i.8 2.2 "
    "2.14 3.0 h.0 6.2 2.9 5.i 2.5 6.h 4.n 2.8 2.0 3.6 w.9 i.1b 2.1 d.6 a.9 14.1 2.0 2.4 2.n 2.0 2.9 "
    "2.1 a.0 3.4 2.0 a.9 3.3 x.0 w.j d.7 2.z s.4 38.16 l.a 7.5 5.3 4.0 4.1 8.2 5.c d.0 2.9 7.11 2.0 "
    "6.0 3.16 2.98 2.3 3.6 2.0 2.3 3.14 2.3 3.w 2.3 3.6 2.0 2.3 3.e 2.1k 2.3 3.1u f.j 4.f h.2d 3.5 "
    "4.h7 3.g 2.p 6.22 4.a 8.h e.i f.h f.c 2.2 g.1f 10.0 5.0 4.9 7.9 n.9 7.2g 8.4 3.x 2.0 6.1x b.u "
    "14.13 3.4 c.17 5.p 7.a 12.m a.1g 18.9 7.9 e.0 2m.1a i.7 4.9 16.t e.1j r.z t.9 4.1c 3.8 8.16 3.2 "
    "16.3 2.5 2.1 4.0 6.5b 1t.7p 3.5 3.11 3.5 3.7 2.0 2.0 2.0 2.u 3.1g 2.6 2.0 4.2 2.6 4.3 3.5 5.c "
    "6.2 2.6 38.1 3.5 6.a 7.c 2u.0 5.0 3.9 2.0 4.4 7.0 2.0 2.0 2.3 2.a 3.3 6.4 5.0 2.1l k7.1n 27.l "
    "hj.t vh.6c 7.3 4.1 a.0 3.11 2.0 6.0 3.1j 8.0 h.m a.6 2.6 2.6 2.6 2.6 2.6 2.6 2.6 29.0 d2.2 q.8 "
    "8.4 3.4 5.2d 7.2 2.2h 2.3 6.16 2.2l 4.3 b.v 1d.f x.9 v.7 2.e x.9 14.e 8x.533 1t.h3g 1w.19 3.7g "
    "4.r l.1a h.u 3.27 14.8 3.2u 3.1r 6.1 2.0 2.4 p.f 2.2 2.3 2.m e.5 b.1f f.1d t.9 p.5 4.0 2.1 2.11 "
    "b.m q.s 8.1a t.a 7.4 2.o 2.14 o.2 2.7 5.9 7.m 4.0 4.1d 2.0 4.1 3.4 3.0 2.0 p.2 3.a 8.2 d.5 3.5 "
    "3.5 a.6 2.6 2.16 2.d 7.36 e.9 7.8mb d.m 5.1c 6it.a5 3.2x 13.6 d.4 6.0 2.9 2.c 2.4 2.0 2.1 2.1 "
    "2.2z y.a2 j.1r 3.1h 15.b 39.4 2.3q k.9 8.p 7.p c.2g 4.5 3.5 3.5 3.2 10.b 2.p 2.i 2.1 2.e 3.d "
    "z.3e d.18 d.1k i.1 6t.s 4.1c h.q 5.z a.t 6.11 b.t 3.z 5.7 2.4 17.4d 3.9 7.z 5.z 5.13 9.1f d.a "
    "2.e 2.6 2.1 2.a 2.e 2.6 2.1 1w.8m a.l b.7 p.5 2.15 2.8 1y.5 3.0 2.17 2.1 4.0 3.m 3.u 3.11 9.8 "
    "1d.i 2.1 6.w 5.p 1z.1j 5.j 3.1a g.3 2.2 2.s b.8 o.u 2.v x.7 2.r 7.4 h.1h b.l 3.q 6.p o.6 29.20 "
    "1k.1e e.1e 8.15 d.9 87.u 2.15 7.1 27.13 9.l c.3 s.h 1b.r l.m d.1g r.t 2.1 3.0 e.18 x.o 8.9 a.z "
    "g.9 5.0 3.0 9.y 4.0 d.1b f.3 c.a 2.0 5.j c.h 2.o 2d.6 2.0 2.3 2.e 2.9 8.1a i.9 c.7 3.1 3.l 2.6 "
    "2.1 2.4 4.0 j.0 d.4 4f.1g j.3 6.9 6.2 v.1b l.1 2.0 9.9 4n.1a 16.3 11.1b l.0 c.9 13.16 e.0 8.9 "
    "1j.q m.b 5.6 56.17 39.2a d.7 3.0 3.7 2.1 2.n g.0 2.0 f.9 1z.7 3.12 h.0 2.0 t.0 b.13 8.0 m.0 c.19 "
    "k.0 j.20 7c.8 2.10 i.0 g.s 6.t 35.6 2.1 2.11 m.0 a.9 7.5 2.1 2.v f.0 8.9 8n.i 5a.0 g.k 18.pl "
    "2v.32 i.5f 219.2o g.tq 34i.g6 6nu.fs 8.u 2.9 7.26 2.9 7.t j.1b h.3 d.9 2.6 2.k 6.i j5.2e 2y.22 "
    "6.0 1v.c 1t.1 2.0 t.4qf 9.yd 17.8 6w8.3 2.6 2.1 2.82 1a.2 i.3 9.az 1s5.2y 6.c 4.8 8.9 4ef.j 31.o "
    "3s.2c 2.1y 2.1 3.0 3.1 3.3 2.b 2.0 2.6 2.1s 2.3 3.7 2.6 2.r 2.3 2.4 2.0 4.6 2.9f 3.o 2.o 2.u 2.o "
    "2.u 2.o 2.u 2.o 2.u 2.o 2.7 3.1d 1dt.u de.18 b.6 3.9 5.0 8y.t j.17 5.9 yv.6 2.3 2.1 2.e 2.5g 3.8 "
    "1d.1v 8.0 5.9 m0.1m 2.2 2.3 25.18 2.e 5f.3 2.q 2.1 2.0 3.0 2.9 2.3 2.0 2.0 7.0 5.0 2.0 2.0 2.2 "
    "2.1 2.0 3.0 2.0 2.0 2.0 2.0 2.1 2.0 3.3 2.6 2.3 2.3 2.0 2.9 2.g 6.2 2.4 2.g g5.c 25g.9 sn.wyn "
    "x.37c 8.65 3.4g1 f.5rk 2e8.f1 15v.3t6"
)
_DIGIT_RANGES = (
    "19c.9 3r.9 5j.9 bh.9 3b.9 3b.9 3b.9 3b.9 3b.9 3b.9 3b.9 3b.9 3b.9 2p.9 3b.9 1z.9 7r.9 1z.9 1fr.9 "
    "13.9 8d.9 3l.9 4n.9 7.9 53.9 2f.9 3r.9 7.9 r7r.9 iv.9 13.9 5j.9 n.9 2f.9 bb.9 gev.9 13b.9 1on.9 "
    "ml.9 3l.9 1p.9 41.9 7r.9 9j.9 3b.9 af.9 2v.9 2v.9 br.9 2v.9 l3.9 6v.9 1z.9 f5j.9 2f.9 3r.9 "
    "lf9.1d 1tt.9 br.9 193.9 3o7.9"
)
_FOLD_RUNS = (
    "1t.w.8 9.w.2.2 3.w.6 7.w.7 30.w.5 6.w.h i.w.7 7.5vj.1 w.3d.1 1.1.o.2 1e.1.3.2 7.1.8.2 h.1.n.2 "
    "1b.1.3.2 7.5f.1 1.5u.1 1.1.2.2 4.5q.1 1.1.1 2.5p.2 2.1.1 3.27.1 1.5m.1 1.5n.1 1.1.1 2.5p.1 "
    "1.5r.1 1.2p.1 1.5v.1 1.5t.1 1.1.1 2.4j.1 2.5v.1 1.5x.1 1.3m.1 1.5y.1 1.1.3.2 6.62.1 1.1.1 2.62.1 "
    "3.1.1 2.62.1 1.1.1 2.61.2 2.1.2.2 4.63.1 1.1.1 4.1.1 3.1k.1 e.1.8.2 h.1.9.2 m.1.1 4.1.k.2 "
    "16.1.9.2 o.8bv.1 1.1.1 3.8bs.1 1.8cf.2 2.1.1 3.1x.1 1.1z.1 1.1.5.2 a.8bj.1 1.8bg.1 1.8bi.1 "
    "a.wnj.1 5.wnf.1 4.wmg.1 1.wn8.1 4.wn8.1 1.8af.1 1.wn5.1 5.8al.1 c.89z.1 5.wn7.1 5.wmi.1 m.wlx.1 "
    "1.wlu.1 5u.1.2.2 6.1.1 5.3m.3 4.38.1 7.12.1 2.11.3 4.1s.1 2.1r.2 2.5kz.1 1.w.2.2 3.w.2.2 3.w.1 "
    "4.w.2.2 3.w.2 6.w.2 3.w.2 3.w.2 6.5kj.1 v.8.1 9.1.c.2 q.7.1 5.1.1 3.1.1 6.28.g g.w.2 3.w.2.2 "
    "3.w.8 9.w.2 4.w.7 8.w.5 1h.1.1 4.1.f.2 12.1.r.2 1i.f.1 1.1.7.2 f.1.1c.2 2p.1c.12 29b.5ls.12 "
    "13.5ls.1 6.5ls.1 3.2bk.17 19.2bk.3 ir.tzk.28 28.8.6 1vt.r9g.1 4.2xy.1 h.raw.1 36.1.1c.2 2q.1.q.2 "
    "1q.1.1c.2 2o.8.8 g.8.6 g.8.8 g.8.8 g.8.6 h.8.4.2 f.8.8 g.22.2 2.2e.4 4.2s.2 2.3k.2 2.34.2 2.3i.2 "
    "4.8.8 g.8.8 g.8.8 g.8.2 3.9.1 g.9.1 d.8.2 g.8.2 5.7.1 e.9.1 8v.s.1 1a.g.g z.1.1 mr.q.q 1fu.1c.1c "
    "2o.1.1 7.1.3.2 b.1.1 3.1.1 b.1.1e.2 2z.1.2.2 7.1.1 nym.1.5.2 c.1.h.2 1g.1.e.2 4i.1.7.2 g.1.v.2 "
    "1z.1.2.2 5.1.5.2 d.1.1 5.1.2.2 4.1c.1 2.1.a.2 t.ps.1 1.1.8.2 j.1.2.2 9.1.1 6.1.2.2 v.1.1 geo.1.1 "
    "t8.w.q yn.14.14 4w.14.10 5c.13.b c.13.f g.13.7 8.13.2 1d8.1s.1f 2e8.w.w gww.w.w o8w.y.y"
)
_FOLD_GROUPS = (
    "21.2x.8g.8h 23.2z.6ju 2b.37.an 51.po.qk 5h.6d.6jv ck.cl.cm cn.co.cp cq.cr.cs dt.du.dv "
    "n9.pl.qh.69q pe.qa.r4 ph.qd.s5 pk.qg.r5.s4 pm.qi.s0 ps.qo.ra pt.qp.s1 pv.qq.qr py.qu.r9 "
    "q1.qx.6jq sy.tu.5mo t0.tw.5mp ta.u6.5mq td.u9.5mr te.ua.5ms.5mt tm.ui.5mu v6.v7.5mv 5mw.wui.wuj "
    "600.601.61n"
)
_LOWER_EXCEPTIONS = (
    "51.51 po.qk qk.qk 600.601 601.601 61n.61n ps.qo qo.qo ra.ra ta.u6 u6.u6 5mq.5mq py.qu qu.qu "
    "r9.r9 ph.qd qd.qd s5.s5 2b.37 37.37 an.an v6.v7 v7.v7 5mv.5mv tm.ui ui.ui 5mu.5mu pe.qa qa.qa "
    "r4.r4 pk.qg qg.qg r5.r5 s4.qg 21.2x 2x.2x 8g.2x 8h.8h te.ua ua.ua 5ms.5ms 5mt.5mt td.u9 u9.u9 "
    "5mr.5mr pt.qp qp.qp s1.s1 pm.qi qi.qi s0.s0 t0.tw tw.tw 5mp.5mp n9.n9 pl.qh qh.qh 69q.69q pc.pc "
    "6ab.6ab 5mw.5mw wui.wuj wuj.wuj sy.tu tu.tu 5mo.5mo 1dl1.1dl1 1dl2.1dl2 pv.qr qq.qq qr.qr q8.q8 "
    "6ar.6ar"
)

_tables = {}


def _decode_ranges(text):
    starts = []
    ends = []
    last = 0
    for item in text.split():
        gap, length = item.split(".")
        lo = last + int(gap, 36)
        last = lo + int(length, 36)
        starts.append(lo)
        ends.append(last)
    return starts, ends


def _range_table(name):
    t = _tables.get(name)
    if t is None:
        t = _decode_ranges(_WORD_RANGES if name == "w" else _DIGIT_RANGES)
        _tables[name] = t
    return t


def _in_ranges(cp, table):
    starts, ends = table
    lo = 0
    hi = len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if ends[mid] < cp:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(starts) and starts[lo] <= cp


_word_cache = {}
_digit_cache = {}


def _uni_word(c):
    if c in _ASCII_WORD_SET:
        return True
    if c < "\x80":
        return False
    r = _word_cache.get(c)
    if r is None:
        r = _in_ranges(ord(c), _range_table("w"))
        _word_cache[c] = r
    return r


def _uni_digit(c):
    if c in _ASCII_DIGIT_SET:
        return True
    if c < "\x80":
        return False
    r = _digit_cache.get(c)
    if r is None:
        r = _in_ranges(ord(c), _range_table("d"))
        _digit_cache[c] = r
    return r


def _uni_space(c):
    return c in _UNI_SPACE_SET


def _ascii_word(c):
    return c in _ASCII_WORD_SET


def _fold_map():
    # char -> string of every character that matches it ignoring case (itself included)
    m = _tables.get("fold")
    if m is not None:
        return m
    m = {}
    a = 0
    for item in _FOLD_RUNS.split():
        parts = item.split(".")
        a += int(parts[0], 36)
        delta = int(parts[1], 36)
        count = int(parts[2], 36)
        step = 2 if len(parts) > 3 else 1
        for k in range(count):
            x = chr(a + k * step)
            y = chr(a + k * step + delta)
            m[x] = x + y
            m[y] = x + y
    for item in _FOLD_GROUPS.split():
        group = "".join([chr(int(p, 36)) for p in item.split(".")])
        for ch in group:
            m[ch] = group
    _tables["fold"] = m
    return m


def _lower_key_map():
    m = _tables.get("lowerkey")
    if m is None:
        m = {}
        for item in _LOWER_EXCEPTIONS.split():
            c, low = item.split(".")
            m[chr(int(c, 36))] = chr(int(low, 36))
        _tables["lowerkey"] = m
    return m


def _fold_chars(c, asc):
    # every character c matches when case is ignored (ASCII mode: ASCII letters only)
    if asc:
        if c in _UPPER or c in _LOWER:
            return c.lower() + c.upper()
        return c
    return _fold_map().get(c, c)


def _ref_key(c, asc):
    # what a case-insensitive backreference compares: CPython's simple lower case
    if asc:
        return c.lower() if c < "\x80" else c
    k = _lower_key_map().get(c)
    if k is not None:
        return k
    return _fold_map().get(c, c)

# ---------------------------------------------------------------------------------------------
# Parsed patterns are nested tuples:
#   ("L", ch)                     one literal character (case-sensitive)
#   ("C", kind, arg)              one character tested by a matcher (see _TEST_* below)
#   ("S", [nodes])                sequence            ("A", [nodes])          alternatives
#   ("G", index, node)            capturing group     ("R", lo, hi, mode, node) repeat
#                                 (hi -1: unbounded; mode 0 greedy, 1 lazy, 2 possessive)
#   ("@", anchor)                 ^ $ \A \Z \b \B     ("K", index, casemode)  backreference
#   ("?", behind, negate, node, [width])  look-around ([-1] for a look-ahead)
#   (">", node)                   atomic group
#   ("Y", index, yes, no)         conditional on a group having matched

# one-character matchers: kind and argument
_TEST_CHAR = 0      # arg: the character
_TEST_IN = 1        # arg: a set of characters
_TEST_CLASS = 2     # arg: (the ASCII characters that pass, a function deciding the others)
_TEST_NOTIN = 3     # arg: a set of characters the matched one is not in
_TEST_NOTNL = 4     # any character but a newline
_TEST_ANY = 5       # any character

_AT_BEGIN = 0
_AT_BEGIN_LINE = 1
_AT_END = 2
_AT_END_LINE = 3
_AT_START_STRING = 4
_AT_END_STRING = 5
_AT_BOUNDARY = 6
_AT_NOT_BOUNDARY = 7
_AT_ASCII_BOUNDARY = 8
_AT_ASCII_NOT_BOUNDARY = 9

_OCTAL = "01234567"
_DIGITS = "0123456789"
_HEXDIGITS = "0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = {"a": "\x07", "f": "\x0c", "n": "\n", "r": "\r", "t": "\t", "v": "\x0b", "\\": "\\"}
_LETTERS = set(_UPPER + _LOWER)
_VERBOSE_SPACE = set(" \t\n\r\x0b\x0c")
_BIG_RANGE = 256     # ranges up to this many characters are tested as a set


def _category_func(cat, asc):
    # \d \w \s and their complements, as a function of one character
    if cat == "d":
        return _uni_digit if not asc else (lambda c: c in _ASCII_DIGIT_SET)
    if cat == "w":
        return _uni_word if not asc else _ascii_word
    if cat == "s":
        return _uni_space if not asc else (lambda c: c in _ASCII_SPACE_SET)
    f = _category_func(cat.lower(), asc)
    return lambda c: not f(c)


def _category_set(cat, asc):
    # the characters a category holds when that is a small finite set, else None
    if cat == "d" and asc:
        return _ASCII_DIGIT_SET
    if cat == "w" and asc:
        return _ASCII_WORD_SET
    if cat == "s":
        return _ASCII_SPACE_SET if asc else _UNI_SPACE_SET
    return None


def _make_class(chars, ranges, cats, negate, fl):
    # chars: list of characters, ranges: (lo, hi) code points, cats: "d" "D" "w" ... -> (kind, arg)
    icase = fl & _F_I
    asc = fl & _F_A
    members = set()
    big = []
    for c in chars:
        members.add(c)
    for lo, hi in ranges:
        if hi - lo < _BIG_RANGE:
            for cp in range(lo, hi + 1):
                members.add(chr(cp))
        else:
            big.append((lo, hi))
    funcs = []
    for cat in cats:
        s = _category_set(cat, asc)
        if s is not None:
            for c in s:
                members.add(c)
        else:
            funcs.append(_category_func(cat, asc))
    if icase:
        folded = set()
        for c in members:
            for f in _fold_chars(c, asc):
                folded.add(f)
        members = folded
    if not big and not funcs:
        if negate:
            return (_TEST_NOTIN, members)
        if len(members) == 1:
            for c in members:
                return (_TEST_CHAR, c)
        return (_TEST_IN, members)

    def in_big(c):
        cp = ord(c)
        for lo, hi in big:
            if lo <= cp <= hi:
                return True
        return False

    def test(c):
        if c in members:
            return True
        for f in funcs:
            if f(c):
                return True
        if big:
            if in_big(c):
                return True
            if icase:
                for f in _fold_chars(c, asc):
                    if f != c and in_big(f):
                        return True
        return False

    check = test
    if negate:
        check = lambda c: not test(c)
    elif not big and len(funcs) == 1 and not members:
        check = funcs[0]
    ascii_pass = set()
    for cp in range(128):
        if check(chr(cp)):
            ascii_pass.add(chr(cp))
    return (_TEST_CLASS, (ascii_pass, check))


def _literal(c, fl):
    if fl & _F_I:
        eq = _fold_chars(c, fl & _F_A)
        if len(eq) > 1:
            return ("C", _TEST_IN, set(eq))
    return ("L", c)


def _is_alpha(c):
    return c is not None and c.isalpha()


def _is_group_name(name):
    if not name or name[0] in _DIGITS:
        return False
    for c in name:
        if c != "_" and not _uni_word(c):
            return False
    return True


def _width(node, widths):
    # (fewest, most) characters a node can match; most is -1 when unbounded
    t = node[0]
    if t == "L" or t == "C":
        return 1, 1
    if t == "S":
        lo = 0
        hi = 0
        for n in node[1]:
            a, b = _width(n, widths)
            lo += a
            hi = -1 if hi < 0 or b < 0 else hi + b
        return lo, hi
    if t == "A":
        lo = -1
        hi = 0
        for n in node[1]:
            a, b = _width(n, widths)
            lo = a if lo < 0 else min(lo, a)
            hi = -1 if hi < 0 or b < 0 else max(hi, b)
        return max(lo, 0), hi
    if t == "G":
        return _width(node[2], widths)
    if t == "R":
        a, b = _width(node[4], widths)
        hi = -1 if b < 0 or node[2] < 0 else b * node[2]
        if node[2] < 0 and b == 0:
            hi = 0
        return a * node[1], hi
    if t == ">":
        return _width(node[1], widths)
    if t == "K":
        return widths.get(node[1], (0, -1))
    if t == "Y":
        a, b = _width(node[2], widths)
        c, d = _width(node[3], widths)
        return min(a, c), (-1 if b < 0 or d < 0 else max(b, d))
    return 0, 0


class _Parser:
    def __init__(self, src, flags):
        self.src = src
        self.p = list(src)
        self.n = len(self.p)
        self.i = 0
        self.flags = flags
        self.ngroups = 0
        self.names = {}
        self.open = []              # indices of the groups being parsed
        self.widths = {}            # index -> width of each closed group
        self.late_refs = []         # (index, position) of conditionals, checked at the end
        self.behind = []            # per open look-behind: [groups before it, bad reference seen]
        self.behind_bodies = []     # (body, [width]) of each look-behind, measured after parsing
        self.begun = False          # has anything but global flags and comments been seen
        # CPython reads the pattern one escape-aware token ahead, so a lone backslash ending the
        # pattern is reported as soon as the parser gets to it, before later errors
        k = self.n
        while k > 0 and self.p[k - 1] == "\\":
            k -= 1
        self.trail = self.n - 1 if (self.n - k) % 2 else -1

    def fail(self, msg, pos, upto=None):
        if self.trail >= 0 and (self.i if upto is None else upto) >= self.trail:
            return error("bad escape (end of pattern)", self.src, self.trail)
        return error(msg, self.src, pos)

    def skip_to(self, ch):
        # advance over escape-aware tokens to the next standalone ch, or to the end
        p = self.p
        while self.i < self.n and p[self.i] != ch:
            self.i += 2 if p[self.i] == "\\" else 1
        if self.i > self.n:
            self.i = self.n

    def token(self, i):
        # the text of the token at i: one character, or a backslash and the next
        if self.p[i] == "\\" and i + 1 < self.n:
            return self.p[i] + self.p[i + 1]
        return self.p[i]

    def unknown_extension(self, start, at):
        tok = self.token(at)
        return self.fail("unknown extension " + self.src[start + 1:at] + tok, start + 1, at + len(tok))

    def peek(self):
        return self.p[self.i] if self.i < self.n else None

    def parse(self):
        node = self.alternatives(self.flags)
        if self.i < self.n:
            raise self.fail("unbalanced parenthesis", self.i)
        for index, pos in self.late_refs:
            if index > self.ngroups:
                raise self.fail("invalid group reference %d" % index, pos)
        for body, width in self.behind_bodies:
            lo, hi = _width(body, self.widths)
            if lo != hi:
                raise error(_MSG_BEHIND_WIDTH)
            width[0] = lo
        return node

    def skip_verbose(self):
        p = self.p
        while self.i < self.n:
            c = p[self.i]
            if c in _VERBOSE_SPACE:
                self.i += 1
            elif c == "#":
                self.skip_to("\n")
            else:
                break

    def alternatives(self, fl):
        first = self.sequence(fl)
        if self.peek() != "|":
            return first
        branches = [first]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence(self.seq_flags))
        return ("A", branches)

    def sequence(self, fl):
        items = []
        p = self.p
        last = 0        # 0: nothing to repeat, 1: an item that can repeat, 2: a repeat
        while True:
            if fl & _F_X:
                self.skip_verbose()
            if self.i >= self.n:
                break
            c = p[self.i]
            if c == "|" or c == ")":
                break
            start = self.i
            rep = None
            if c == "*":
                self.i += 1
                rep = (0, -1)
            elif c == "+":
                self.i += 1
                rep = (1, -1)
            elif c == "?":
                self.i += 1
                rep = (0, 1)
            elif c == "{":
                rep = self.braces()
            if rep is not None:
                if last == 0:
                    raise self.fail("nothing to repeat", start)
                if last == 2:
                    raise self.fail("multiple repeat", start)
                mode = 0
                nxt = self.peek()
                if nxt == "?":
                    self.i += 1
                    mode = 1
                elif nxt == "+":
                    self.i += 1
                    mode = 2
                items[-1] = ("R", rep[0], rep[1], mode, items[-1])
                last = 2
                continue
            node = self.atom(fl)
            if node is None:
                continue            # a comment: the next repeat applies to what came before
            if node[0] == "flags":
                fl = fl | node[1]
                continue
            self.begun = True
            items.append(node)
            last = 0 if node[0] == "@" and c != "(" else 1
        self.seq_flags = fl        # global flags seen here hold for the branches after it too
        if len(items) == 1:
            return items[0]
        return ("S", items)

    def braces(self):
        # {m}, {m,}, {,n}, {m,n}; anything else leaves '{' a literal (returns None)
        p = self.p
        j = self.i + 1
        lo = ""
        while j < self.n and p[j] in _DIGITS:
            lo += p[j]
            j += 1
        hi = lo
        comma = False
        if j < self.n and p[j] == ",":
            comma = True
            j += 1
            hi = ""
            while j < self.n and p[j] in _DIGITS:
                hi += p[j]
                j += 1
        if j >= self.n or p[j] != "}" or (not lo and not comma):
            return None
        low = int(lo) if lo else 0
        high = int(hi) if hi else -1
        if low >= _MAXREPEAT or high >= _MAXREPEAT:
            raise OverflowError(_MSG_REPEAT_BIG)
        if high >= 0 and high < low:
            raise self.fail("min repeat greater than max repeat", self.i + 1)
        self.i = j + 1
        return (low, high)

    def atom(self, fl):
        p = self.p
        c = p[self.i]
        if c == "(":
            return self.group(fl)
        if c == "[":
            return self.charset(fl)
        if c == "\\":
            return self.escape(fl)
        self.i += 1
        if c == ".":
            return ("C", _TEST_ANY if fl & _F_S else _TEST_NOTNL, None)
        if c == "^":
            return ("@", _AT_BEGIN_LINE if fl & _F_M else _AT_BEGIN)
        if c == "$":
            return ("@", _AT_END_LINE if fl & _F_M else _AT_END)
        return _literal(c, fl)

    # ---- escapes
    def hex_escape(self, start, count, letter):
        p = self.p
        digits = ""
        while len(digits) < count and self.i < self.n and p[self.i] in _HEXDIGITS:
            digits += p[self.i]
            self.i += 1
        if len(digits) < count:
            raise self.fail("incomplete escape \\%s%s" % (letter, digits), start)
        v = int(digits, 16)
        if v > 0x10FFFF:
            raise self.fail("bad escape \\%s%s" % (letter, digits), start)
        return chr(v)

    def octal_escape(self, start, first):
        p = self.p
        digits = first
        while len(digits) < 3 and self.i < self.n and p[self.i] in _OCTAL:
            digits += p[self.i]
            self.i += 1
        v = int(digits, 8)
        if v > 0o377:
            raise self.fail("octal escape value \\%s outside of range 0-0o377" % digits, start)
        return chr(v)

    def named_escape(self, start):
        p = self.p
        if self.peek() != "{":
            raise self.fail("missing {", self.i)
        self.i += 1
        name_at = self.i
        self.skip_to("}")
        if self.i == name_at:
            raise self.fail("missing character name", name_at)
        if self.i >= self.n:
            raise self.fail("missing }, unterminated name", name_at)
        self.i += 1
        raise NotImplementedError("re in model scripts: \\N{...} escapes are not supported (no Unicode "
                                  "name database)")

    def common_escape(self, start, c):
        # escapes that mean one character both inside and outside a set; None if c is not one
        if c in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[c]
        if c == "x":
            return self.hex_escape(start, 2, "x")
        if c == "u":
            return self.hex_escape(start, 4, "u")
        if c == "U":
            return self.hex_escape(start, 8, "U")
        if c == "N":
            return self.named_escape(start)
        return None

    def escape(self, fl):
        p = self.p
        start = self.i
        self.i += 1
        if self.i >= self.n:
            raise self.fail("bad escape (end of pattern)", start)
        c = p[self.i]
        self.i += 1
        if c in "dDsSwW":
            return ("C",) + _make_class([], [], [c], False, fl)
        if c == "A":
            return ("@", _AT_START_STRING)
        if c == "Z":
            return ("@", _AT_END_STRING)
        if c == "b":
            return ("@", _AT_ASCII_BOUNDARY if fl & _F_A else _AT_BOUNDARY)
        if c == "B":
            return ("@", _AT_ASCII_NOT_BOUNDARY if fl & _F_A else _AT_NOT_BOUNDARY)
        if c == "0":
            return _literal(self.octal_escape(start, "0"), fl)
        if c in _DIGITS:
            if (c in _OCTAL and self.i + 1 < self.n and p[self.i] in _OCTAL
                    and p[self.i + 1] in _OCTAL):
                return _literal(self.octal_escape(start, c), fl)
            digits = c
            if self.i < self.n and p[self.i] in _DIGITS:
                digits += p[self.i]
                self.i += 1
            return self.backref(int(digits), start, start + 1, fl)
        ch = self.common_escape(start, c)
        if ch is not None:
            return _literal(ch, fl)
        if c in _LETTERS:
            raise self.fail("bad escape \\" + c, start)
        return _literal(c, fl)

    def backref(self, index, open_pos, pos, fl):
        if index in self.open:
            raise self.fail("cannot refer to an open group", open_pos)
        if index > self.ngroups:
            raise self.fail("invalid group reference %d" % index, pos)
        for entry in self.behind:
            if index > entry[0]:
                entry[1] = True
        mode = 0
        if fl & _F_I:
            mode = 1 if fl & _F_A else 2
        return ("K", index, mode)

    # ---- [...]
    def set_item(self, fl):
        # one member of a set: ("c", char) or ("k", category letter)
        p = self.p
        c = p[self.i]
        if c != "\\":
            self.i += 1
            return ("c", c)
        start = self.i
        self.i += 1
        if self.i >= self.n:
            raise self.fail("bad escape (end of pattern)", start)
        c = p[self.i]
        self.i += 1
        if c in "dDsSwW":
            return ("k", c)
        if c == "b":
            return ("c", "\x08")
        if c in _OCTAL:
            return ("c", self.octal_escape(start, c))
        ch = self.common_escape(start, c)
        if ch is not None:
            return ("c", ch)
        if c in _LETTERS or c in _DIGITS:
            raise self.fail("bad escape \\" + c, start)
        return ("c", c)

    def charset(self, fl):
        p = self.p
        start = self.i
        self.i += 1
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        chars = []
        ranges = []
        cats = []
        first = True
        while True:
            if self.i >= self.n:
                raise self.fail("unterminated character set", start)
            if p[self.i] == "]" and not first:
                self.i += 1
                break
            first = False
            item_at = self.i
            item = self.set_item(fl)
            if self.i + 1 < self.n and p[self.i] == "-" and p[self.i + 1] != "]":
                self.i += 1
                other = self.set_item(fl)
                if item[0] == "k" or other[0] == "k":
                    raise self.fail("bad character range " + self.src[item_at:self.i], item_at)
                lo = ord(item[1])
                hi = ord(other[1])
                if hi < lo:
                    raise self.fail("bad character range " + self.src[item_at:self.i], item_at)
                ranges.append((lo, hi))
            elif item[0] == "k":
                cats.append(item[1])
            else:
                chars.append(item[1])
        if not negate and not ranges and not cats and len(chars) == 1:
            return _literal(chars[0], fl)
        return ("C",) + _make_class(chars, ranges, cats, negate, fl)

    # ---- (...)
    def group_name(self, end_char, at, unterminated):
        self.skip_to(end_char)
        if self.i >= self.n:
            if self.i == at:
                raise self.fail("missing group name", at)
            raise self.fail(unterminated or "missing ), unterminated name", at)
        name = self.src[at:self.i]
        self.i += 1
        if not name:
            raise self.fail("missing group name", at)
        return name

    def close(self, fl, start):
        node = self.alternatives(fl)
        if self.peek() != ")":
            raise self.fail("missing ), unterminated subpattern", start)
        self.i += 1
        return node

    def capture(self, fl, start, name, name_at):
        index = self.ngroups + 1
        if name is not None:
            if not _is_group_name(name):
                raise self.fail("bad character in group name %r" % name, name_at)
            if name in self.names:
                raise self.fail("redefinition of group name %r as group %d; was group %d"
                                % (name, index, self.names[name]), name_at)
            self.names[name] = index
        self.ngroups = index
        self.open.append(index)
        body = self.close(fl, start)
        self.open.pop()
        self.widths[index] = _width(body, self.widths)
        return ("G", index, body)

    def group(self, fl):
        p = self.p
        start = self.i
        self.i += 1
        if self.peek() != "?":
            self.begun = True
            return self.capture(fl, start, None, 0)
        self.i += 1
        c = self.peek()
        if c is None:
            raise self.fail("unexpected end of pattern", self.i)
        if c == "#":
            self.skip_to(")")
            if self.i >= self.n:
                raise self.fail("missing ), unterminated comment", start)
            self.i += 1
            return None
        if c in _INLINE_FLAGS or c == "-":
            return self.flag_group(fl, start)
        self.begun = True
        self.i += 1
        if c == ":":
            return self.close(fl, start)
        if c == ">":
            return (">", self.close(fl, start))
        if c == "=" or c == "!":
            return ("?", False, c == "!", self.close(fl, start), [-1])
        if c == "P":
            d = self.peek()
            if d is None:
                raise self.fail("unexpected end of pattern", self.i)
            self.i += 1
            if d == "<":
                at = self.i
                name = self.group_name(">", at, "missing >, unterminated name")
                return self.capture(fl, start, name, at)
            if d == "=":
                at = self.i
                name = self.group_name(")", at, None)
                if not _is_group_name(name):
                    raise self.fail("bad character in group name %r" % name, at)
                if name not in self.names:
                    raise self.fail("unknown group name %r" % name, at)
                return self.backref(self.names[name], at, at, fl)
            raise self.unknown_extension(start, self.i - 1)
        if c == "<":
            d = self.peek()
            if d is None:
                raise self.fail("unexpected end of pattern", self.i)
            if d != "=" and d != "!":
                raise self.unknown_extension(start, self.i)
            self.i += 1
            entry = [self.ngroups, False]
            self.behind.append(entry)
            body = self.close(fl, start)
            self.behind.pop()
            if entry[1]:
                raise self.fail("cannot refer to group defined in the same lookbehind subpattern", self.i - 1)
            width = [0]
            self.behind_bodies.append((body, width))
            return ("?", True, d == "!", body, width)
        if c == "(":
            return self.conditional(fl, start)
        raise self.unknown_extension(start, self.i - 1)

    def conditional(self, fl, start):
        p = self.p
        at = self.i
        self.skip_to(")")
        name = self.src[at:self.i]
        if not name:
            raise self.fail("missing group name", at)
        if self.i >= self.n:
            raise self.fail("missing ), unterminated name", at)
        self.i += 1
        if _is_group_name(name):
            if name not in self.names:
                raise self.fail("unknown group name %r" % name, at)
            index = self.names[name]
        else:
            ok = True
            for ch in name:
                if ch not in _DIGITS:
                    ok = False
            if not ok:
                raise self.fail("bad character in group name %r" % name, at)
            index = int(name)
            if index == 0:
                raise self.fail("bad group number", at)
            if index >= _MAXGROUPS:
                raise self.fail("invalid group reference %d" % index, at)
            self.late_refs.append((index, at))
            if self.behind and index > self.ngroups:
                raise self.fail("cannot refer to an open group", self.i)
        for entry in self.behind:
            if index > entry[0]:
                entry[1] = True
        yes = self.sequence(fl)
        no = ("S", [])
        if self.peek() == "|":
            self.i += 1
            no = self.sequence(fl)
            if self.peek() == "|":
                raise self.fail("conditional backref with more than two branches", self.i)
        if self.peek() != ")":
            raise self.fail("missing ), unterminated subpattern", start)
        self.i += 1
        return ("Y", index, yes, no)

    def flag_group(self, fl, start):
        # (?aiLmsux) at the start of the pattern, or (?flags-flags:...) anywhere
        p = self.p
        on = 0
        while self.i < self.n and p[self.i] in _INLINE_FLAGS:
            c = p[self.i]
            self.i += 1
            self.check_flag(c, on)
            on |= _INLINE_FLAGS[c]
        c = self.peek()
        if c == ")":
            self.i += 1
            if self.begun:
                raise self.fail("global flags not at the start of the expression", start)
            self.flags |= on
            return ("flags", on)
        off = 0
        if c == "-":
            self.i += 1
            c = self.peek()
            if c is None or c not in _INLINE_FLAGS:
                raise self.fail("unknown flag" if _is_alpha(c) else "missing flag", self.i)
            while self.i < self.n and p[self.i] in _INLINE_FLAGS:
                c = p[self.i]
                self.i += 1
                if c in "auL":
                    raise self.fail("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", self.i)
                off |= _INLINE_FLAGS[c]
            c = self.peek()
            if c != ":":
                raise self.fail("unknown flag" if _is_alpha(c) else "missing :", self.i)
            if on & off:
                raise self.fail("bad inline flags: flag turned on and off", self.i)
        elif c != ":":
            raise self.fail("unknown flag" if _is_alpha(c) else "missing -, : or )", self.i)
        self.i += 1
        self.begun = True
        inner = fl
        if on & (_F_A | _F_U):
            inner &= ~(_F_A | _F_U)
        inner = (inner | on) & ~off
        return self.close(inner, start)

    def check_flag(self, c, on):
        if c == "L":
            raise self.fail("bad inline flags: cannot use 'L' flag with a str pattern", self.i)
        if c in "au" and on & (_F_A | _F_U | _F_L) & ~_INLINE_FLAGS[c]:
            raise self.fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible", self.i)

# ---------------------------------------------------------------------------------------------
# Instructions: tuples whose first item is one of these codes. The match state is a list of
# "slots": [0] the last closed group's index, [2g] and [2g+1] group g's start and end, then two
# per counted repeat (iterations done, where the current iteration began). A choice point keeps
# the slot list as it was; the loop copies the list before its first change after a choice
# point, so going back to a choice point restores every slot at once.

_OP_CHAR = 0        # (code, ch)
_OP_IN = 1          # (code, set)
_OP_CLASS = 2       # (code, (ASCII set, function for the others))
_OP_NOTIN = 3       # (code, set)
_OP_NOTNL = 4       # (code,)
_OP_ANY = 5         # (code,)
_OP_TEXT = 6        # (code, list of chars, length)
_OP_SPLIT = 7       # (code, alternative pc): go on, come back to the alternative on failure
_OP_JUMP = 8        # (code, pc)
_OP_OPEN = 9        # (code, slot)
_OP_CLOSE = 10      # (code, slot, group index)
_OP_RUN = 11        # (code, kind, arg, lo, hi, possessive, next char or None): greedy repeat of one char
_OP_RUN_LAZY = 12   # (code, kind, arg, lo, hi)
_OP_LOOP = 13       # (code, slot, lo, hi, greedy, body pc, exit pc, first): repeat test; first: entering
_OP_LOOP_START = 14 # (code, slot + 1): an iteration begins here
_OP_BRANCH = 15     # (code, [(pc, kind, arg), ...], cache): alternatives, skipping those whose
                    #   first character test fails (kind -1: no test); cache: character ->
                    #   the indices of the alternatives worth trying
_OP_AT = 17         # (code, anchor)
_OP_REF = 18        # (code, slot, case mode)
_OP_LOOK = 19       # (code, width or -1, negate, pc after the body)
_OP_ATOMIC = 20     # (code, pc after the body)
_OP_IF = 21         # (code, end slot of the group, pc of the no branch)
_OP_DONE = 22       # (code,): end of a look-around or atomic body
_OP_MATCH = 23      # (code,)
_OP_SKIP = 24       # (code, pc): jump, coming back to the next instruction on failure
_OP_POSSESS = 25    # (code, lo, hi, pc after the body): a possessive repeat, each iteration atomic;
                    #   an empty iteration ends it and counts as enough

# entries of the backtracking stack, each ending with the slot list to go back to:
# (0, pc, pos, slots)                        resume at pc
# (2, next pc, lowest pos, pos, next char, slots)   a greedy run gives back a character
# (3, pc of the lazy run, start, pos, slots)        a lazy run takes one more
# (4, pc of the branch, alternatives, index, pos, slots)   the next alternative of a branch

_ONE_OPS = {_TEST_CHAR: _OP_CHAR, _TEST_IN: _OP_IN, _TEST_CLASS: _OP_CLASS, _TEST_NOTIN: _OP_NOTIN,
            _TEST_NOTNL: _OP_NOTNL, _TEST_ANY: _OP_ANY}
_ONE_KINDS = {}
for _k, _v in _ONE_OPS.items():
    _ONE_KINDS[_v] = _k


def _one_char(node):
    if node[0] == "L":
        return (_TEST_CHAR, node[1])
    if node[0] == "C":
        return (node[1], node[2])
    return None


def _passes(kind, arg, c):
    if kind == _TEST_CHAR:
        return c == arg
    if kind == _TEST_IN:
        return c in arg
    if kind == _TEST_CLASS:
        return c in arg[0] or (c > "\x7f" and arg[1](c))
    if kind == _TEST_NOTIN:
        return c not in arg
    if kind == _TEST_NOTNL:
        return c != "\n"
    return True


def _leading(node):
    # the one-character test every match's first character passes, or None
    t = node[0]
    if t == "L" or t == "C":
        return _one_char(node)
    if t == "S":
        for item in node[1]:
            if item[0] == "@" or item[0] == "?":
                continue
            return _leading(item)
        return None
    if t == "G":
        return _leading(node[2])
    if t == ">":
        return _leading(node[1])
    if t == "R" and node[1] >= 1:
        return _leading(node[4])
    if t == "A":
        union = set()
        for b in node[1]:
            lead = _leading(b)
            if lead is None:
                return None
            if lead[0] == _TEST_CHAR:
                union.add(lead[1])
            elif lead[0] == _TEST_IN:
                for c in lead[1]:
                    union.add(c)
            else:
                return None
        return (_TEST_IN, union)
    return None


def _anchored(node):
    t = node[0]
    if t == "@":
        return node[1] == _AT_BEGIN or node[1] == _AT_START_STRING
    if t == "S":
        return len(node[1]) > 0 and _anchored(node[1][0])
    if t == "G":
        return _anchored(node[2])
    return False


class _Emitter:
    def __init__(self, ngroups):
        self.prog = []
        self.next_slot = 2 * (ngroups + 1)

    def hole(self):
        self.prog.append(None)
        return len(self.prog) - 1

    def emit(self, node):
        prog = self.prog
        t = node[0]
        if t == "L":
            prog.append((_OP_CHAR, node[1]))
        elif t == "C":
            prog.append((_ONE_OPS[node[1]], node[2]))
        elif t == "S":
            items = node[1]
            k = 0
            while k < len(items):
                if items[k][0] != "L":
                    self.emit(items[k])
                    k += 1
                    continue
                text = []
                while k < len(items) and items[k][0] == "L":
                    text.append(items[k][1])
                    k += 1
                if len(text) == 1:
                    prog.append((_OP_CHAR, text[0]))
                else:
                    prog.append((_OP_TEXT, text, len(text)))
        elif t == "A":
            at = self.hole()
            table = []
            exits = []
            for b in node[1]:
                lead = _leading(b)
                if lead is None:
                    table.append((len(prog), -1, None))
                else:
                    table.append((len(prog), lead[0], lead[1]))
                self.emit(b)
                exits.append(self.hole())
            prog[at] = (_OP_BRANCH, table, _branch_cache(table))
            for j in exits:
                prog[j] = (_OP_JUMP, len(prog))
        elif t == "G":
            prog.append((_OP_OPEN, 2 * node[1]))
            self.emit(node[2])
            prog.append((_OP_CLOSE, 2 * node[1] + 1, node[1]))
        elif t == "R":
            self.repeat(node[1], node[2], node[3], node[4])
        elif t == "@":
            prog.append((_OP_AT, node[1]))
        elif t == "K":
            prog.append((_OP_REF, 2 * node[1], node[2]))
        elif t == "?":
            at = self.hole()
            self.emit(node[3])
            prog.append((_OP_DONE,))
            prog[at] = (_OP_LOOK, node[4][0], node[2], len(prog))
        elif t == ">":
            self.atomic(node[1])
        elif t == "Y":
            at = self.hole()
            self.emit(node[2])
            skip = self.hole()
            prog[at] = (_OP_IF, 2 * node[1] + 1, len(prog))
            self.emit(node[3])
            prog[skip] = (_OP_JUMP, len(prog))

    def atomic(self, body):
        at = self.hole()
        self.emit(body)
        self.prog.append((_OP_DONE,))
        self.prog[at] = (_OP_ATOMIC, len(self.prog))

    def repeat(self, lo, hi, mode, body):
        prog = self.prog
        if hi == 0:
            return
        one = _one_char(body)
        if one is not None:
            if mode == 1:
                prog.append((_OP_RUN_LAZY, one[0], one[1], lo, hi))
            else:
                prog.append((_OP_RUN, one[0], one[1], lo, hi, mode == 2, None))
            return
        if mode == 2:
            # CPython commits each iteration of a possessive repeat as it matches
            at = self.hole()
            self.emit(body)
            prog.append((_OP_DONE,))
            prog[at] = (_OP_POSSESS, lo, hi, len(prog))
            return
        if lo == 1 and hi == 1:
            self.emit(body)
            return
        if lo == 0 and hi == 1:
            at = self.hole()
            self.emit(body)
            prog[at] = ((_OP_SPLIT if mode == 0 else _OP_SKIP), len(prog))
            return
        slot = self.next_slot
        self.next_slot += 2
        enter = self.hole()
        prog.append((_OP_LOOP_START, slot + 1))
        self.emit(body)
        again = self.hole()
        done = len(prog)
        prog[enter] = (_OP_LOOP, slot, lo, hi, mode == 0, enter + 1, done, True)
        prog[again] = (_OP_LOOP, slot, lo, hi, mode == 0, enter + 1, done, False)

    def finish(self):
        prog = self.prog
        prog.append((_OP_MATCH,))
        # a greedy run followed (past group marks) by a one-character test gives back characters
        # only where that test passes
        for k in range(len(prog) - 1):
            op = prog[k]
            if op[0] == _OP_RUN and not op[5]:
                j = k + 1
                while prog[j][0] == _OP_OPEN or prog[j][0] == _OP_CLOSE:
                    j += 1
                nxt = prog[j]
                follow = None
                if nxt[0] == _OP_TEXT:
                    follow = (_TEST_CHAR, nxt[1][0])
                elif nxt[0] in _ONE_KINDS and nxt[0] != _OP_ANY:
                    follow = (_ONE_KINDS[nxt[0]], nxt[1] if len(nxt) > 1 else None)
                if follow is not None:
                    prog[k] = op[:6] + (follow,)
        return prog


def _at(kind, L, pos, end):
    if kind == _AT_BEGIN or kind == _AT_START_STRING:
        return pos == 0
    if kind == _AT_BEGIN_LINE:
        return pos == 0 or L[pos - 1] == "\n"
    if kind == _AT_END:
        return pos == end or (pos == end - 1 and L[pos] == "\n")
    if kind == _AT_END_LINE:
        return pos == end or L[pos] == "\n"
    if kind == _AT_END_STRING:
        return pos == end
    word = _uni_word if kind < _AT_ASCII_BOUNDARY else _ascii_word
    if end == 0:
        return False        # CPython: neither \b nor \B matches in an empty string
    before = pos > 0 and word(L[pos - 1])
    after = pos < end and word(L[pos])
    if kind == _AT_BOUNDARY or kind == _AT_ASCII_BOUNDARY:
        return before != after
    return before == after


def _same_text(L, a, b, n, mode, end):
    # does L[b:b+n] equal L[a:a+n], ignoring case by mode (1 ASCII, 2 Unicode)
    if b + n > end:
        return False
    if mode == 0:
        return L[a:a + n] == L[b:b + n]
    asc = mode == 1
    for k in range(n):
        x = L[a + k]
        y = L[b + k]
        if x != y and _ref_key(x, asc) != _ref_key(y, asc):
            return False
    return True


def _viable(table, c):
    # the indices of the alternatives whose first-character test c (None: the end) passes
    out = []
    for j in range(len(table)):
        kind = table[j][1]
        if kind < 0 or (c is not None and _passes(kind, table[j][2], c)):
            out.append(j)
    return tuple(out)


def _branch_cache(table):
    cache = {None: _viable(table, None)}
    for cp in range(128):
        cache[chr(cp)] = _viable(table, chr(cp))
    return cache


def _run(prog, pc, L, pos, end, marks, full, forbid):
    # the matching loop: returns the end position of a match starting at pos, or -1. On a match
    # the caller's slot list gets the final slots; on a failure it is left as it came.
    # full: the match must end at end; forbid: an end position not allowed
    stack = []
    orig = marks
    shared = True       # marks may not be changed in place (the caller's, or a choice point's)
    while True:
        op = prog[pc]
        code = op[0]
        if code == 0:        # _OP_CHAR
            if pos < end and L[pos] == op[1]:
                pos += 1
                pc += 1
                continue
        elif code == 1:      # _OP_IN
            if pos < end and L[pos] in op[1]:
                pos += 1
                pc += 1
                continue
        elif code == 11:     # _OP_RUN
            kind = op[1]
            arg = op[2]
            lim = end
            if op[4] >= 0 and pos + op[4] < end:
                lim = pos + op[4]
            i = pos
            if kind == 2:
                s = arg[0]
                f = arg[1]
                while i < lim:
                    c = L[i]
                    if c in s or (c > "\x7f" and f(c)):
                        i += 1
                    else:
                        break
            elif kind == 1:
                while i < lim and L[i] in arg:
                    i += 1
            elif kind == 0:
                while i < lim and L[i] == arg:
                    i += 1
            elif kind == 3:
                while i < lim and L[i] not in arg:
                    i += 1
            elif kind == 4:
                while i < lim and L[i] != "\n":
                    i += 1
            else:
                i = lim
            least = pos + op[3]
            if i >= least:
                follow = op[6]
                if follow is not None:
                    if follow[0] == 0:
                        f = follow[1]
                        while i >= least and (i >= end or L[i] != f):
                            i -= 1
                    else:
                        while i >= least and (i >= end or not _passes(follow[0], follow[1], L[i])):
                            i -= 1
                if i >= least:
                    if i > least and not op[5]:
                        stack.append((2, pc + 1, least, i, follow, marks))
                        shared = True
                    pos = i
                    pc += 1
                    continue
        elif code == 2:      # _OP_CLASS
            if pos < end:
                c = L[pos]
                if c in op[1][0] or (c > "\x7f" and op[1][1](c)):
                    pos += 1
                    pc += 1
                    continue
        elif code == 9:      # _OP_OPEN
            if shared:
                marks = list(marks)
                shared = False
            marks[op[1]] = pos
            pc += 1
            continue
        elif code == 10:     # _OP_CLOSE
            if shared:
                marks = list(marks)
                shared = False
            marks[op[1]] = pos
            marks[0] = op[2]
            pc += 1
            continue
        elif code == 15:     # _OP_BRANCH
            c = L[pos] if pos < end else None
            v = op[2].get(c)
            if v is None:
                v = _viable(op[1], c)
                if len(op[2]) < 1000:
                    op[2][c] = v
            if v:
                if len(v) > 1:
                    stack.append((4, pc, v, 1, pos, marks))
                    shared = True
                pc = op[1][v[0]][0]
                continue
        elif code == 8:      # _OP_JUMP
            pc = op[1]
            continue
        elif code == 13:     # _OP_LOOP
            k = op[1]
            if shared:
                marks = list(marks)
                shared = False
            if op[7]:
                marks[k] = 0
                marks[k + 1] = -1
            else:
                marks[k] += 1
            done = marks[k]
            if done < op[2]:
                pc = op[5]
                continue
            if (op[3] >= 0 and done >= op[3]) or marks[k + 1] == pos:
                pc = op[6]
                continue
            if op[4]:
                stack.append((0, op[6], pos, marks))
                shared = True
                pc = op[5]
            else:
                stack.append((0, op[5], pos, marks))
                shared = True
                pc = op[6]
            continue
        elif code == 14:     # _OP_LOOP_START
            if shared:
                marks = list(marks)
                shared = False
            marks[op[1]] = pos
            pc += 1
            continue
        elif code == 6:      # _OP_TEXT
            k = pos + op[2]
            if k <= end and L[pos:k] == op[1]:
                pos = k
                pc += 1
                continue
        elif code == 23:     # _OP_MATCH
            if (not full or pos == end) and pos != forbid:
                if marks is not orig:
                    orig[:] = marks
                return pos
        elif code == 7:      # _OP_SPLIT
            stack.append((0, op[1], pos, marks))
            shared = True
            pc += 1
            continue
        elif code == 3:      # _OP_NOTIN
            if pos < end and L[pos] not in op[1]:
                pos += 1
                pc += 1
                continue
        elif code == 4:      # _OP_NOTNL
            if pos < end and L[pos] != "\n":
                pos += 1
                pc += 1
                continue
        elif code == 5:      # _OP_ANY
            if pos < end:
                pos += 1
                pc += 1
                continue
        elif code == 12:     # _OP_RUN_LAZY
            n = 0
            while n < op[3] and pos < end and _passes(op[1], op[2], L[pos]):
                pos += 1
                n += 1
            if n == op[3]:
                stack.append((3, pc, pos - n, pos, marks))
                shared = True
                pc += 1
                continue
        elif code == 17:     # _OP_AT
            if _at(op[1], L, pos, end):
                pc += 1
                continue
        elif code == 18:     # _OP_REF
            k = op[1]
            a = marks[k]
            b = marks[k + 1]
            if a >= 0 and b >= 0 and _same_text(L, a, pos, b - a, op[2], end):
                pos += b - a
                pc += 1
                continue
        elif code == 19:     # _OP_LOOK
            start = pos
            if op[1] >= 0:
                start = pos - op[1]
            if start < 0:
                r = -1
            elif op[2]:
                r = _run(prog, pc + 1, L, start, end, list(marks), False, -1)
            else:
                if shared:
                    marks = list(marks)
                    shared = False
                r = _run(prog, pc + 1, L, start, end, marks, False, -1)
            if (r >= 0) != op[2]:
                pc = op[3]
                continue
        elif code == 20:     # _OP_ATOMIC
            if shared:
                marks = list(marks)
                shared = False
            r = _run(prog, pc + 1, L, pos, end, marks, False, -1)
            if r >= 0:
                pos = r
                pc = op[1]
                continue
        elif code == 21:     # _OP_IF
            if marks[op[1]] >= 0 and marks[op[1] - 1] >= 0:
                pc += 1
            else:
                pc = op[2]
            continue
        elif code == 22:     # _OP_DONE
            if marks is not orig:
                orig[:] = marks
            return pos
        elif code == 25:     # _OP_POSSESS
            if shared:
                marks = list(marks)
                shared = False
            lo = op[1]
            hi = op[2]
            n = 0
            i = pos
            while hi < 0 or n < hi:
                r = _run(prog, pc + 1, L, i, end, marks, False, -1)
                if r < 0:
                    break
                n += 1
                if r == i:
                    if n < lo:
                        n = lo
                    break
                i = r
            if n >= lo:
                pos = i
                pc = op[3]
                continue
        elif code == 24:     # _OP_SKIP
            stack.append((0, pc + 1, pos, marks))
            shared = True
            pc = op[1]
            continue
        # the instruction failed: go back to the latest choice point
        while True:
            if not stack:
                return -1
            e = stack.pop()
            t = e[0]
            if t == 0:
                pc = e[1]
                pos = e[2]
                marks = e[3]
                shared = True
                break
            if t == 4:
                v = e[2]
                j = e[3]
                pos = e[4]
                marks = e[5]
                shared = True
                if j + 1 < len(v):
                    stack.append((4, e[1], v, j + 1, pos, marks))
                pc = prog[e[1]][1][v[j]][0]
                break
            if t == 2:
                least = e[2]
                i = e[3] - 1
                follow = e[4]
                if follow is not None:
                    if follow[0] == 0:
                        f = follow[1]
                        while i >= least and (i >= end or L[i] != f):
                            i -= 1
                    else:
                        while i >= least and (i >= end or not _passes(follow[0], follow[1], L[i])):
                            i -= 1
                    if i < least:
                        continue
                marks = e[5]
                shared = True
                if i > least:
                    stack.append((2, e[1], least, i, follow, marks))
                pc = e[1]
                pos = i
                break
            # t == 3: a lazy run takes one more character
            op = prog[e[1]]
            i = e[3]
            if i >= end or (op[4] >= 0 and i - e[2] >= op[4]) or not _passes(op[1], op[2], L[i]):
                continue
            i += 1
            marks = e[4]
            shared = True
            stack.append((3, e[1], e[2], i, marks))
            pc = e[1] + 1
            pos = i
            break

# ---------------------------------------------------------------------------------------------
# searching

_subject = [None, None]     # the last subject string and its list of characters


def _chars(s):
    if s is _subject[0]:
        return _subject[1]
    L = list(s)
    _subject[0] = s
    _subject[1] = L
    return L


def _check_subject(s):
    if isinstance(s, str):
        return s
    name = type(s).__name__
    if name in ("bytes", "bytearray", "memoryview"):
        raise _no_bytes("bytes subjects")
    raise TypeError("expected string or bytes-like object, got %r" % name)


def _find(pat, L, pos, end, mode, forbid):
    # mode 0: match at pos, 1: fullmatch, 2: search from pos. Returns the slots, [0] and [1]
    # holding the match's span and the last entry the last closed group, or None
    prog = pat._prog
    marks = [-1] * pat._nslots
    if mode != 2:
        r = _run(prog, 0, L, pos, end, marks, mode == 1, forbid)
        if r < 0:
            return None
        marks.append(marks[0])
        marks[0] = pos
        marks[1] = r
        return marks
    lead = pat._lead
    if pat._simple is not None:
        return _find_run(pat._simple, L, pos, end, marks)
    start = pos
    while start <= end:
        if lead is not None:
            kind = lead[0]
            arg = lead[1]
            if kind == 0:
                while start < end and L[start] != arg:
                    start += 1
            elif kind == 1:
                while start < end and L[start] not in arg:
                    start += 1
            elif kind == 2:
                s = arg[0]
                f = arg[1]
                while start < end:
                    c = L[start]
                    if c in s or (c > "\x7f" and f(c)):
                        break
                    start += 1
            elif kind == 3:
                while start < end and L[start] in arg:
                    start += 1
            if start >= end:
                return None
        r = _run(prog, 0, L, start, end, marks, False, forbid)
        if r >= 0:
            marks.append(marks[0])
            marks[0] = start
            marks[1] = r
            return marks
        if pat._anchored:
            return None
        start += 1
    return None


def _find_run(simple, L, pos, end, marks):
    # search for a pattern that is one greedy run of a one-character test, at least once
    kind, arg, lo, hi = simple
    start = pos
    while start < end:
        i = start
        if kind == 2:
            s = arg[0]
            f = arg[1]
            while i < end:
                c = L[i]
                if c in s or (c > "\x7f" and f(c)):
                    break
                i += 1
            start = i
            while i < end:
                c = L[i]
                if c in s or (c > "\x7f" and f(c)):
                    i += 1
                else:
                    break
        elif kind == 1:
            while i < end and L[i] not in arg:
                i += 1
            start = i
            while i < end and L[i] in arg:
                i += 1
        else:
            while i < end and not _passes(kind, arg, L[i]):
                i += 1
            start = i
            while i < end and _passes(kind, arg, L[i]):
                i += 1
        if i - start >= lo and i > start:
            if hi >= 0 and i - start > hi:
                i = start + hi
            marks.append(-1)
            marks[0] = start
            marks[1] = i
            return marks
        start = i + 1
    return None


def _bounds(L, pos, endpos):
    n = len(L)
    if pos < 0:
        pos = 0
    elif pos > n:
        pos = n
    if endpos is None or endpos > n:
        endpos = n
    elif endpos < 0:
        endpos = 0
    return pos, endpos


def _scan(pat, string, pos=0, endpos=None):
    # every match from pos, as CPython 3.7+ finds them: an empty match may follow a non-empty one
    # at the same place, but not another empty one
    L = _chars(string)
    pos, end = _bounds(L, pos, endpos)
    forbid = -1
    while pos <= end:
        marks = _find(pat, L, pos, end, 2, forbid)
        if marks is None:
            return
        yield L, marks
        pos = marks[1]
        forbid = pos if marks[0] == pos else -1


_REPR_FLAGS = (("TEMPLATE", _F_T), ("IGNORECASE", _F_I), ("LOCALE", _F_L), ("MULTILINE", _F_M), ("DOTALL", _F_S),
               ("UNICODE", _F_U), ("VERBOSE", _F_X), ("DEBUG", _F_DEBUG), ("ASCII", _F_A))


def _refuse_repeats(node):
    # the deprecated re.TEMPLATE flag: CPython 3.11 compiles no repeat under it
    t = node[0]
    if t == "R":
        raise error("internal: unsupported template operator %s"
                    % ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")[node[3]])
    for item in node[1:]:
        if isinstance(item, tuple) and item and isinstance(item[0], str):
            _refuse_repeats(item)
        elif isinstance(item, list):
            for sub in item:
                if isinstance(sub, tuple) and sub and isinstance(sub[0], str):
                    _refuse_repeats(sub)


class Pattern:
    def __init__(self, pattern, flags):
        parser = _Parser(pattern, flags)
        tree = parser.parse()
        flags = parser.flags
        if flags & _F_T:
            _refuse_repeats(tree)
        if flags & _F_A and flags & _F_U:
            raise ValueError(_MSG_A_AND_U)
        if not flags & _F_A:
            flags |= _F_U
        self.pattern = pattern
        self.flags = flags
        self.groups = parser.ngroups
        self._names = dict(parser.names)
        self._by_index = {}
        for name, index in parser.names.items():
            self._by_index[index] = name
        emitter = _Emitter(parser.ngroups)
        emitter.emit(tree)
        self._prog = emitter.finish()
        self._nslots = emitter.next_slot
        self._lead = _leading(tree)
        self._anchored = _anchored(tree)
        self._simple = None
        first = self._prog[0]
        if first[0] == _OP_RUN and len(self._prog) == 2 and first[3] >= 1:
            self._simple = (first[1], first[2], first[3], first[4])

    @property
    def groupindex(self):
        # a fresh dict: CPython gives a read-only mappingproxy, which the interpreter's dict()
        # and ** could not read as a mapping
        return dict(self._names)

    def __repr__(self):
        text = repr(self.pattern)
        if len(text) > 200:
            text = text[:200]
        shown = self.flags & ~_F_U
        if not shown:
            return "re.compile(%s)" % text
        names = ["re." + nm for nm, bit in _REPR_FLAGS if shown & bit]
        if shown & ~511:
            names.append(hex(shown & ~511))
        return "re.compile(%s, %s)" % (text, "|".join(names))

    def __eq__(self, other):
        if not isinstance(other, Pattern):
            return NotImplemented
        return self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def _one(self, string, pos, endpos, mode):
        string = _check_subject(string)
        L = _chars(string)
        pos, end = _bounds(L, pos, endpos)
        if end < pos:
            return None
        marks = _find(self, L, pos, end, mode, -1)
        if marks is None:
            return None
        return Match(self, string, L, pos, end, marks)

    def match(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 0)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 1)

    def search(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 2)

    def finditer(self, string, pos=0, endpos=None):
        string = _check_subject(string)
        pos, end = _bounds(_chars(string), pos, endpos)
        for L, marks in _scan(self, string, pos, end):
            yield Match(self, string, L, pos, end, marks)

    def findall(self, string, pos=0, endpos=None):
        string = _check_subject(string)
        out = []
        ng = self.groups
        for L, marks in _scan(self, string, pos, endpos):
            if ng == 0:
                out.append("".join(L[marks[0]:marks[1]]))
            elif ng == 1:
                out.append("".join(L[marks[2]:marks[3]]) if marks[3] >= 0 else "")
            else:
                row = []
                for g in range(1, ng + 1):
                    b = marks[2 * g + 1]
                    row.append("".join(L[marks[2 * g]:b]) if b >= 0 else "")
                out.append(tuple(row))
        return out

    def split(self, string, maxsplit=0):
        string = _check_subject(string)
        if maxsplit < 0:
            return [string]
        out = []
        last = 0
        n = 0
        L = None
        ng = self.groups
        for L, marks in _scan(self, string):
            if maxsplit and n >= maxsplit:
                break
            out.append("".join(L[last:marks[0]]))
            for g in range(1, ng + 1):
                b = marks[2 * g + 1]
                out.append("".join(L[marks[2 * g]:b]) if b >= 0 else None)
            last = marks[1]
            n += 1
        if L is None:
            return [string]
        out.append("".join(L[last:]))
        return out

    def _subx(self, repl, string, count):
        string = _check_subject(string)
        if callable(repl):
            func = repl
            parts = None
        else:
            if not isinstance(repl, str):
                name = type(repl).__name__
                if name in ("bytes", "bytearray"):
                    raise _no_bytes("bytes replacements")
                raise TypeError("decoding to str: need a bytes-like object, %s found" % name)
            func = None
            parts = _template(self, repl)
        out = []
        last = 0
        n = 0
        L = None
        for L, marks in _scan(self, string):
            if count > 0 and n >= count:
                break
            if count < 0:
                break
            if marks[0] > last:
                out.append("".join(L[last:marks[0]]))
            if func is not None:
                piece = func(Match(self, string, L, 0, len(L), marks))
                if piece is not None:
                    if not isinstance(piece, str):
                        raise TypeError("sequence item %d: expected str instance, %s found"
                                        % (len(out), type(piece).__name__))
                    out.append(piece)
            else:
                out.append(_expand(parts, L, marks))
            last = marks[1]
            n += 1
        if n == 0:
            return string, 0
        out.append("".join(L[last:]))
        return "".join(out), n

    def sub(self, repl, string, count=0):
        return self._subx(repl, string, count)[0]

    def subn(self, repl, string, count=0):
        return self._subx(repl, string, count)

    def scanner(self, string, pos=0, endpos=None):
        raise NotImplementedError("re in model scripts: Pattern.scanner is not supported")


_template_cache = {}


def _template(pat, repl):
    # a replacement string as a list of str pieces and group indices
    key = (repl, pat.pattern, pat.flags)
    parts = _template_cache.get(key)
    if parts is not None:
        return parts
    parts = _TemplateReader(pat, repl).read()
    if len(_template_cache) > 500:
        _template_cache.clear()
    _template_cache[key] = parts
    return parts


class _TemplateReader:
    def __init__(self, pat, repl):
        self.pat = pat
        self.src = repl
        self.p = list(repl)
        self.n = len(self.p)
        self.i = 0
        k = self.n
        while k > 0 and self.p[k - 1] == "\\":
            k -= 1
        self.trail = self.n - 1 if (self.n - k) % 2 else -1     # as in _Parser

    def fail(self, msg, pos):
        if self.trail >= 0 and self.i >= self.trail:
            return error("bad escape (end of pattern)", self.src, self.trail)
        return error(msg, self.src, pos)

    def group_ref(self):
        # after \g: <name> or <number>; returns the group index
        p = self.p
        n = self.n
        if self.i >= n or p[self.i] != "<":
            raise self.fail("missing <", self.i)
        self.i += 1
        at = self.i
        while self.i < n and p[self.i] != ">":
            self.i += 2 if p[self.i] == "\\" else 1     # escape-aware, as CPython reads it
        if self.i > n:
            self.i = n
        if self.i >= n:
            raise self.fail("missing group name" if self.i == at else "missing >, unterminated name", at)
        name = self.src[at:self.i]
        self.i += 1
        if not name:
            raise self.fail("missing group name", at)
        digits = True
        for ch in name:
            if ch not in _DIGITS:
                digits = False
        if digits:
            index = int(name)
            if index > self.pat.groups:
                raise self.fail("invalid group reference %d" % index, at)
            return index
        if not _is_group_name(name):
            raise self.fail("bad character in group name %r" % name, at)
        if name not in self.pat._names:
            raise IndexError("unknown group name %r" % (name,))
        return self.pat._names[name]

    def read(self):
        p = self.p
        n = self.n
        parts = []
        lit = []
        while self.i < n:
            c = p[self.i]
            if c != "\\":
                lit.append(c)
                self.i += 1
                continue
            start = self.i
            self.i += 1
            if self.i >= n:
                raise self.fail("bad escape (end of pattern)", start)
            c = p[self.i]
            self.i += 1
            index = -1
            if c == "g":
                index = self.group_ref()
            elif c == "0":
                digits = "0"
                while len(digits) < 3 and self.i < n and p[self.i] in _OCTAL:
                    digits += p[self.i]
                    self.i += 1
                lit.append(chr(int(digits, 8)))
            elif c in _DIGITS:
                if c in _OCTAL and self.i + 1 < n and p[self.i] in _OCTAL and p[self.i + 1] in _OCTAL:
                    digits = c + p[self.i] + p[self.i + 1]
                    self.i += 2
                    v = int(digits, 8)
                    if v > 0o377:
                        raise self.fail("octal escape value \\%s outside of range 0-0o377" % digits, start)
                    lit.append(chr(v))
                else:
                    digits = c
                    if self.i < n and p[self.i] in _DIGITS:
                        digits += p[self.i]
                        self.i += 1
                    index = int(digits)
                    if index > self.pat.groups:
                        raise self.fail("invalid group reference %d" % index, start + 1)
            elif c in _SIMPLE_ESCAPES:
                lit.append(_SIMPLE_ESCAPES[c])
            elif c == "b":
                lit.append("\x08")
            elif c in _LETTERS:
                raise self.fail("bad escape \\" + c, start)
            else:
                lit.append("\\")
                lit.append(c)
            if index >= 0:
                if lit:
                    parts.append("".join(lit))
                    lit = []
                parts.append(index)
        if lit:
            parts.append("".join(lit))
        return parts


def _expand(parts, L, marks):
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        else:
            b = marks[2 * part + 1]
            if part == 0:
                out.append("".join(L[marks[0]:marks[1]]))
            elif b >= 0:
                out.append("".join(L[marks[2 * part]:b]))
    return "".join(out)


class Match:
    def __init__(self, pattern, string, L, pos, endpos, marks):
        self.re = pattern
        self.string = string
        self._L = L
        self.pos = pos
        self.endpos = endpos
        self._marks = marks

    @property
    def lastindex(self):
        last = self._marks[-1]
        return last if last > 0 else None

    @property
    def lastgroup(self):
        last = self._marks[-1]
        return self.re._by_index.get(last) if last > 0 else None

    def _index(self, g):
        if isinstance(g, str):
            index = self.re._names.get(g)
            if index is not None:
                return index
        elif isinstance(g, int) or hasattr(g, "__index__"):
            try:
                index = g.__index__() if not isinstance(g, int) else g
            except Exception:
                index = -1
            if 0 <= index <= self.re.groups:
                return index
        raise IndexError("no such group")

    def _span(self, index):
        m = self._marks
        if index == 0:
            return m[0], m[1]
        b = m[2 * index + 1]
        if b < 0:
            return -1, -1
        return m[2 * index], b

    def _text(self, index, default=None):
        a, b = self._span(index)
        if b < 0:
            return default
        return "".join(self._L[a:b])

    def group(self, *args):
        if not args:
            return self._text(0)
        if len(args) == 1:
            return self._text(self._index(args[0]))
        return tuple([self._text(self._index(g)) for g in args])

    def __getitem__(self, g):
        return self._text(self._index(g))

    def groups(self, default=None):
        return tuple([self._text(g, default) for g in range(1, self.re.groups + 1)])

    def groupdict(self, default=None):
        out = {}
        for name, index in self.re._names.items():
            out[name] = self._text(index, default)
        return out

    def start(self, group=0):
        return self._span(self._index(group))[0]

    def end(self, group=0):
        return self._span(self._index(group))[1]

    def span(self, group=0):
        return self._span(self._index(group))

    @property
    def regs(self):
        return tuple([self._span(g) for g in range(self.re.groups + 1)])

    def expand(self, template):
        if not isinstance(template, str):
            raise TypeError("decoding to str: need a bytes-like object, %s found" % type(template).__name__)
        return _expand(_template(self.re, template), self._L, self._marks)

    def __bool__(self):
        return True

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return "<re.Match object; span=(%d, %d), match=%r>" % (self._marks[0], self._marks[1], self._text(0))


# ---------------------------------------------------------------------------------------------
# module functions

_cache = {}
_CACHE_MAX = 512


def _pattern_for(pattern, flags):
    flags = _as_int(flags)
    if type(pattern) is Pattern:
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    if not isinstance(pattern, str):
        name = type(pattern).__name__
        if name in ("bytes", "bytearray", "memoryview"):
            raise _no_bytes("bytes patterns")
        raise TypeError(_MSG_NOT_PATTERN)
    if not isinstance(flags, int):
        raise TypeError("flags must be an int, not %s" % type(flags).__name__)
    key = (pattern, flags)
    p = _cache.get(key)
    if p is not None:
        return p
    if flags & _F_L:
        raise ValueError(_MSG_LOCALE)
    if flags & _F_DEBUG:
        raise NotImplementedError("re in model scripts: re.DEBUG is not supported")
    p = Pattern(pattern, flags)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[key] = p
    return p


# The module functions: each compiles (or takes from the cache) and calls the Pattern method.

def compile(pattern, flags=NOFLAG):
    return _pattern_for(pattern, flags)


def match(pattern, string, flags=NOFLAG):
    return _pattern_for(pattern, flags).match(string)


def fullmatch(pattern, string, flags=NOFLAG):
    return _pattern_for(pattern, flags).fullmatch(string)


def search(pattern, string, flags=NOFLAG):
    return _pattern_for(pattern, flags).search(string)


def findall(pattern, string, flags=NOFLAG):
    return _pattern_for(pattern, flags).findall(string)


def finditer(pattern, string, flags=NOFLAG):
    return _pattern_for(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=NOFLAG):
    return _pattern_for(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=NOFLAG):
    return _pattern_for(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=NOFLAG):
    return _pattern_for(pattern, flags).split(string, maxsplit)


def purge():
    _cache.clear()
    _template_cache.clear()


def template(pattern, flags=NOFLAG):
    return _pattern_for(pattern, _as_int(flags) | _F_T)


_SPECIAL = set("()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c")


def escape(pattern):
    if not isinstance(pattern, str):
        name = type(pattern).__name__
        if name in ("bytes", "bytearray"):
            raise _no_bytes("bytes arguments")
        raise TypeError("expected str, got %s" % name)
    out = []
    for c in pattern:
        if c in _SPECIAL:
            out.append("\\")
        out.append(c)
    return "".join(out)
