# state_dict() / load_state_dict() of every new optimizer: resumed training is identical
import torch


def loss_fn(w, b):
    return ((w * torch.arange(1.0, 5.0)).sum() - 3.0) ** 2 + (b ** 2).sum() + (w ** 4).sum() * 0.1


makers = [
    ('Adadelta', lambda ps: torch.optim.Adadelta(ps, lr=0.7)),
    ('Adagrad', lambda ps: torch.optim.Adagrad(ps, lr=0.2, lr_decay=0.05)),
    ('Adamax', lambda ps: torch.optim.Adamax(ps, lr=0.05)),
    ('ASGD', lambda ps: torch.optim.ASGD(ps, lr=0.01, t0=2)),
    ('NAdam', lambda ps: torch.optim.NAdam(ps, lr=0.05)),
    ('RAdam', lambda ps: torch.optim.RAdam(ps, lr=0.05)),
    ('RMSprop', lambda ps: torch.optim.RMSprop(ps, lr=0.01, momentum=0.9, centered=True)),
    ('Rprop', lambda ps: torch.optim.Rprop(ps, lr=0.02)),
]


def run(opt, w, b, n):
    for _ in range(n):
        opt.zero_grad()
        loss_fn(w, b).backward()
        opt.step()


for name, make in makers:
    torch.manual_seed(5)
    w = torch.nn.Parameter(torch.randn(4))
    b = torch.nn.Parameter(torch.randn(2))
    opt = make([w, b])
    run(opt, w, b, 4)
    sd = opt.state_dict()
    print(name, list(sd.keys()), sd['param_groups'])
    for k in sorted(sd['state'].keys()):
        print(' ', k, {kk: (vv.tolist() if isinstance(vv, torch.Tensor) else vv) for kk, vv in sd['state'][k].items()})
    w2 = torch.nn.Parameter(w.detach().clone())
    b2 = torch.nn.Parameter(b.detach().clone())
    opt2 = make([w2, b2])
    opt2.load_state_dict(sd)
    run(opt, w, b, 3)
    run(opt2, w2, b2, 3)
    print(' ', w.tolist(), b.tolist())
    print(' ', w2.tolist(), b2.tolist(), torch.equal(w, w2) and torch.equal(b, b2))
    print(opt2)
