# covers: CosineEmbeddingLoss, MarginRankingLoss, HingeEmbeddingLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, MultiLabelMarginLoss and their F functions
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
        print(name, round(out.item(), 4), [round(v, 4) for v in x1.grad.flatten().tolist()[:6]])
    else:
        print(name, [round(v, 4) for v in out.flatten().tolist()[:8]])


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
