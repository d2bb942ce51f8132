# Fuselab prelude: torch.nn.init
#
# Executed at interpreter start-up; this file's globals become `torch.nn.init`.
# Names provided by the loader: torch, F, math, Parameter, _OrderedDict.
# Written in the model-script Python subset: no imports, no generators, no
# decorators, single inheritance, no `%` formatting.
#
# Layout:
#   1. error texts (one table, raised through _fail) and the gain table;
#   2. shape arithmetic (fans) shared by the xavier / kaiming families;
#   3. the initialisers, each a bound/std computation followed by one draw
#      made under no_grad through _draw().
#
# Every initialiser draws from the RNG exactly as PyTorch 1.13 does (same
# tensor methods, same order, same Python-float arithmetic for bounds and
# standard deviations), so that the same seed gives bit-identical tensors.
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

# ---------------------------------------------------------------------------
# Error texts (word for word 1.13's), raised as ValueError by _fail().
_MESSAGES = {
    'slope': "negative_slope {} not a valid number",
    'gain': "Unsupported nonlinearity {}",
    'fan_dims': "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
    'fan_mode': "Mode {} not supported, please use one of {}",
    'only_2d': "Only tensors with 2 dimensions are supported",
    'at_least_2d': "Only tensors with 2 or more dimensions are supported",
    'dirac_dims': "Only tensors with 3, 4, or 5 dimensions are supported",
    'dirac_groups': 'dim 0 must be divisible by groups',
}


def _fail(key, *fill):
    raise ValueError(_MESSAGES[key].format(*fill))


# Fixed gains, searched in order with == (so any object may be asked about).
# The names of the linear layers and sigmoid share the gain 1 (an int, as 1.13).
_FIXED_GAINS = [
    ('linear', 1), ('conv1d', 1), ('conv2d', 1), ('conv3d', 1),
    ('conv_transpose1d', 1), ('conv_transpose2d', 1), ('conv_transpose3d', 1),
    ('sigmoid', 1),
    ('tanh', 5.0 / 3),
    ('relu', math.sqrt(2.0)),
    ('selu', 3.0 / 4),
]

_FAN_MODES = ['fan_in', 'fan_out']


def _slope_of(param):
    # leaky_relu's negative slope: default 0.01, else an int (not bool) or a float
    if param is None:
        return 0.01
    is_int = isinstance(param, int) and not isinstance(param, bool)
    if is_int or isinstance(param, float):
        return param
    _fail('slope', param)


def calculate_gain(nonlinearity, param=None):
    for name, value in _FIXED_GAINS:
        if nonlinearity == name:
            return value
    if nonlinearity == 'leaky_relu':
        slope = _slope_of(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    _fail('gain', nonlinearity)


# ---------------------------------------------------------------------------
# Fans: (input feature maps, output feature maps) times the receptive field.

def _fans(tensor):
    ndim = tensor.dim()
    if ndim < 2:
        _fail('fan_dims')
    field = 1
    for axis in range(2, ndim):
        field *= tensor.size(axis)
    return tensor.size(1) * field, tensor.size(0) * field


def _fan_for(tensor, mode):
    mode = mode.lower()
    if mode not in _FAN_MODES:
        _fail('fan_mode', mode, _FAN_MODES)
    both = _fans(tensor)
    return both[_FAN_MODES.index(mode)]


# the names 1.13 uses (nn.py and scripts reach the first one)
def _calculate_fan_in_and_fan_out(tensor):
    return _fans(tensor)


_calculate_correct_fan = _fan_for


def _xavier_std(tensor, gain):
    fan_in, fan_out = _fans(tensor)
    return gain * math.sqrt(2.0 / float(fan_in + fan_out))


def _kaiming_std(tensor, a, mode, nonlinearity):
    fan = _fan_for(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


# ---------------------------------------------------------------------------
# Draws.  _draw() runs one in-place tensor method under no_grad and returns
# what it returns (the tensor itself).

def _draw(tensor, method, first=None, second=None):
    with torch.no_grad():
        if method == 'uniform':
            return tensor.uniform_(first, second)
        if method == 'normal':
            return tensor.normal_(first, second)
        if method == 'fill':
            return tensor.fill_(first)
        return tensor.zero_()


def _symmetric_uniform(tensor, half_width):
    return _draw(tensor, 'uniform', -half_width, half_width)


def _normal_cdf(z):
    return (1. + math.erf(z / math.sqrt(2.))) / 2.


def uniform_(tensor, a=0., b=1.):
    return _draw(tensor, 'uniform', a, b)


def normal_(tensor, mean=0., std=1.):
    return _draw(tensor, 'normal', mean, std)


def trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.):
    # inverse-CDF sampling as 1.13: one uniform_ draw between the two CDF
    # values (mapped to [-1, 1]), then erfinv_, scale, shift and clamp
    lo_cdf = _normal_cdf((a - mean) / std)
    hi_cdf = _normal_cdf((b - mean) / std)
    with torch.no_grad():
        tensor.uniform_(2 * lo_cdf - 1, 2 * hi_cdf - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.))
        tensor.add_(mean)
        tensor.clamp_(min=a, max=b)
        return tensor


