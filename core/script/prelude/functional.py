# Fuselab prelude: more of torch.nn.functional (PyTorch 1.13 behaviour)
#
# Runs as its own module with globals torch, F (the torch.nn.functional built
# into the interpreter) and math; every name in __all__ is added to
# torch.nn.functional.  Only names the built-in F lacks are listed there.
#
# Each function calls the ATen kernel 1.13's torch/nn/functional.py calls
# (torch._C._nn.* reaches any ATen operator by its registry name), so values
# are bit-identical and grad_fn names are PyTorch's.
# Known differences: no warnings are printed (dropout2d/3d dimension
# warnings, kl_div 'mean', size_average/reduce, target-size warnings,
# F.upsample* deprecation, grid_sample/affine_grid align_corners=None), and
# functions 1.13 binds directly to a builtin (avg_pool3d, softshrink, ...)
# are Python functions here where the binding differs (stride=None).

__all__ = [
    'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d', 'conv_tbc',
    'avg_pool1d', 'avg_pool3d', 'max_pool1d', 'max_pool1d_with_indices',
    'max_pool2d_with_indices', 'max_pool3d', 'max_pool3d_with_indices',
    'max_unpool1d', 'max_unpool2d', 'max_unpool3d',
    'lp_pool1d', 'lp_pool2d',
    'adaptive_avg_pool1d', 'adaptive_avg_pool3d',
    'adaptive_max_pool1d', 'adaptive_max_pool1d_with_indices',
    'adaptive_max_pool2d', 'adaptive_max_pool2d_with_indices',
    'adaptive_max_pool3d', 'adaptive_max_pool3d_with_indices',
    'alpha_dropout', 'feature_alpha_dropout', 'dropout1d', 'dropout2d', 'dropout3d',
    'threshold', 'threshold_', 'relu_', 'glu', 'hardtanh_', 'elu_', 'selu', 'selu_',
    'celu', 'celu_', 'leaky_relu_', 'prelu', 'rrelu', 'rrelu_', 'hardshrink',
    'tanhshrink', 'softmin', 'softshrink', 'gumbel_softmax',
    'bilinear', 'embedding_bag', 'instance_norm', 'group_norm', 'local_response_norm',
    'poisson_nll_loss', 'gaussian_nll_loss', 'kl_div', 'huber_loss',
    'margin_ranking_loss', 'hinge_embedding_loss', 'multilabel_margin_loss',
    'soft_margin_loss', 'multilabel_soft_margin_loss', 'cosine_embedding_loss',
    'multi_margin_loss', 'triplet_margin_loss', 'triplet_margin_with_distance_loss',
    'pixel_shuffle', 'pixel_unshuffle', 'channel_shuffle', 'native_channel_shuffle',
    'interpolate', 'upsample', 'upsample_nearest', 'upsample_bilinear',
    'pairwise_distance', 'pdist', 'unfold', 'fold',
    'fractional_max_pool2d', 'fractional_max_pool2d_with_indices',
    'fractional_max_pool3d', 'fractional_max_pool3d_with_indices',
    'grid_sample', 'affine_grid', 'GRID_SAMPLE_INTERPOLATION_MODES', 'GRID_SAMPLE_PADDING_MODES',
    'ctc_loss', 'assert_int_or_pair', 'Tensor', 'torch', 'math',
]


# ----------------------------------------------------------------------------- helpers

def _ntuple(x, n):
    if isinstance(x, tuple) or isinstance(x, list):
        return tuple(x)
    return tuple([x for _ in range(n)])


def _single(x):
    return _ntuple(x, 1)


def _pair(x):
    return _ntuple(x, 2)


def _triple(x):
    return _ntuple(x, 3)


def _list_with_default(out_size, defaults):
    # adaptive pools: None entries of output_size keep the input's size
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least {}".format(len(out_size) + 1))
    k = len(out_size)
    tail = list(defaults)[-k:]
    return [tail[i] if out_size[i] is None else out_size[i] for i in range(k)]


def _reduction_enum(reduction):
    if reduction == 'none':
        return 0
    if reduction == 'mean':
        return 1
    if reduction == 'elementwise_mean':
        return 1
    if reduction == 'sum':
        return 2
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def _legacy_string(size_average, reduce):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return 'mean'
    if reduce:
        return 'sum'
    return 'none'


