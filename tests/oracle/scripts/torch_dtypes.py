# covers: dtypes float32/float64/float16/int32/int64/bool, printing dtypes, default dtype, type promotion rules
import torch

torch.manual_seed(0)
for dt in [torch.float32, torch.float64, torch.float16, torch.int32, torch.int64, torch.int8,
           torch.uint8, torch.bool]:
    t = torch.ones(2, dtype=dt)
    print(dt, t.dtype, t, t.dtype.is_floating_point, t.element_size())
print(torch.float, torch.double, torch.half, torch.long, torch.int)
print(torch.float == torch.float32, torch.long == torch.int64, torch.get_default_dtype())
print(torch.tensor(1).dtype, torch.tensor(1.0).dtype, torch.tensor(True).dtype, torch.tensor([1, 2.0]).dtype)
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
b = torch.tensor([True, False, True])
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
print((i + f).dtype, (i + d).dtype, (f + d).dtype, (h + f).dtype, (h + i).dtype)
print((b + b).dtype, (b + i).dtype, (b * f).dtype, (i32 + i).dtype, (i32 * 2).dtype)
print((i * 2.5).dtype, (i + 1).dtype, (h * 2.0).dtype, (i32 / 2).dtype, (i / i).dtype, (i // 2).dtype)
print(i + f, i * 2.5, i / 2, i // 2, i32 + i, b + i, h * 2)
print(torch.tensor(3) + 0.5, (torch.tensor(3) + 0.5).dtype, (torch.tensor(2.0, dtype=torch.float64) * f).dtype)
print(torch.tensor([1, 2], dtype=torch.int8) * 100)
print(torch.tensor([200, 100], dtype=torch.uint8) + torch.tensor([100, 100], dtype=torch.uint8))
print(torch.tensor([65504.0], dtype=torch.float16) * 2, torch.tensor([1 / 3], dtype=torch.float16))
print(torch.tensor([1 / 3]), torch.tensor([1 / 3], dtype=torch.float64))
