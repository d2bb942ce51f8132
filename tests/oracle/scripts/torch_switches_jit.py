# Constants, process-wide switches and torch.jit as model code touches them: torch.pi/e/inf/nan, has_*,
# determinism and matmul-precision settings (1.13 warns on stderr for an unknown precision), flush
# denormal, get_device, and torch.jit.script / trace giving back a callable.
import torch
print(torch.pi, torch.e, torch.inf, torch.nan, torch.has_cuda, torch.has_cudnn, torch.compiled_with_cxx11_abi())
print(torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision(), torch.is_inference_mode_enabled(), torch.is_anomaly_enabled())
torch.set_float32_matmul_precision('high')
print(torch.get_device(torch.ones(2)), torch.is_storage(torch.ones(1)), torch.get_num_interop_threads() > 0)


@torch.jit.script
def f(x):
    return x * 2


print(f(torch.ones(2)), torch.jit.is_scripting(), torch.jit.trace(f, torch.ones(1))(torch.ones(3)))
torch.set_float32_matmul_precision("low")
print(torch.get_float32_matmul_precision())
try:
    print(torch.set_flush_denormal(True), torch.set_flush_denormal(False))
    torch.set_flush_denormal(1)
    print("flush")
except RuntimeError as e:
    print("RuntimeError")
