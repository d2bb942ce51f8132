# step(closure) return values, verbose scheduler printing, closed forms via step(epoch)
import warnings
import torch
from torch.optim import lr_scheduler
warnings.filterwarnings("ignore")  # 1.13 warns on stderr about step(epoch)

torch.manual_seed(8)
w = torch.nn.Parameter(torch.randn(3))
target = torch.tensor([1.0, -2.0, 0.5])
for cls in [torch.optim.Adadelta, torch.optim.Adagrad, torch.optim.Adamax, torch.optim.ASGD,
            torch.optim.NAdam, torch.optim.RAdam, torch.optim.RMSprop, torch.optim.Rprop]:
    p = torch.nn.Parameter(w.detach().clone())
    opt = cls([p])

    def closure():
        opt.zero_grad()
        loss = ((p - target) ** 2).sum()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(4)]
    print(cls.__name__, losses, p.tolist())

opt = torch.optim.SGD([w], lr=0.2)
for make in [lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4, verbose=True),
             lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3, verbose=True),
             lambda o: lr_scheduler.PolynomialLR(o, total_iters=5, power=0.5, verbose=True),
             lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8, verbose=True),
             lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.01, verbose=True),
             lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 3], verbose=True),
             lambda o: lr_scheduler.LambdaLR(o, lambda e: 1.0 / (1 + e), verbose=True)]:
    for g in opt.param_groups:
        g['lr'] = 0.2
        g.pop('initial_lr', None)
    s = make(opt)
    for e in [1, 2, 5, 3.5, 7]:
        opt.step()
        s.step(e)
    print(type(s).__name__, s.get_last_lr(), s.last_epoch)
    opt.step()
    s.step()
    print(type(s).__name__, s.get_last_lr(), s.last_epoch)
