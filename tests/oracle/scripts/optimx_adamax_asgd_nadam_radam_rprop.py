# Adamax / ASGD / NAdam / RAdam / Rprop (1.13 single-tensor path)
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(make_opt, steps=8, maximize=False):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    x = torch.randn(10, 3)
    y = torch.randn(10, 2)
    opt = make_opt(model.parameters())
    for i in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        if maximize:
            loss = -loss
        loss.backward()
        opt.step()
    print(type(opt).__name__, loss.item())
    for name, p in model.named_parameters():
        print(name, p.flatten().tolist(), p.sum().item())
    sd = opt.state_dict()
    print(sd['param_groups'])
    st = sd['state'][3]
    print({k: (v if not isinstance(v, torch.Tensor) or v.dim() == 0 else v.tolist()) for k, v in st.items()})
    return opt


train(lambda p: torch.optim.Adamax(p))
train(lambda p: torch.optim.Adamax(p, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1))
train(lambda p: torch.optim.Adamax(p, lr=0.05, maximize=True), maximize=True)
train(lambda p: torch.optim.ASGD(p))
train(lambda p: torch.optim.ASGD(p, lr=0.05, lambd=0.01, alpha=0.5, t0=3, weight_decay=0.01))
train(lambda p: torch.optim.ASGD(p, lr=0.05, t0=2, maximize=True), maximize=True)
train(lambda p: torch.optim.NAdam(p))
train(lambda p: torch.optim.NAdam(p, lr=0.03, betas=(0.85, 0.99), weight_decay=0.05, momentum_decay=0.01))
train(lambda p: torch.optim.RAdam(p), steps=9)
train(lambda p: torch.optim.RAdam(p, lr=0.01, betas=(0.5, 0.9), weight_decay=0.1), steps=9)
train(lambda p: torch.optim.Rprop(p))
train(lambda p: torch.optim.Rprop(p, lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.06)))
opt = train(lambda p: torch.optim.Rprop(p, maximize=True), maximize=True)
print(opt)

w = torch.nn.Parameter(torch.ones(2))
for bad in [lambda: torch.optim.Adamax([w], lr=-1), lambda: torch.optim.Adamax([w], eps=-1),
            lambda: torch.optim.Adamax([w], betas=(1.0, 0.9)), lambda: torch.optim.Adamax([w], betas=(0.9, -0.1)),
            lambda: torch.optim.Adamax([w], weight_decay=-1), lambda: torch.optim.ASGD([w], lr=-1),
            lambda: torch.optim.ASGD([w], weight_decay=-1), lambda: torch.optim.NAdam([w], momentum_decay=-1),
            lambda: torch.optim.NAdam([w], betas=(0.9, 1.0)), lambda: torch.optim.RAdam([w], eps=-1),
            lambda: torch.optim.Rprop([w], lr=-1), lambda: torch.optim.Rprop([w], etas=(1.1, 1.2)),
            lambda: torch.optim.Rprop([w], etas=(0.5, 0.9))]:
    try:
        bad()
    except ValueError as e:
        print('ValueError:', e)
