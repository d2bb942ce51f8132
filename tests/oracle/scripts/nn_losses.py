# covers: F.cross_entropy (reduction modes, label_smoothing, ignore_index, class-prob targets), F.mse_loss (reductions), nn.CrossEntropyLoss/MSELoss modules, gradient of cross_entropy
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(40)
logits = torch.randn(4, 5)
target = torch.tensor([1, 0, 4, 2])
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, reduction="none"), F.cross_entropy(logits, target, reduction="sum"))
print(F.cross_entropy(logits, target, label_smoothing=0.1), F.cross_entropy(logits, torch.tensor([1, -100, 4, 2])))
print(F.cross_entropy(logits, target, ignore_index=0))
probs = torch.softmax(torch.randn(4, 5), dim=-1)
print(F.cross_entropy(logits, probs))
manual = -F.log_softmax(logits, dim=-1)[torch.arange(4), target].mean()
print(torch.allclose(manual, F.cross_entropy(logits, target)), manual)
seq_logits = torch.randn(2, 3, 5)
seq_target = torch.randint(0, 5, (2, 3))
print(F.cross_entropy(seq_logits.view(-1, 5), seq_target.view(-1)), F.cross_entropy(seq_logits.transpose(1, 2), seq_target))
pred = torch.randn(3, 2)
true = torch.randn(3, 2)
print(F.mse_loss(pred, true), F.mse_loss(pred, true, reduction="sum"), F.mse_loss(pred, true, reduction="none"))
print(torch.allclose(F.mse_loss(pred, true), ((pred - true) ** 2).mean()), F.mse_loss(pred, pred))
print(nn.CrossEntropyLoss()(logits, target), nn.MSELoss()(pred, true), nn.CrossEntropyLoss(reduction="sum"))
l = logits.clone().requires_grad_()
loss = F.cross_entropy(l, target)
loss.backward()
print(loss, l.grad, bool(l.grad.sum(-1).abs().max() < 1e-6))
