# covers: F.affine_grid (2d/3d, align_corners), F.grid_sample (bilinear/nearest/bicubic x zeros/border/reflection, 5d), F.ctc_loss / nn.CTCLoss (padded and concatenated targets, reductions, zero_infinity, unbatched), grad_fn names, errors
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
theta = torch.tensor([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.05]],
                      [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
g = F.affine_grid(theta, [2, 3, 4, 5], align_corners=False)
print(g.shape, type(g.grad_fn).__name__)
print(g[0, 1])
print(F.affine_grid(theta, (2, 3, 3, 3), align_corners=True)[0, 2])
img = torch.randn(2, 3, 6, 7, requires_grad=True)
for mode in ['bilinear', 'nearest', 'bicubic']:
    for pad in ['zeros', 'border', 'reflection']:
        for ac in [False, True]:
            o = F.grid_sample(img, g * 1.3, mode=mode, padding_mode=pad, align_corners=ac)
            print(mode, pad, ac, type(o.grad_fn).__name__, [round(v, 4) for v in o[1, 2, 1].tolist()])
o = F.grid_sample(img, g, align_corners=False)
o.pow(2).sum().backward()
print(img.grad[0, 0])
print(theta.grad)
theta3 = torch.tensor([[[1.0, 0.1, 0.0, 0.2], [0.0, 0.9, 0.1, 0.0], [0.05, 0.0, 1.2, -0.1]]])
g3 = F.affine_grid(theta3, [1, 2, 3, 4, 5], align_corners=False)
print(g3.shape, g3[0, 1, 2])
vol = torch.arange(120.0).reshape(1, 2, 3, 4, 5)
print(F.grid_sample(vol, g3, mode='bilinear', padding_mode='border', align_corners=False)[0, 1, 1])
print(F.grid_sample(vol, g3, mode='nearest', padding_mode='zeros', align_corners=True)[0, 0, 2])
for bad in [lambda: F.grid_sample(img, g, mode='area', align_corners=False),
            lambda: F.grid_sample(img, g, padding_mode='wrap', align_corners=False),
            lambda: F.affine_grid(theta, [2, 3, 4], align_corners=False),
            lambda: F.affine_grid(theta3, [1, 3, 4, 4], align_corners=False),
            lambda: F.affine_grid(theta, [2, 3, 0, 4], align_corners=False),
            lambda: F.affine_grid(torch.zeros(1, 2, 3, dtype=torch.long), [1, 1, 2, 2], align_corners=False)]:
    try:
        bad()
    except (ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)

# CTC
T, N, C, S = 12, 3, 6, 5
lp = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
il = torch.tensor([12, 10, 9])
tl = torch.tensor([5, 3, 4])
for red in ['mean', 'sum', 'none']:
    loss = F.ctc_loss(lp, targets, il, tl, reduction=red)
    print(red, type(loss.grad_fn).__name__, loss.detach())
loss = F.ctc_loss(lp, targets, il, tl)
loss.backward()
print([round(v, 4) for v in lp.grad[3, 1].tolist()])
flat = torch.cat([targets[0, :5], targets[1, :3], targets[2, :4]])
print(torch.equal(F.ctc_loss(lp, flat, il, tl), F.ctc_loss(lp, targets, il, tl)))
crit = nn.CTCLoss(blank=0, reduction='sum', zero_infinity=True)
print(crit, crit.blank, crit.reduction, crit.zero_infinity)
print(crit(lp, targets, tuple(il.tolist()), tuple(tl.tolist())))
short = torch.tensor([2, 2, 2])
print(F.ctc_loss(lp, targets, short, tl, reduction='none'))
print(F.ctc_loss(lp, targets, short, tl, reduction='none', zero_infinity=True))
lp5 = torch.randn(T, N, C).log_softmax(2)
print(nn.CTCLoss(blank=5)(lp5, torch.randint(0, 5, (N, S)), il, tl))
print(F.ctc_loss(lp5[:, 0], targets[0], torch.tensor(12), torch.tensor(5)))