def _enum_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _reduction_enum(_legacy_string(size_average, reduce))
    return _reduction_enum(reduction)


def _string_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_string(size_average, reduce)
    return reduction


def _apply_reduction(loss, reduction):
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))


# ----------------------------------------------------------------------------- convolution

Tensor = torch.Tensor  # 1.13's functional.py imports these names into its namespace

conv3d = torch.conv3d
conv_transpose1d = torch.conv_transpose1d
conv_transpose2d = torch.conv_transpose2d
conv_transpose3d = torch.conv_transpose3d
conv_tbc = torch.conv_tbc
pixel_shuffle = torch.pixel_shuffle
pixel_unshuffle = torch.pixel_unshuffle
channel_shuffle = torch.channel_shuffle
native_channel_shuffle = torch.native_channel_shuffle
bilinear = torch.bilinear
pairwise_distance = torch.pairwise_distance
pdist = torch.pdist
hardshrink = torch.hardshrink
prelu = torch.prelu


# ----------------------------------------------------------------------------- pooling

def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    if stride is None:
        stride = []
    return torch.avg_pool1d(input, _single(kernel_size), _single(stride), _single(padding),
                            ceil_mode, count_include_pad)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    # 1.13 binds torch._C._nn.avg_pool3d directly (stride=None means kernel_size)
    if stride is None:
        stride = []
    return torch._C._nn.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                   divisor_override)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    if stride is None:
        stride = []
    return torch.max_pool1d_with_indices(input, _single(kernel_size), _single(stride), _single(padding),
                                         _single(dilation), ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    if stride is None:
        stride = []
    return torch.max_pool1d(input, _single(kernel_size), _single(stride), _single(padding),
                            _single(dilation), ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    if stride is None:
        stride = []
    return torch._C._nn.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    if stride is None:
        stride = []
    return torch._C._nn.max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    if stride is None:
        stride = []
    return torch.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = []
    for d in range(len(kernel_size)):
        default_size.append((input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d])
    if output_size is None:
        ret = default_size
    else:
        if len(output_size) == len(kernel_size) + 2:
            output_size = output_size[2:]
        if len(output_size) != len(kernel_size):
            raise ValueError(
                "output_size should be a sequence containing {} or {} elements, but it has a length of '{}'".format(
                    len(kernel_size), len(kernel_size) + 2, len(output_size)))
        for d in range(len(kernel_size)):
            min_size = default_size[d] - stride[d]
            max_size = default_size[d] + stride[d]
            if not (min_size < output_size[d] and output_size[d] < max_size):
                raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'.format(
                    output_size, d, min_size, max_size))
        ret = output_size
    return ret


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _single(kernel_size)
    if stride is not None:
        _stride = _single(stride)
    else:
        _stride = kernel_size
    padding = _single(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    if isinstance(output_size, list):
        output_size = output_size + [1]
    else:
        output_size = tuple(output_size) + (1,)
    return torch._C._nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _pair(kernel_size)
    if stride is not None:
        _stride = _pair(stride)
    else:
        _stride = kernel_size
    padding = _pair(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch._C._nn.max_unpool2d(input, indices, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _triple(kernel_size)
    if stride is not None:
        _stride = _triple(stride)
    else:
        _stride = kernel_size
    padding = _triple(padding)
    output_size = _unpool_output_size(input, kernel_size, _stride, padding, output_size)
    return torch._C._nn.max_unpool3d(input, indices, output_size, _stride, padding)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _pair(kernel_size)
    if stride is not None:
        out = F.avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = F.avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * F.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (torch.sign(out) * F.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


adaptive_avg_pool1d = torch.adaptive_avg_pool1d


def adaptive_avg_pool3d(input, output_size):
    _output_size = _list_with_default(output_size, input.size())
    return torch._C._nn.adaptive_avg_pool3d(input, _output_size)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return torch.adaptive_max_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool1d_with_indices(input, output_size)
    return torch.adaptive_max_pool1d(input, output_size)[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    output_size = _list_with_default(output_size, input.size())
    return torch._C._nn.adaptive_max_pool2d(input, output_size)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool2d_with_indices(input, output_size)
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    output_size = _list_with_default(output_size, input.size())
    return torch._C._nn.adaptive_max_pool3d(input, output_size)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool3d_with_indices(input, output_size)
    return adaptive_max_pool3d_with_indices(input, output_size)[0]


# ----------------------------------------------------------------------------- fractional max pooling

def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        _output_ratio = _pair(output_ratio)
        output_size = [int(input.size(-2) * _output_ratio[0]), int(input.size(-1) * _output_ratio[1])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 3 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-3), 2, dtype=input.dtype, device=input.device)
    return torch._C._nn.fractional_max_pool2d(input, kernel_size, output_size, _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    r = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                           _random_samples)
    if return_indices:
        return r
    return r[0]


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool3d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        _output_ratio = _triple(output_ratio)
        output_size = [int(input.size(-3) * _output_ratio[0]), int(input.size(-2) * _output_ratio[1]),
                       int(input.size(-1) * _output_ratio[2])]
    if _random_samples is None:
        n_batch = 1 if input.dim() == 4 else input.size(0)
        _random_samples = torch.rand(n_batch, input.size(-4), 3, dtype=input.dtype, device=input.device)
    return torch._C._nn.fractional_max_pool3d(input, kernel_size, output_size, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    r = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                           _random_samples)
    if return_indices:
        return r
    return r[0]


# ----------------------------------------------------------------------------- dropout

def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    if inplace:
        return torch.alpha_dropout_(input, p, training)
    return torch.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    if inplace:
        return torch.feature_alpha_dropout_(input, p, training)
    return torch.feature_alpha_dropout(input, p, training)


def _feature_dropout(input, p, training, inplace):
    if inplace:
        return torch.feature_dropout_(input, p, training)
    return torch.feature_dropout(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim != 2 and inp_dim != 3:
        raise RuntimeError(
            "dropout1d: Expected 2D or 3D input, but received a {}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an "
            "optional batch dimension (i.e. 2D or 3D inputs).".format(inp_dim))
    if inp_dim == 2:
        x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
        r = _feature_dropout(x, p, training, inplace)
        return r.squeeze_(0) if inplace else r.squeeze(0)
    return _feature_dropout(input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if input.dim() != 5:
        x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
        r = _feature_dropout(x, p, training, inplace)
        return r.squeeze_(0) if inplace else r.squeeze(0)
    return _feature_dropout(input, p, training, inplace)


# ----------------------------------------------------------------------------- activations

def threshold(input, threshold, value, inplace=False):
    if inplace:
        return torch.threshold_(input, threshold, value)
    return torch.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return torch.threshold_(input, threshold, value)


def relu_(input):
    return F.relu(input, inplace=True)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return torch._C._nn.glu(input, dim)


def hardtanh_(input, min_val=-1., max_val=1.):
    return F.hardtanh(input, min_val, max_val, True)


def elu_(input, alpha=1.):
    return F.elu(input, alpha, True)


def selu(input, inplace=False):
    if inplace:
        return torch.selu_(input)
    return torch.selu(input)


def selu_(input):
    return torch.selu_(input)


def celu(input, alpha=1., inplace=False):
    if inplace:
        return torch.celu_(input, alpha)
    return torch.celu(input, alpha)


def celu_(input, alpha=1.):
    return torch.celu_(input, alpha)


def leaky_relu_(input, negative_slope=0.01):
    return F.leaky_relu(input, negative_slope, True)


def rrelu(input, lower=1. / 8, upper=1. / 3, training=False, inplace=False):
    if inplace:
        return torch.rrelu_(input, lower, upper, training)
    return torch.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1. / 8, upper=1. / 3, training=False):
    return torch.rrelu_(input, lower, upper, training)


def tanhshrink(input):
    return input - input.tanh()


def _softmax_dim(ndim):
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim(input.dim())
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)


softshrink = torch._C._nn.softshrink


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    gumbels = -torch.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


# ----------------------------------------------------------------------------- embedding / normalization

def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    if weight.dtype == torch.long and input.is_floating_point():
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            "embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as "
            "the input ({})".format(per_sample_weights.shape, input.shape))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                "length sequences. However, found offsets of type {}".format("<class 'torch.Tensor'>"))
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(input.dim()))
    if mode == 'sum':
        mode_enum = 0
    elif mode == 'mean':
        mode_enum = 1
    elif mode == 'max':
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        with torch.no_grad():
            torch.embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != 'sum':
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
            "mode='sum' (got mode='{}'). Please open a feature request on GitHub.".format(mode))
    r = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                            per_sample_weights, include_last_offset, padding_idx)
    return r[0]


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    if use_input_stats:
        size = list(input.size())
        prod = 1
        for i in range(2, len(size)):
            prod = prod * size[i]
        if prod == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input size {}".format(
                input.size()))
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                               momentum, eps, False)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    size = [input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:])
    prod = size[0]
    for i in range(len(size) - 2):
        prod = prod * size[i + 2]
    if prod == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size {}".format(size))
    return torch.group_norm(input, num_groups, weight, bias, eps, False)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality                          input (got {} dimensions)".format(dim))
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = F.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = F.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = F.pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ----------------------------------------------------------------------------- losses

