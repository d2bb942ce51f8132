# covers: CosineEmbeddingLoss, MarginRankingLoss, HingeEmbeddingLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, MultiLabelMarginLoss and their F functions; grad_fn names and exact values of the ATen kernels 1.13 calls
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
x1 = torch.randn(4, 5, requires_grad=True)
x2 = torch.randn(4, 5)
x3 = torch.randn(4, 5)
y = torch.tensor([1.0, -1.0, 1.0, -1.0])


def show(name, fn):
    x1.grad = None
    out = fn()
    if out.dim() == 0:
        out.backward()
        print(name, out.item(), x1.grad.flatten().tolist()[:6])
    else:
        print(name, out.flatten().tolist()[:8])


for red in ['mean', 'sum', 'none']:
    show('cos', lambda: nn.CosineEmbeddingLoss(margin=0.2, reduction=red)(x1, x2, y))
    show('rank', lambda: nn.MarginRankingLoss(margin=0.1, reduction=red)(x1[:, 0], x2[:, 0], y))
    show('hinge', lambda: nn.HingeEmbeddingLoss(margin=1.5, reduction=red)(x1, torch.sign(x2)))
    show('triplet', lambda: nn.TripletMarginLoss(margin=1.0, p=2, reduction=red)(x1, x2, x3))
    show('soft', lambda: nn.SoftMarginLoss(reduction=red)(x1, torch.sign(x2)))
    show('mlsoft', lambda: nn.MultiLabelSoftMarginLoss(reduction=red)(x1, (x2 > 0).float()))
    show('multi', lambda: nn.MultiMarginLoss(reduction=red)(x1, torch.tensor([0, 4, 2, 1])))
    show('mlmargin', lambda: nn.MultiLabelMarginLoss(reduction=red)(x1, torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 0], [4, -1, 2, 0, 0]])))
print(nn.CosineEmbeddingLoss(), nn.MarginRankingLoss(0.5), nn.HingeEmbeddingLoss(), nn.TripletMarginLoss(swap=True))
print(nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss(), nn.MultiMarginLoss(p=2), nn.MultiLabelMarginLoss())
print(nn.TripletMarginWithDistanceLoss(), nn.TripletMarginLoss().margin, nn.MarginRankingLoss(0.5).margin)
show('triplet_swap', lambda: nn.TripletMarginLoss(margin=2.0, p=1, swap=True)(x1, x2, x3))
show('tripletF', lambda: F.triplet_margin_loss(x1, x2, x3, margin=0.5, eps=1e-3))
show('twd', lambda: nn.TripletMarginWithDistanceLoss()(x1, x2, x3))
show('twd_cos', lambda: nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: 1.0 - F.cosine_similarity(a, b), margin=0.5, swap=True)(x1, x2, x3))
show('twdF', lambda: F.triplet_margin_with_distance_loss(x1, x2, x3, reduction='sum'))
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
show('multi_w', lambda: nn.MultiMarginLoss(p=2, margin=0.5, weight=w)(x1, torch.tensor([0, 4, 2, 1])))
print(list(nn.MultiMarginLoss(weight=w).state_dict().keys()))
show('mlsoft_w', lambda: nn.MultiLabelSoftMarginLoss(weight=w)(x1, (x2 > 0).float()))
show('multi_1d', lambda: F.multi_margin_loss(x1[0], torch.tensor([2])))
show('mlm_1d', lambda: F.multilabel_margin_loss(x1[0], torch.tensor([1, 3, -1, 0, 0])))
show('mlm_1d_none', lambda: F.multilabel_margin_loss(x1[0], torch.tensor([1, 3, -1, 0, 0]), reduction='none'))
show('rankF', lambda: F.margin_ranking_loss(x1[:, 1], x2[:, 1], y))
show('cosF', lambda: F.cosine_embedding_loss(x1, x2, y, reduction='sum'))
show('hingeF', lambda: F.hinge_embedding_loss(x1, torch.sign(x2)))
show('softF', lambda: F.soft_margin_loss(x1, torch.sign(x2)))
show('mlsoftF', lambda: F.multilabel_soft_margin_loss(x1, (x2 > 0).float(), reduction='sum'))
try:
    nn.MultiMarginLoss(p=3)
except ValueError as e:
    print('ValueError', e)
try:
    F.margin_ranking_loss(x1, x2[:, 0], y)
except RuntimeError as e:
    print('RuntimeError', e)
try:
    F.triplet_margin_with_distance_loss(x1, x2, x3, 1.0)
except TypeError:
    print('TypeError')

# grad_fn names and exact values of the ATen kernels 1.13 calls
xi = torch.randn(4, 5, requires_grad=True)
yi = torch.tensor([1, 0, 4, 2])
ml = torch.tensor([[3, 0, -1, 1, 2], [1, -1, 2, 2, 2], [0, 1, 2, 3, 4], [4, 4, -1, 0, 0]])
sm = torch.tensor([[1.0, -1.0, 1.0, 1.0, -1.0]] * 4)
wt = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.1])
for name, fn in [('soft', lambda red: F.soft_margin_loss(xi, sm, reduction=red)),
                 ('mlmargin', lambda red: F.multilabel_margin_loss(xi, ml, reduction=red)),
                 ('multi', lambda red: F.multi_margin_loss(xi, yi, reduction=red)),
                 ('multi_p2w', lambda red: F.multi_margin_loss(xi, yi, p=2, margin=0.7, weight=wt, reduction=red))]:
    for red in ['mean', 'sum', 'none']:
        out = fn(red)
        print(name, red, type(out.grad_fn).__name__, out.reshape(-1).tolist())
    print(torch.autograd.grad(fn('sum'), xi)[0].reshape(-1)[:10].tolist())
print(F.multilabel_margin_loss(xi[0], ml[0], reduction='none'), F.multi_margin_loss(xi[1], yi[1:2], reduction='none'))
for bad in [lambda: F.multi_margin_loss(xi, yi, p=3), lambda: F.multi_margin_loss(xi, yi, weight=wt.reshape(1, 5))]:
    try:
        bad()
    except ValueError as e:
        print('ValueError', e)
