# covers (extras beyond the required list): MaxPool2d, adaptive pooling, BatchNorm1d, nll/l1/smooth_l1/BCE losses, relu6/elu/softplus/hardtanh/cosine_similarity, OrderedDict state_dict type
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
y = torch.randn(2, 4, 6, 6)
print(nn.MaxPool2d(2), nn.MaxPool2d(2)(y).shape, F.avg_pool2d(y, 2)[0, 0], F.adaptive_avg_pool2d(y, 1).flatten(1).shape)
bn = nn.BatchNorm1d(4)
print(bn, bn(torch.randn(5, 4)).shape, bn.running_mean)
logits = torch.randn(4, 5)
target = torch.tensor([1, 0, 4, 2])
pred, true = torch.randn(3, 2), torch.randn(3, 2)
print(F.nll_loss(F.log_softmax(logits, -1), target), F.l1_loss(pred, true), F.smooth_l1_loss(pred, true))
print(F.binary_cross_entropy_with_logits(pred, (true > 0).float()), F.binary_cross_entropy(torch.sigmoid(pred), (true > 0).float()))
x = torch.randn(2, 4)
print(F.relu6(x * 10), F.elu(x), F.softplus(x, beta=2), F.hardtanh(x), F.cosine_similarity(x[0:1], x[1:2]))
print(type(nn.Linear(2, 2).state_dict()).__name__)