def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction='mean'):
    reduction = _string_of(size_average, reduce, reduction)
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + " is not valid")
    if torch.any(var < 0):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _apply_reduction(loss, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_string(size_average, reduce))
    elif reduction == 'batchmean':
        enum = 2
    else:
        enum = _reduction_enum(reduction)
    reduced = torch.kl_div(input, target, enum, log_target=log_target)
    if reduction == 'batchmean' and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def huber_loss(input, target, reduction='mean', delta=1.0):
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    return torch._C._nn.huber_loss(expanded_input, expanded_target, _reduction_enum(reduction), delta)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    enum = _enum_of(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            "input1: {}, input2: {}, target: {} ".format(input1.size(), input2.size(), target.size()))
    return torch.margin_ranking_loss(input1, input2, target, margin, enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    return torch.hinge_embedding_loss(input, target, margin, _enum_of(size_average, reduce, reduction))


def _by_enum(loss, enum):
    if enum == 1:
        return loss.mean()
    if enum == 2:
        return loss.sum()
    return loss


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return torch._C._nn.soft_margin_loss(input, target, _enum_of(size_average, reduce, reduction))


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    return torch._C._nn.multilabel_margin_loss(input, target, _enum_of(size_average, reduce, reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    reduction = _string_of(size_average, reduce, reduction)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    return torch.cosine_embedding_loss(input1, input2, target, margin, _enum_of(size_average, reduce, reduction))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction='mean'):
    reduction_enum = _enum_of(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    return torch._C._nn.multi_margin_loss(input, target, p, margin, weight, reduction_enum)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction='mean'):
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                     _enum_of(size_average, reduce, reduction))


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction='mean'):
    dist_fn = distance_function if distance_function is not None else pairwise_distance
    positive_dist = dist_fn(anchor, positive)
    negative_dist = dist_fn(anchor, negative)
    if swap:
        swap_dist = dist_fn(positive, negative)
        negative_dist = torch.min(negative_dist, swap_dist)
    output = torch.clamp(positive_dist - negative_dist + margin, min=0.0)
    return _by_enum(output, _reduction_enum(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
             zero_infinity=False):
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction_enum(reduction),
                          zero_infinity)


