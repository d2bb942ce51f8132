# torch.linalg / torch.fft / torch.special from the registry, torch.backends settings, torch.cuda seeding
# without CUDA, nn.init.orthogonal_ / dirac_ / sparse_, tensor.new, nn.DataParallel on the CPU,
# print(flush=True): what pytorch/examples and minGPT-style code touch.
import torch
import torch.nn as nn
import torch.nn.init as init
import torch.nn.parallel
import torch.backends.cudnn as cudnn
cudnn.benchmark = True
print(cudnn.benchmark, torch.backends.cudnn.is_available(), torch.backends.mps.is_available())
torch.backends.cuda.matmul.allow_tf32 = True
torch.cuda.manual_seed_all(0)
torch.cuda.manual_seed(1)
torch.manual_seed(0)
w = torch.empty(4, 2, 3, 3)
init.orthogonal_(w, init.calculate_gain('relu'))
print(w.sum(), w[0, 0])
w2 = torch.empty(3, 5)
print(init.orthogonal_(w2))
print(init.dirac_(torch.empty(2, 2, 3)))
print(init.sparse_(torch.empty(4, 3), 0.5))
x = torch.arange(6.0).reshape(2, 3)
print(x.new(2, 2).shape, x.new([1, 2]), x.new().shape, x.new(torch.Size([3])).shape, x.new((1, 2)))
q, r = torch.linalg.qr(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(q, r)
print(torch.linalg.qr(torch.eye(2)))
print(torch.linalg.norm(x), torch.linalg.vector_norm(x, 1), torch.linalg.matrix_norm(x))
print(torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]])), torch.linalg.det(torch.eye(3)))
print(torch.fft.rfft(torch.arange(4.0)), torch.special.expit(torch.tensor([0.0])), torch.special.erfinv(torch.tensor([0.5])))
m = nn.DataParallel(nn.Linear(3, 2))
print(m, m(x).shape, m.module is m._modules["module"])
try:
    nn.parallel.data_parallel(m.module, x)
except TypeError as e:
    print("TypeError")
print('flushed', flush=True)
