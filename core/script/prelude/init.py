# Fuselab prelude: torch.nn.init
#
# Executed at interpreter start-up; this file's globals become `torch.nn.init`.
# Names provided by the loader: torch, F, math, Parameter, _OrderedDict.
# Written in the model-script Python subset: no imports, no generators, no
# decorators, single inheritance, no `%` formatting.
#
# Every initialiser draws from the RNG exactly as PyTorch 1.13 does (same calls,
# same order, same Python-float arithmetic for bounds and standard deviations),
# so that the same seed gives bit-identical tensors.
#
# PyTorch 1.13 vs 2.x differences kept at their 1.13 behaviour:
#  - uniform_/normal_/trunc_normal_/kaiming_*_ take no `generator=` argument
#    (added in 2.2); passing one is a TypeError, as in 1.13.
#  - kaiming_normal_ draws with tensor.normal_(0, std) (integer mean 0, as 1.13).
#  - calculate_gain('selu') is 3/4 and leaky_relu accepts an int or float slope
#    (1.13 semantics; bool is rejected).
#  - warnings that 1.13 emits through the `warnings` module (zero-element
#    tensors in kaiming_*, mean far outside [a, b] in trunc_normal_) go to
#    stderr in CPython and are not reproduced here (stdout is unaffected).


def _no_grad_uniform_(tensor, a, b):
    with torch.no_grad():
        return tensor.uniform_(a, b)


def _no_grad_normal_(tensor, mean, std):
    with torch.no_grad():
        return tensor.normal_(mean, std)


def _no_grad_fill_(tensor, val):
    with torch.no_grad():
        return tensor.fill_(val)


def _no_grad_zero_(tensor):
    with torch.no_grad():
        return tensor.zero_()


def _no_grad_trunc_normal_(tensor, mean, std, a, b):
    # Inverse-CDF sampling exactly as 1.13: one uniform_ draw, then erfinv_.
    l = (1. + math.erf(((a - mean) / std) / math.sqrt(2.))) / 2.
    u = (1. + math.erf(((b - mean) / std) / math.sqrt(2.))) / 2.
    with torch.no_grad():
        tensor.uniform_(2 * l - 1, 2 * u - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.))
        tensor.add_(mean)
        tensor.clamp_(min=a, max=b)
        return tensor


def calculate_gain(nonlinearity, param=None):
    linear_fns = ['linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d',
                  'conv_transpose2d', 'conv_transpose3d']
    if nonlinearity in linear_fns or nonlinearity == 'sigmoid':
        return 1
    elif nonlinearity == 'tanh':
        return 5.0 / 3
    elif nonlinearity == 'relu':
        return math.sqrt(2.0)
    elif nonlinearity == 'leaky_relu':
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError("negative_slope {} not a valid number".format(param))
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    elif nonlinearity == 'selu':
        return 3.0 / 4
    else:
        raise ValueError("Unsupported nonlinearity {}".format(nonlinearity))


def uniform_(tensor, a=0., b=1.):
    return _no_grad_uniform_(tensor, a, b)


def normal_(tensor, mean=0., std=1.):
    return _no_grad_normal_(tensor, mean, std)


def trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.):
    return _no_grad_trunc_normal_(tensor, mean, std, a, b)


def constant_(tensor, val):
    return _no_grad_fill_(tensor, val)


def ones_(tensor):
    return _no_grad_fill_(tensor, 1.)


def zeros_(tensor):
    return _no_grad_zero_(tensor)


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(tensor.size(0), tensor.size(1), dtype=tensor.dtype))
    return tensor


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if dimensions > 2:
        for d in range(2, dimensions):
            receptive_field_size *= tensor.size(d)
    fan_in = num_input_fmaps * receptive_field_size
    fan_out = num_output_fmaps * receptive_field_size
    return fan_in, fan_out


def xavier_uniform_(tensor, gain=1.):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _no_grad_uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain=1.):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _no_grad_normal_(tensor, 0., std)


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ['fan_in', 'fan_out']
    if mode not in valid_modes:
        raise ValueError("Mode {} not supported, please use one of {}".format(mode, valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    if mode == 'fan_in':
        return fan_in
    return fan_out


def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
    # `0 in tensor.shape` <=> the tensor has no elements
    if tensor.numel() == 0:
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    with torch.no_grad():
        return tensor.uniform_(-bound, bound)


def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
    if tensor.numel() == 0:
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        return tensor.normal_(0, std)


def dirac_(tensor, groups=1):
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError('dim 0 must be divisible by groups')
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with torch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                row = g * out_chans_per_grp + d
                if dimensions == 3:
                    tensor[row, d, tensor.size(2) // 2] = 1
                elif dimensions == 4:
                    tensor[row, d, tensor.size(2) // 2, tensor.size(3) // 2] = 1
                else:
                    tensor[row, d, tensor.size(2) // 2, tensor.size(3) // 2, tensor.size(4) // 2] = 1
    return tensor


def orthogonal_(tensor, gain=1):
    # 1.13's draw: a (rows, cols) normal matrix, QR of it (or of its transpose), Q's columns
    # signed by R's diagonal, copied into the tensor and scaled
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new(rows, cols).normal_(0, 1)
    if rows < cols:
        flattened.t_()
    q, r = torch.linalg.qr(flattened)
    d = torch.diag(r, 0)
    ph = d.sign()
    q *= ph
    if rows < cols:
        q.t_()
    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01):
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        for col_idx in range(cols):
            row_indices = torch.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


# The deprecated names without the underscore (1.13 also warns, on stderr)
uniform = uniform_
normal = normal_
constant = constant_
eye = eye_
dirac = dirac_
xavier_uniform = xavier_uniform_
xavier_normal = xavier_normal_
kaiming_uniform = kaiming_uniform_
kaiming_normal = kaiming_normal_
orthogonal = orthogonal_
sparse = sparse_