# ----------------------------------------------------------------------------- interpolation

# the upsample_* kernels have two overloads; scale_factors= picks the .vec one, which 1.13 calls
# (grad_fn ...Backward1)

def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode == 'nearest' or mode == 'area' or mode == 'nearest-exact':
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with "
                    "spatial dimensions of {} and output size of {}. Please provide input tensor in (N, C, d1, "
                    "d2, ...,dK) format and output size in (o1, o2, ...,oK) format.".format(
                        list(input.shape[2:]), size))
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input "
                    "with spatial dimensions of {} and scale_factor of shape {}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.".format(
                        list(input.shape[2:]), scale_factor))
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == 'area' and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not ((mode == 'bilinear' or mode == 'bicubic') and input.ndim == 4):
        raise ValueError("Anti-alias option is only supported for bilinear and bicubic modes")

    nd = input.dim()
    if nd == 3 and mode == 'nearest':
        return torch._C._nn.upsample_nearest1d(input, output_size, scale_factors=scale_factors)
    if nd == 4 and mode == 'nearest':
        return torch._C._nn.upsample_nearest2d(input, output_size, scale_factors=scale_factors)
    if nd == 5 and mode == 'nearest':
        return torch._C._nn.upsample_nearest3d(input, output_size, scale_factors=scale_factors)
    if nd == 3 and mode == 'nearest-exact':
        return torch._C._nn._upsample_nearest_exact1d(input, output_size, scale_factors=scale_factors)
    if nd == 4 and mode == 'nearest-exact':
        return torch._C._nn._upsample_nearest_exact2d(input, output_size, scale_factors=scale_factors)
    if nd == 5 and mode == 'nearest-exact':
        return torch._C._nn._upsample_nearest_exact3d(input, output_size, scale_factors=scale_factors)
    if nd == 3 and mode == 'area':
        return F.adaptive_avg_pool1d(input, output_size)
    if nd == 4 and mode == 'area':
        return F.adaptive_avg_pool2d(input, output_size)
    if nd == 5 and mode == 'area':
        return adaptive_avg_pool3d(input, output_size)
    if nd == 3 and mode == 'linear':
        return torch._C._nn.upsample_linear1d(input, output_size, align_corners, scale_factors=scale_factors)
    if nd == 4 and mode == 'bilinear':
        if antialias:
            return torch._C._nn._upsample_bilinear2d_aa(input, output_size, align_corners, scale_factors=scale_factors)
        return torch._C._nn.upsample_bilinear2d(input, output_size, align_corners, scale_factors=scale_factors)
    if nd == 5 and mode == 'trilinear':
        return torch._C._nn.upsample_trilinear3d(input, output_size, align_corners, scale_factors=scale_factors)
    if nd == 4 and mode == 'bicubic':
        if antialias:
            return torch._C._nn._upsample_bicubic2d_aa(input, output_size, align_corners, scale_factors=scale_factors)
        return torch._C._nn.upsample_bicubic2d(input, output_size, align_corners, scale_factors=scale_factors)

    if nd == 3 and mode == 'bilinear':
        raise NotImplementedError("Got 3D input, but bilinear mode needs 4D input")
    if nd == 3 and mode == 'trilinear':
        raise NotImplementedError("Got 3D input, but trilinear mode needs 5D input")
    if nd == 4 and mode == 'linear':
        raise NotImplementedError("Got 4D input, but linear mode needs 3D input")
    if nd == 4 and mode == 'trilinear':
        raise NotImplementedError("Got 4D input, but trilinear mode needs 5D input")
    if nd == 5 and mode == 'linear':
        raise NotImplementedError("Got 5D input, but linear mode needs 3D input")
    if nd == 5 and mode == 'bilinear':
        raise NotImplementedError("Got 5D input, but bilinear mode needs 4D input")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: nearest | linear "
        "| bilinear | bicubic | trilinear | area | nearest-exact (got {})".format(nd, mode))


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='nearest')


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


