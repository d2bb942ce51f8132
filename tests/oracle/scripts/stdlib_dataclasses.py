# dataclasses as model code uses them: a GPT-style config, frozen, ordered, inherited, kw_only,
# default factories, __post_init__, asdict/astuple/replace/fields, and CPython's error messages.
from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass, FrozenInstanceError
import dataclasses
from typing import ClassVar, List, Optional
import torch
import torch.nn as nn


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = True


cfg = GPTConfig(n_layer=2, n_head=2, n_embd=16)
print(cfg)
print(cfg == GPTConfig(n_layer=2, n_head=2, n_embd=16), cfg == GPTConfig())
print(asdict(cfg))
print(astuple(cfg))
print([f.name for f in fields(cfg)], is_dataclass(cfg), is_dataclass(GPTConfig), is_dataclass(3))
print(replace(cfg, dropout=0.1))
print(GPTConfig.block_size, GPTConfig.__match_args__[:3])


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0
    tags: tuple = field(default_factory=tuple)
    count: ClassVar[int] = 0

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


p = Point(3.0, 4.0)
print(p, p.norm(), Point.count, hash(p) == hash(Point(3.0, 4.0)))
try:
    p.x = 1
except FrozenInstanceError as e:
    print(type(e).__name__, e)
try:
    Point()
except TypeError as e:
    print(e)
try:
    Point(1, 2, (), 4)
except TypeError as e:
    print(e)
try:
    Point(1, z=2)
except TypeError as e:
    print(e)


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    note: str = field(default="", compare=False, repr=False)


print(sorted([Version(1, 2), Version(0, 9), Version(1, 0, "x")]))
print(Version(1) < Version(1, 1), Version(2) >= Version(1, 5))


@dataclass
class Base:
    a: int
    b: int = 2


@dataclass
class Child(Base):
    c: int = 3

    def __post_init__(self):
        self.total = self.a + self.b + self.c


ch = Child(1, c=10)
print(ch, ch.total, [f.name for f in fields(Child)])


@dataclass(kw_only=True)
class Opts:
    lr: float = 1e-3
    steps: int


print(Opts(steps=3))
try:
    Opts(0.1, 3)
except TypeError as e:
    print(e)
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print(e)
try:
    @dataclass
    class Bad2:
        a: list = []
except ValueError as e:
    print(e)


@dataclass
class Nested:
    cfg: GPTConfig
    sizes: List[int] = field(default_factory=lambda: [1, 2])
    extra: Optional[dict] = None


n = Nested(GPTConfig(n_layer=1))
print(asdict(n)["cfg"]["n_layer"], n.sizes, n)


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)

    def forward(self, x):
        return self.proj(torch.relu(self.fc(x)))


torch.manual_seed(0)
m = MLP(cfg)
f = torch.compile(m)
x = torch.randn(2, cfg.n_embd)
with torch.no_grad():
    print(f(x).shape, torch.allclose(f(x), m(x), atol=1e-6))
print(dataclasses.MISSING is dataclasses.MISSING, hash(Version(1)) if False else 'v')
try:
    hash(cfg)
except TypeError as e:
    print(e)
