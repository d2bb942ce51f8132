# covers: tensor __setitem__ with ints, slices, masks, index tensors, broadcasting values, tensors as values, accumulation through indexed +=
import torch

torch.manual_seed(18)
x = torch.zeros(3, 4)
x[0] = 1.0
x[1, 2] = 5.0
x[2, :2] = torch.tensor([7.0, 8.0])
x[:, -1] = torch.arange(3.0)
print(x)
x[x > 4] = -1.0
print(x)
x[[0, 2], [1, 3]] = 9.0
print(x)
x[torch.tensor([1])] = 0.5
print(x)
x[..., 0] = 3
print(x)
x[1:, 1:3] = torch.ones(2, 2) * 2
print(x)
y = torch.arange(10)
y[::3] = 0
y[-1] = 100
print(y)
y[y == 0] = torch.tensor([-1, -2, -3])
print(y)
z = torch.zeros(2, 3)
z[:] = torch.tensor([1.0, 2.0, 3.0])
print(z)
z[0, :] += 10
z[:, 1] *= -1
print(z)
w = torch.randn(2, 2)
w[0, 0] = float("inf")
w[1] = torch.tensor(0.25)
print(w)
i = torch.zeros(5, dtype=torch.int64)
i[2] = 3.9
print(i)
acc = torch.zeros(3)
for j, v in zip([0, 2, 0], [1.0, 2.0, 3.0]):
    acc[j] += v
print(acc)
