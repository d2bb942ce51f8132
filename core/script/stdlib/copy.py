# copy, written in the script language: copy and deepcopy of containers, instances (an nn.Module
# included: deepcopy gives a model with its own parameters, as EMA code makes) and tensors,
# __copy__ / __deepcopy__ honoured. _new_like, _attrs and _set_raw come from the interpreter.
import torch as _torch


class Error(Exception):
    pass


error = Error
def _atomic(x):
    return x is None or isinstance(x, (int, float, bool, str, range, type)) or type(x).__name__ in ("function", "builtin_function_or_method", "dtype", "device")


def copy(x):
    if _atomic(x) or isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return list(x)
    if isinstance(x, dict):
        y = type(x)()
        y.update(x)
        return y
    if isinstance(x, set):
        return set(x)
    if hasattr(x, "__copy__"):
        return x.__copy__()
    if isinstance(x, _torch.Tensor):
        return x.clone()
    if type(x).__name__ == "module" or isinstance(x, type):
        return x
    y = _new_like(x)
    for k, v in _attrs(x).items():
        _set_raw(y, k, v)
    return y


def _deep_tensor(x):
    if not x.is_leaf:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
    y = x.detach().clone()
    if isinstance(x, _torch.nn.Parameter):
        return _torch.nn.Parameter(y, requires_grad=x.requires_grad)
    return y.requires_grad_(x.requires_grad)


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    key = id(x)
    if key in memo:
        return memo[key]
    if _atomic(x):
        return x
    if isinstance(x, _torch.Tensor):
        y = _deep_tensor(x)
    elif isinstance(x, list):
        y = []
        memo[key] = y
        for v in x:
            y.append(deepcopy(v, memo))
    elif isinstance(x, tuple):
        y = tuple(deepcopy(v, memo) for v in x)
    elif isinstance(x, dict):
        y = type(x)()
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
    elif isinstance(x, set):
        y = set(deepcopy(v, memo) for v in x)
    elif hasattr(x, "__deepcopy__"):
        y = x.__deepcopy__(memo)
    elif type(x).__name__ == "module" or isinstance(x, type):
        return x
    else:
        y = _new_like(x)
        memo[key] = y
        for k, v in _attrs(x).items():
            _set_raw(y, k, deepcopy(v, memo))
    memo[key] = y
    return y
