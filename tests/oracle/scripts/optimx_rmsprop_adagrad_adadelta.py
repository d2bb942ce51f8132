# RMSprop / Adagrad / Adadelta (1.13 single-tensor path) on a tiny regression
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(make_opt, steps=6, maximize=False):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 1))
    x = torch.randn(8, 4)
    y = torch.randn(8, 1)
    opt = make_opt(model.parameters())
    for i in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        if maximize:
            loss = -loss
        loss.backward()
        opt.step()
        print(i, loss.item())
    for name, p in model.named_parameters():
        print(name, p.flatten().tolist())
        print(name, p.sum().item())
    print(model[0].weight)
    sd = opt.state_dict()
    print(sd['param_groups'])
    print(sorted(sd['state'].keys()), list(sd['state'][0].keys()))
    print({k: (v if not isinstance(v, torch.Tensor) or v.dim() == 0 else v.shape) for k, v in sd['state'][1].items()})
    return opt


train(lambda p: torch.optim.RMSprop(p))
train(lambda p: torch.optim.RMSprop(p, lr=0.05, alpha=0.9, momentum=0.8, weight_decay=0.01))
train(lambda p: torch.optim.RMSprop(p, lr=0.02, centered=True, momentum=0.5))
train(lambda p: torch.optim.RMSprop(p, lr=0.02, centered=True, maximize=True), maximize=True)
train(lambda p: torch.optim.Adagrad(p))
train(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5))
train(lambda p: torch.optim.Adagrad(p, lr=0.1, maximize=True), maximize=True)
train(lambda p: torch.optim.Adadelta(p))
train(lambda p: torch.optim.Adadelta(p, lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.05))
opt = train(lambda p: torch.optim.Adadelta(p, maximize=True), maximize=True)
print(opt)

# state_dict round trip continues identically
torch.manual_seed(1)
w = torch.nn.Parameter(torch.randn(5))
opt = torch.optim.RMSprop([w], lr=0.1, momentum=0.9)
for i in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
sd = opt.state_dict()
w2 = torch.nn.Parameter(w.detach().clone())
opt2 = torch.optim.RMSprop([w2], lr=0.5)
opt2.load_state_dict(sd)
for o, p in [(opt, w), (opt2, w2)]:
    for i in range(3):
        o.zero_grad()
        (p ** 2).sum().backward()
        o.step()
    print(p.tolist(), o.param_groups[0]['lr'], o.state[p]['step'])

for bad in [lambda: torch.optim.RMSprop([w], lr=-1), lambda: torch.optim.RMSprop([w], eps=-1),
            lambda: torch.optim.RMSprop([w], momentum=-1), lambda: torch.optim.RMSprop([w], weight_decay=-1),
            lambda: torch.optim.RMSprop([w], alpha=-1), lambda: torch.optim.Adagrad([w], lr=-1),
            lambda: torch.optim.Adagrad([w], lr_decay=-1), lambda: torch.optim.Adagrad([w], weight_decay=-1),
            lambda: torch.optim.Adagrad([w], initial_accumulator_value=-1), lambda: torch.optim.Adagrad([w], eps=-1),
            lambda: torch.optim.Adadelta([w], lr=-1), lambda: torch.optim.Adadelta([w], rho=1.5),
            lambda: torch.optim.Adadelta([w], eps=-1), lambda: torch.optim.Adadelta([w], weight_decay=-1)]:
    try:
        bad()
    except ValueError as e:
        print('ValueError:', e)
