# Fuselab prelude: torch.nn.parallel (as torch.nn.modules.parallel; the loader also registers it
# as torch.nn.parallel). Model scripts run on the CPU, where PyTorch 1.13's DataParallel and
# data_parallel find no devices and call the module itself.
# Names provided by the loader: torch, F, math, Parameter, _OrderedDict, init, nn, Module.

__all__ = ["DataParallel"]


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.dim = dim
        self.output_device = None
        self.src_device_obj = torch.device("cpu")

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    # 1.13 finds no device to run on and fails looking up the first one
    if device_ids is None or len(device_ids) == 0:
        raise TypeError("'NoneType' object is not subscriptable")
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if module_kwargs is None:
        module_kwargs = {}
    return module(*inputs, **module_kwargs)


class DistributedDataParallel(Module):
    def __init__(self, module, *args, **kwargs):
        raise RuntimeError("Default process group has not been initialized, please make sure to call init_process_group.")
