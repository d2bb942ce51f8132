# The legacy tensor types: torch.LongTensor([...]) / torch.FloatTensor(2, 3) constructors, isinstance by
# dtype, x.type(torch.DoubleTensor) / x.type('torch.IntTensor') / x.type().
import torch
a = torch.LongTensor([1, 2, 3])
b = torch.FloatTensor(2, 3)
c = torch.FloatTensor([[1.5, 2], [3, 4]])
print(a, a.dtype, b.shape, b.dtype, c)
print(isinstance(a, torch.LongTensor), isinstance(a, torch.FloatTensor), isinstance(c, torch.FloatTensor), isinstance(c, torch.Tensor))
print(c.type(torch.DoubleTensor).dtype, c.type('torch.IntTensor'), a.type(), torch.ByteTensor([1, 0]).dtype, torch.BoolTensor([True]).dtype)
print(torch.FloatTensor().shape, torch.FloatTensor(torch.Size([2])).shape, torch.LongTensor((4, 5)))
