# Where a tensor lives and how it is laid out, as model code asks before moving or naming it:
# the is_* properties of a CPU tensor, its names (none), has_names(), is_shared(), get_device().
import torch

x = torch.arange(6.0).view(2, 3)
for prop in ["is_cpu", "is_cuda", "is_meta", "is_sparse", "is_sparse_csr", "is_quantized", "is_mkldnn",
             "is_xpu", "is_ipu", "is_mps", "is_nested", "is_ort", "is_vulkan"]:
    print(prop, getattr(x, prop))
print(x.names, torch.zeros(()).names, torch.zeros(1, 2, 3).names)
print(x.has_names(), x.is_shared(), x.get_device())
print(x.t().is_cpu, (x + 1).get_device())
