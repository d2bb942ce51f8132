# every lr scheduler of torch.optim.lr_scheduler over ~12 steps
import warnings
import torch
warnings.filterwarnings("ignore")  # 1.13 warns on stderr (step order, epoch argument)
import torch.optim.lr_scheduler
from torch.optim.lr_scheduler import StepLR, MultiStepLR, ExponentialLR
from torch.optim import lr_scheduler


def make_opt(kind='sgd', groups=2):
    w1 = torch.nn.Parameter(torch.ones(2))
    w2 = torch.nn.Parameter(torch.ones(3))
    if groups == 2:
        params = [{'params': [w1]}, {'params': [w2], 'lr': 0.5}]
    else:
        params = [w1, w2]
    if kind == 'sgd':
        return torch.optim.SGD(params, lr=0.1, momentum=0.9)
    return torch.optim.Adam(params, lr=0.1)


def run(name, make_sched, steps=12, kind='sgd', show_momentum=False):
    opt = make_opt(kind)
    sched = make_sched(opt)
    print(name, type(sched).__name__, [g['initial_lr'] for g in opt.param_groups if 'initial_lr' in g])
    for i in range(steps):
        opt.step()
        sched.step()
        line = [i, sched.get_last_lr()]
        if show_momentum:
            line.append([g['momentum'] if 'momentum' in g else g['betas'] for g in opt.param_groups])
        print(*line)
    return opt, sched


run('step', lambda o: StepLR(o, step_size=3, gamma=0.5))
run('multistep', lambda o: MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
run('exp', lambda o: ExponentialLR(o, gamma=0.9))
run('lambda', lambda o: lr_scheduler.LambdaLR(o, lr_lambda=[lambda e: 0.95 ** e, lambda e: 1.0 / (e + 1)]))
run('mult', lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.9))
run('constant', lambda o: lr_scheduler.ConstantLR(o, factor=0.25, total_iters=4))
run('linear', lambda o: lr_scheduler.LinearLR(o, start_factor=0.2, total_iters=6))
run('linear2', lambda o: lr_scheduler.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=7))
run('poly', lambda o: lr_scheduler.PolynomialLR(o, total_iters=8, power=2.0))
run('cos', lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.001), steps=16)
run('warm', lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), steps=14)
run('cyclic', lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3), show_momentum=True)
run('cyclic2', lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=2, step_size_down=3,
                                               mode='triangular2', cycle_momentum=False), steps=14)
run('cyclic3', lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='exp_range',
                                               gamma=0.9))
run('onecycle', lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.2, total_steps=13), show_momentum=True)
run('onecycle_adam', lambda o: lr_scheduler.OneCycleLR(o, max_lr=[0.2, 0.4], epochs=3, steps_per_epoch=4,
                                                       anneal_strategy='linear', three_phase=True),
    kind='adam', show_momentum=True)


def seq(o):
    s1 = lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2)
    s2 = ExponentialLR(o, gamma=0.9)
    return lr_scheduler.SequentialLR(o, schedulers=[s1, s2], milestones=[3])


run('sequential', seq)


def chained(o):
    s1 = lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2)
    s2 = ExponentialLR(o, gamma=0.9)
    return lr_scheduler.ChainedScheduler([s1, s2])


run('chained', chained)

# ReduceLROnPlateau
opt = make_opt()
sched = lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=2, cooldown=1, min_lr=[0.01, 0.1])
for i, metric in enumerate([1.0, 0.9, 0.95, 0.97, 0.99, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3]):
    sched.step(metric)
    print('plateau', i, [g['lr'] for g in opt.param_groups], sched.num_bad_epochs, sched.best, sched.cooldown_counter)
opt = make_opt()
sched = lr_scheduler.ReduceLROnPlateau(opt, mode='max', threshold_mode='abs', threshold=0.1, patience=0, verbose=True)
for i, metric in enumerate([1.0, 1.05, 1.2, 1.25, torch.tensor(1.5)]):
    sched.step(metric)
print(sorted(sched.state_dict().keys()))

# state_dict / verbose / step(epoch) closed forms
opt = make_opt()
sched = StepLR(opt, step_size=2, gamma=0.5, verbose=True)
for i in range(4):
    opt.step()
    sched.step()
sd = sched.state_dict()
print(list(sd.keys()))
print(sd)
print(opt._step_count, sched._step_count, sched.last_epoch)
sched.step(7)
print(sched.get_last_lr())
opt2 = make_opt()
s2 = StepLR(opt2, step_size=2, gamma=0.5)
s2.load_state_dict(sd)
print(s2.last_epoch, s2.get_last_lr(), s2.base_lrs)
ms = MultiStepLR(make_opt(), milestones=[3, 1, 3])
print(ms.milestones, ms.state_dict()['milestones'])
ms.step(5)
print(ms.get_last_lr())
lam = lr_scheduler.LambdaLR(make_opt(), lambda e: 0.5 ** e)
print(lam.state_dict())
print(lr_scheduler.CosineAnnealingLR(make_opt(), T_max=4).state_dict())

for bad in [lambda: lr_scheduler.ConstantLR(make_opt(), factor=2.0),
            lambda: lr_scheduler.LinearLR(make_opt(), start_factor=-1),
            lambda: lr_scheduler.LinearLR(make_opt(), end_factor=1.5),
            lambda: lr_scheduler.LambdaLR(make_opt(), [lambda e: 1.0]),
            lambda: lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=0),
            lambda: lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=2, T_mult=0),
            lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1),
            lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=10, pct_start=1),
            lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=10, anneal_strategy='x'),
            lambda: lr_scheduler.CyclicLR(make_opt(), 0.1, 0.2, mode='bad'),
            lambda: lr_scheduler.ReduceLROnPlateau(make_opt(), factor=1.0),
            lambda: lr_scheduler.ReduceLROnPlateau(make_opt(), mode='avg'),
            lambda: StepLR(make_opt(), 2, last_epoch=3)]:
    try:
        bad()
    except (ValueError, KeyError, TypeError) as e:
        print(type(e).__name__, e)
try:
    StepLR(None, 3)
except TypeError as e:
    print('TypeError', e)
oc = lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=2)
oc.step()
oc.step()
try:
    oc.step()
except ValueError as e:
    print('ValueError', e)
print(torch.optim.lr_scheduler.StepLR is StepLR, lr_scheduler._LRScheduler.__name__)
