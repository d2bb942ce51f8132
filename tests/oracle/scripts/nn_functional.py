# covers: torch.nn.functional: relu, gelu (both forms), silu, softmax, log_softmax, linear, layer_norm, dropout, embedding, leaky_relu; pad, normalize, one_hot last
import torch
import torch.nn.functional as F

torch.manual_seed(39)
x = torch.randn(2, 4)
print(F.relu(x), F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x))
print(F.softmax(x, dim=-1), F.log_softmax(x, dim=-1))
print(F.softmax(x, dim=0).sum(0), F.log_softmax(x, dim=1).exp().sum(1))
w = torch.randn(3, 4)
b = torch.randn(3)
print(F.linear(x, w), F.linear(x, w, b))
print(F.layer_norm(x, (4,)), F.layer_norm(x, [4], weight=torch.full((4,), 2.0), bias=torch.ones(4), eps=1e-3))
print(F.dropout(x, 0.5, training=False), F.dropout(x, p=0.5).shape)
table = torch.arange(12.0).view(4, 3)
print(F.embedding(torch.tensor([3, 0]), table))
print(F.gelu(torch.tensor([-10.0, -1.0, 0.0, 1.0, 10.0])), F.silu(torch.tensor([-10.0, 10.0])))
print(F.leaky_relu(x, negative_slope=0.2), torch.tanh(x))
print(F.pad(x, (1, 2)), F.pad(x, (0, 0, 1, 0), value=-1.0).shape)
print(F.normalize(x, dim=-1), F.normalize(x, dim=-1).norm(dim=-1))
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4), F.one_hot(torch.tensor([1, 0])))
