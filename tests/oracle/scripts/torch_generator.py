# torch.Generator objects: their own streams, seeds, state round trips, the default generator, and
# the random ops that take generator=.
import torch

g = torch.Generator()
print(g.manual_seed(42) is g, g.initial_seed(), g.device)
a = torch.randn(3, generator=g)
b = torch.rand(2, 2, generator=g)
print(a, b)
print(torch.randint(0, 10, (5,), generator=g), torch.randperm(6, generator=g))
print(torch.normal(0.0, 1.0, (3,), generator=g), torch.normal(torch.zeros(2), 1.0, generator=g))
state = g.get_state()
first = torch.randn(4, generator=g)
g.set_state(state)
print(torch.equal(first, torch.randn(4, generator=g)), state.dtype, state.shape)
x = torch.empty(4)
print(x.uniform_(-1, 1, generator=g), x.normal_(0, 2, generator=g))
print(torch.bernoulli(torch.full((6,), 0.5), generator=g), torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 4, True, generator=g))
# the default generator is untouched by g
torch.manual_seed(7)
r1 = torch.randn(2)
torch.manual_seed(7)
g2 = torch.Generator().manual_seed(7)
print(torch.equal(r1, torch.randn(2)), torch.equal(r1, torch.randn(2, generator=g2)))
print(torch.manual_seed(3) is torch.default_generator, torch.default_generator.initial_seed())
s = torch.get_rng_state()
u = torch.rand(3)
torch.set_rng_state(s)
print(torch.equal(u, torch.rand(3)))
# a registry op with generator=
print(torch.poisson(torch.tensor([1.0, 4.0, 9.0]), generator=torch.Generator().manual_seed(1)))
try:
    torch.randn(2, generator=5)
except TypeError as e:
    print("TypeError")
