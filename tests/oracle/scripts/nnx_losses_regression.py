# covers: L1Loss, SmoothL1Loss, HuberLoss, KLDivLoss, PoissonNLLLoss, GaussianNLLLoss modules and F.l1_loss/smooth_l1_loss/huber_loss/kl_div/poisson_nll_loss/gaussian_nll_loss (reductions, backward, legacy size_average/reduce); grad_fn names and exact values of the ATen kernels 1.13 calls
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)


def show(name, crit, *args):
    a.grad = None
    out = crit(*args)
    if out.dim() == 0:
        out.backward()
        print(name, out.item(), a.grad.flatten().tolist()[:6])
    else:
        print(name, out.flatten().tolist()[:6])


for red in ['mean', 'sum', 'none']:
    show('l1', nn.L1Loss(reduction=red), a, b)
    show('smoothl1', nn.SmoothL1Loss(reduction=red, beta=0.5), a, b)
    show('huber', nn.HuberLoss(reduction=red, delta=0.7), a, b)
print(nn.L1Loss(), nn.SmoothL1Loss(beta=2.0), nn.HuberLoss(delta=3.0), nn.KLDivLoss(reduction='batchmean'))
print(nn.SmoothL1Loss(beta=2.0).beta, nn.HuberLoss(delta=3.0).delta, nn.L1Loss(reduction='sum').reduction)
show('huberF', lambda x, y: F.huber_loss(x, y), a, b)
show('huber_default', nn.HuberLoss(), a * 3, b)
lp = F.log_softmax(a, dim=1)
tp = F.softmax(b, dim=1)
for red in ['batchmean', 'sum', 'none']:
    show('kl_' + red, lambda x, y: nn.KLDivLoss(reduction=red)(F.log_softmax(x, dim=1), y), a, tp)
show('kl_logtarget', lambda x, y: nn.KLDivLoss(reduction='batchmean', log_target=True)(F.log_softmax(x, 1), y), a, F.log_softmax(b, 1))
show('kl_F', lambda x, y: F.kl_div(F.log_softmax(x, 1), y, reduction='sum'), a, tp)
counts = torch.tensor([[0.0, 1.0, 2.0, 3.0], [1.0, 1.0, 0.0, 5.0], [2.0, 0.0, 1.0, 1.0]])
pn = nn.PoissonNLLLoss()
print(pn, pn.log_input, pn.full, pn.eps)
show('poisson', pn, a, counts)
show('poisson_full', nn.PoissonNLLLoss(full=True, reduction='sum'), a, counts)
show('poisson_nolog', nn.PoissonNLLLoss(log_input=False), a.abs() + 0.1, counts)
show('poissonF', lambda x, y: F.poisson_nll_loss(x, y, reduction='none'), a, counts)
g = nn.GaussianNLLLoss()
print(g, g.full, g.eps)
var = torch.rand(3, 4) + 0.5
show('gauss', g, a, b, var)
show('gauss_full', nn.GaussianNLLLoss(full=True, reduction='sum'), a, b, var)
show('gauss_homo', nn.GaussianNLLLoss(reduction='none'), a, b, torch.ones(3, 1))
show('gauss_F', lambda x, y, v: F.gaussian_nll_loss(x, y, v, eps=0.1), a, b, torch.ones(3))
try:
    F.gaussian_nll_loss(a, b, torch.ones(2, 2))
except ValueError as e:
    print('ValueError', e)
try:
    F.poisson_nll_loss(a, counts, reduction='bad')
except ValueError as e:
    print('ValueError', e)
try:
    nn.L1Loss(reduction='avg')(a, b)
except ValueError as e:
    print('ValueError', e)
try:
    F.huber_loss(a, b, reduction='bad')
except ValueError as e:
    print('ValueError', e)

# grad_fn names and exact values of the ATen kernel 1.13 calls
hi = torch.randn(3, 4, requires_grad=True)
ht = torch.randn(3, 4) * 2
for red in ['mean', 'sum', 'none']:
    for delta in [1.0, 0.3, 2.5]:
        out = F.huber_loss(hi, ht, reduction=red, delta=delta)
        print('huber', red, delta, type(out.grad_fn).__name__, out.reshape(-1)[:6].tolist())
print(torch.autograd.grad(F.huber_loss(hi, ht, delta=0.5), hi)[0].reshape(-1).tolist())
print(nn.HuberLoss(delta=0.7)(hi, ht).item(), F.huber_loss(hi, ht[0].expand(3, 4)).item())