# ----------------------------------------------------------------------------- grid sampling

GRID_SAMPLE_INTERPOLATION_MODES = {'bilinear': 0, 'nearest': 1, 'bicubic': 2}
GRID_SAMPLE_PADDING_MODES = {'zeros': 0, 'border': 1, 'reflection': 2}


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    if mode != 'bilinear' and mode != 'nearest' and mode != 'bicubic':
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         "but got: '{}'".format(mode))
    if padding_mode != 'zeros' and padding_mode != 'border' and padding_mode != 'reflection':
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '{}'".format(padding_mode))
    if mode == 'bilinear':
        mode_enum = 0
    elif mode == 'nearest':
        mode_enum = 1
    else:
        mode_enum = 2
    if padding_mode == 'zeros':
        padding_mode_enum = 0
    elif padding_mode == 'border':
        padding_mode_enum = 1
    else:
        padding_mode_enum = 2
    if align_corners is None:
        align_corners = False
    return torch.grid_sampler(input, grid, mode_enum, padding_mode_enum, align_corners)


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}".format(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
            "Got size {}.".format(size))
    if align_corners and min(spatial_size) == 1:
        pass
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    return torch.affine_grid_generator(theta, size, align_corners)


# ----------------------------------------------------------------------------- unfold / fold

def assert_int_or_pair(arg, arg_name, message):
    assert isinstance(arg, int) or len(arg) == 2, message.format(arg_name)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    return torch._C._nn.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return torch._C._nn.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                               _pair(stride))
