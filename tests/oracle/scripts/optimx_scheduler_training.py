# schedulers driving real training: OneCycleLR (Adam betas), CyclicLR (SGD momentum),
# CosineAnnealingWarmRestarts with fractional epochs, resume with last_epoch
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler
warnings.filterwarnings("ignore")  # 1.13 warns on stderr about step(epoch)

torch.manual_seed(4)
x = torch.randn(32, 5)
y = (x.sum(1, keepdim=True) > 0).float()


def fit(opt_fn, sched_fn, epochs=3, per_batch=True, metric=False):
    torch.manual_seed(9)
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = opt_fn(model.parameters())
    sched = sched_fn(opt)
    for epoch in range(epochs):
        for i in range(0, 32, 8):
            opt.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(x[i:i + 8]), y[i:i + 8])
            loss.backward()
            opt.step()
            if per_batch:
                sched.step()
        if metric:
            sched.step(loss.item())
        elif not per_batch:
            sched.step()
        print(epoch, loss.item(), opt.param_groups[0]['lr'])
    print([p.sum().item() for p in model.parameters()])


fit(lambda p: torch.optim.Adam(p, lr=0.01),
    lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.05, epochs=3, steps_per_epoch=4))
fit(lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9),
    lambda o: lr_scheduler.CyclicLR(o, base_lr=0.001, max_lr=0.1, step_size_up=3, mode='triangular2'))
fit(lambda p: torch.optim.RMSprop(p, lr=0.01),
    lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4), per_batch=False, epochs=6)
fit(lambda p: torch.optim.Adagrad(p, lr=0.1),
    lambda o: lr_scheduler.ReduceLROnPlateau(o, patience=0, factor=0.5), metric=True, per_batch=False, epochs=5)
fit(lambda p: torch.optim.NAdam(p, lr=0.01),
    lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.LinearLR(o, 0.1, total_iters=3),
                                            lr_scheduler.ExponentialLR(o, 0.9)], milestones=[4]))

# CosineAnnealingWarmRestarts with fractional epochs (as in its docs)
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 4
for epoch in range(5):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
    print('warm', epoch, sched.get_last_lr(), sched.T_i, sched.T_cur, sched.last_epoch)
sched.step(11)
print('warm', sched.get_last_lr(), sched.T_i, sched.T_cur)

# resume with last_epoch (needs initial_lr in the param groups)
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.5)
for _ in range(3):
    opt.step()
    s.step()
sd = s.state_dict()
print(sd)
s2 = lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.5, last_epoch=2)
s2.load_state_dict(sd)
for _ in range(3):
    opt.step()
    s2.step()
    print(s2.get_last_lr(), s2.last_epoch)
seq = lr_scheduler.ChainedScheduler([lr_scheduler.StepLR(opt, 2), lr_scheduler.ExponentialLR(opt, 0.5)])
seq.step()
print(seq.get_last_lr(), seq.state_dict()['_schedulers'][1])