def constant_(tensor, val):
    return _draw(tensor, 'fill', val)


def ones_(tensor):
    return _draw(tensor, 'fill', 1.)


def zeros_(tensor):
    return _draw(tensor, 'zero')


def eye_(tensor):
    if tensor.dim() != 2:
        _fail('only_2d')
    rows, cols = tensor.size(0), tensor.size(1)
    with torch.no_grad():
        tensor.copy_(torch.eye(rows, cols, dtype=tensor.dtype))
    return tensor


def xavier_uniform_(tensor, gain=1.):
    std = _xavier_std(tensor, gain)
    return _symmetric_uniform(tensor, math.sqrt(3.0) * std)


def xavier_normal_(tensor, gain=1.):
    return _draw(tensor, 'normal', 0., _xavier_std(tensor, gain))


def kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
    # an empty tensor is returned untouched (1.13 checks `0 in tensor.shape`)
    if tensor.numel() == 0:
        return tensor
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    return _symmetric_uniform(tensor, math.sqrt(3.0) * std)


def kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu'):
    if tensor.numel() == 0:
        return tensor
    return _draw(tensor, 'normal', 0, _kaiming_std(tensor, a, mode, nonlinearity))


def dirac_(tensor, groups=1):
    ndim = tensor.ndimension()
    if ndim < 3 or ndim > 5:
        _fail('dirac_dims')
    out_channels = tensor.size(0)
    if out_channels % groups != 0:
        _fail('dirac_groups')
    per_group = out_channels // groups
    diagonal = min(per_group, tensor.size(1))
    centre = [tensor.size(axis) // 2 for axis in range(2, ndim)]
    with torch.no_grad():
        tensor.zero_()
        for g in range(groups):
            for k in range(diagonal):
                tensor[tuple([g * per_group + k, k] + centre)] = 1
    return tensor


def orthogonal_(tensor, gain=1):
    # 1.13's draw: a (rows, cols) normal matrix, QR of it (or of its transpose
    # when it is wide), Q's columns signed by R's diagonal, copied in and scaled
    if tensor.ndimension() < 2:
        _fail('at_least_2d')
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    wide = rows < tensor.numel() // rows
    sample = tensor.new(rows, tensor.numel() // rows).normal_(0, 1)
    if wide:
        sample.t_()
    q, r = torch.linalg.qr(sample)
    q *= torch.diag(r, 0).sign()
    if wide:
        q.t_()
    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01):
    if tensor.ndimension() != 2:
        _fail('only_2d')
    rows, cols = tensor.shape
    zeroed = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        for col in range(cols):
            tensor[torch.randperm(rows)[:zeroed], col] = 0
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
