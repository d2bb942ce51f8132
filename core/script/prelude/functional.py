# Fuselab prelude: more of torch.nn.functional (PyTorch 1.13 behaviour)
#
# Runs as its own module with globals torch, F (the torch.nn.functional built
# into the interpreter) and math; every name in __all__ is added to
# torch.nn.functional.  Only names the built-in F lacks are listed there.
#
# Where 1.13 calls an ATen op that model scripts cannot reach (the
# torch._C._nn ones: upsample_*, avg_pool3d, adaptive_max_pool2d/3d,
# max_pool3d_with_indices, im2col/col2im, glu, softshrink, huber_loss,
# soft_margin_loss, multilabel_margin_loss, multi_margin_loss,
# rrelu_with_noise, max_unpool*), the function is written here from reachable
# ops.  Results agree with 1.13 up to floating-point rounding (exactly for
# nearest interpolation, max pooling and its indices, unfold/fold, softshrink).
# Known differences: no deprecation warnings are printed (dropout2d/3d
# dimension warnings, kl_div 'mean', size_average/reduce, target-size warnings).

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


def _along(x, dim, fn):
    # Apply fn, a 1-d op over the last dim of a 2-d (rows, L) tensor, to
    # dimension `dim` of x; fn returns a tensor or a tuple of tensors.
    xt = x.movedim(dim, -1)
    lead = list(xt.shape[:-1])
    r = fn(xt.reshape(-1, xt.shape[-1]))
    if isinstance(r, tuple):
        return tuple([t.reshape(lead + [t.shape[-1]]).movedim(-1, dim) for t in r])
    return r.reshape(lead + [r.shape[-1]]).movedim(-1, dim)


# ----------------------------------------------------------------------------- convolution

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
    if input.dim() != 4 and input.dim() != 5:
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    k = _triple(kernel_size)
    if len(k) != 3 and len(k) != 1:
        raise RuntimeError("avg_pool3d: kernel_size must be a single int, or a tuple of three ints")
    if len(k) == 1:
        k = (k[0], k[0], k[0])
    if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0):
        s = k
    else:
        s = _triple(stride)
        if len(s) == 1:
            s = (s[0], s[0], s[0])
    p = _triple(padding)
    if len(p) == 1:
        p = (p[0], p[0], p[0])
    shp = list(input.shape)
    D, H, W = shp[-3], shp[-2], shp[-1]
    lead = shp[:-3]
    x = input.reshape(-1, H, W)
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        y = F.avg_pool2d(x, (k[1], k[2]), (s[1], s[2]), (p[1], p[2]), ceil_mode, count_include_pad, 1)
    else:
        y = F.avg_pool2d(x, (k[1], k[2]), (s[1], s[2]), (p[1], p[2]), ceil_mode, count_include_pad)
    oh, ow = y.shape[-2], y.shape[-1]
    y = y.reshape(-1, D, oh * ow).transpose(1, 2)
    if divisor_override is not None:
        z = torch.avg_pool1d(y, [k[0]], [s[0]], [p[0]], ceil_mode, True) * (k[0] / divisor_override)
    else:
        z = torch.avg_pool1d(y, [k[0]], [s[0]], [p[0]], ceil_mode, count_include_pad)
    od = z.shape[-1]
    return z.transpose(1, 2).reshape(lead + [od, oh, ow])


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
    return F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode,
                        return_indices=True)


def _expand3(v, name):
    t = _triple(v)
    if len(t) == 1:
        return (t[0], t[0], t[0])
    if len(t) != 3:
        raise RuntimeError("max_pool3d: {} must either be a single int, or a tuple of three ints".format(name))
    return t


def _separable_max(input, nd, pool1d):
    # Max over an nd-dim window as a chain of 1-d max pools over the last nd
    # dims; pool1d(rows, d) -> (values, indices).  Returns values and the flat
    # index of the chosen element in the input's last nd dims (row-major), the
    # first maximum in scanning order as ATen picks it.
    sizes = list(input.shape[-nd:])
    vals = input
    idx = None  # per remaining dim: index tensors (same shape as vals)
    comps = []
    for j in range(nd - 1, -1, -1):
        dim = input.dim() - nd + j
        d = j
        r = _along(vals, dim, lambda t: pool1d(t, d))
        vals = r[0]
        sel = r[1]
        comps = [c.gather(dim, sel) for c in comps]
        comps.insert(0, sel)
    flat = comps[0]
    for j in range(1, nd):
        flat = flat * sizes[j] + comps[j]
    return vals, flat


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    if input.dim() != 4 and input.dim() != 5:
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    k = _expand3(kernel_size, 'kernel_size')
    if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0):
        s = k
    else:
        s = _expand3(stride, 'stride')
    p = _expand3(padding, 'padding')
    dl = _expand3(dilation, 'dilation')

    def pool(t, d):
        return torch.max_pool1d_with_indices(t, [k[d]], [s[d]], [p[d]], [dl[d]], ceil_mode)
    return _separable_max(input, 3, pool)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    if stride is None:
        stride = []
    return torch.max_pool3d(input, _triple(kernel_size), _triple(stride), _triple(padding),
                            _triple(dilation), ceil_mode)


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
    return list(ret)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, nd):
    ks = _ntuple(kernel_size, nd)
    if stride is not None:
        st = _ntuple(stride, nd)
    else:
        st = ks
    pd = _ntuple(padding, nd)
    out_sz = _unpool_output_size(input, ks, st, pd, output_size)
    lead = list(input.shape[:-nd])
    n = 1
    for v in out_sz:
        n = n * v
    flat_in = input.reshape(lead + [-1])
    flat_idx = indices.reshape(lead + [-1])
    out = torch.zeros(lead + [n], dtype=input.dtype, device=input.device)
    out = out.scatter(-1, flat_idx, flat_in)
    return out.reshape(lead + out_sz)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


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
    if input.dim() != 4 and input.dim() != 5:
        raise RuntimeError("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {}".format(list(input.shape)))
    osz = _list_with_default(output_size, input.size())
    osz = _expand3(osz, 'output_size')
    shp = list(input.shape)
    D, H, W = shp[-3], shp[-2], shp[-1]
    y = F.adaptive_avg_pool2d(input.reshape(-1, H, W), [osz[1], osz[2]])
    y = y.reshape(-1, D, osz[1] * osz[2]).transpose(1, 2)
    z = torch.adaptive_avg_pool1d(y, [osz[0]])
    return z.transpose(1, 2).reshape(shp[:-3] + [osz[0], osz[1], osz[2]])


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return torch.adaptive_max_pool1d(input, _single(output_size))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool1d_with_indices(input, output_size)
    return torch.adaptive_max_pool1d(input, _single(output_size))[0]


def _adaptive_max_nd(input, output_size, nd):
    if input.dim() != nd + 1 and input.dim() != nd + 2:
        raise RuntimeError("adaptive_max_pool{}d(): Expected {}D or {}D tensor, but got: {}".format(
            nd, nd + 1, nd + 2, list(input.shape)))
    osz = _list_with_default(output_size, input.size())
    osz = _ntuple(osz, nd)
    if len(osz) == 1:
        osz = tuple([osz[0] for _ in range(nd)])
    if len(osz) != nd:
        raise RuntimeError("adaptive_max_pool{}d: internal error: output_size.size() must be {}".format(nd, nd))

    def pool(t, d):
        return torch.adaptive_max_pool1d(t, [osz[d]])
    return _separable_max(input, nd, pool)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_nd(input, output_size, 2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    r = _adaptive_max_nd(input, output_size, 2)
    if return_indices:
        return r
    return r[0]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_nd(input, output_size, 3)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    r = _adaptive_max_nd(input, output_size, 3)
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
    n = input.size(dim)
    if n % 2 != 0:
        raise RuntimeError("Halving dimension must be even, but dimension {} is size {}".format(
            dim if dim >= 0 else dim + input.dim(), n))
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


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


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError("lambda must be greater or equal to 0, but found to be {}.".format(lambd))
    zero = torch.zeros((), dtype=input.dtype)
    return torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, zero))


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
    enum = _reduction_enum(reduction)
    bt = torch.broadcast_tensors(input, target)
    diff = bt[0] - bt[1]
    z = diff.abs()
    loss = torch.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    if enum == 1:
        return loss.mean()
    if enum == 2:
        return loss.sum()
    return loss


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
    enum = _enum_of(size_average, reduce, reduction)
    loss = torch.log1p(torch.exp(-target * input))
    return _by_enum(loss, enum)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    enum = _enum_of(size_average, reduce, reduction)
    x = input
    y = target
    if x.dim() <= 1:
        x = x.reshape(1, -1)
        y = y.reshape(1, -1)
    n, c = x.shape[0], x.shape[1]
    # the labels of a row are its leading entries up to the first -1
    valid = (y >= 0).long().cumprod(1).bool()
    yc = torch.where(valid, y, torch.zeros_like(y))
    is_target = ((yc.unsqueeze(2) == torch.arange(c)) & valid.unsqueeze(2)).any(1)
    xt = x.gather(1, yc)  # (n, c): x[y_j]
    hinge = (1 - (xt.unsqueeze(2) - x.unsqueeze(1))).clamp(min=0)  # (n, j, i)
    mask = valid.unsqueeze(2) & (~is_target).unsqueeze(1)
    loss = (hinge * mask).sum((1, 2)) / c
    if input.dim() <= 1 and enum == 0:
        loss = loss.reshape(())
    return _by_enum(loss, enum)


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
    enum = _enum_of(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None:
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    x = input
    y = target
    if x.dim() <= 1:
        x = x.reshape(1, -1)
        y = y.reshape(-1)
    c = x.shape[1]
    xy = x.gather(1, y.reshape(-1, 1))
    z = (margin - xy + x).clamp(min=0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight[y].reshape(-1, 1)
    notself = torch.ones_like(x, dtype=torch.bool).scatter(1, y.reshape(-1, 1), False)
    loss = (z * notself).sum(1) / c
    if input.dim() <= 1 and enum == 0:
        loss = loss.reshape(())
    return _by_enum(loss, enum)


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


# ----------------------------------------------------------------------------- interpolation

def _f32(v):
    return torch.tensor(v, dtype=torch.float32)


def _nearest_src(in_size, out_size, scale, device):
    if out_size == in_size:
        return torch.arange(out_size, device=device)
    if out_size == 2 * in_size:
        return torch.div(torch.arange(out_size, device=device), 2, rounding_mode='floor')
    if scale is not None and scale > 0:
        s = _f32(1.0 / scale)
    else:
        s = _f32(float(in_size)) / _f32(float(out_size))
    src = torch.floor(torch.arange(out_size, dtype=torch.float32, device=device) * s).long()
    return src.clamp(max=in_size - 1)


def _linear_src(in_size, out_size, align_corners, scale, device):
    # indices i0, i1 and weights l0, l1 as ATen's linear interpolation computes them (float32)
    if align_corners:
        if out_size > 1:
            s = _f32(float(in_size - 1)) / _f32(float(out_size - 1))
        else:
            s = _f32(0.0)
    elif scale is not None and scale > 0:
        s = _f32(1.0 / scale)
    else:
        s = _f32(float(in_size)) / _f32(float(out_size))
    dst = torch.arange(out_size, dtype=torch.float32, device=device)
    if align_corners:
        real = dst * s
    else:
        real = ((dst + 0.5) * s - 0.5).clamp(min=0)
    i0 = real.long()
    i1 = torch.where(i0 < in_size - 1, i0 + 1, i0)
    l1 = real - i0.float()
    l0 = 1.0 - l1
    return i0, i1, l0, l1


def _interp_output_size(input, output_size, scale_factors, dim):
    if output_size is not None:
        return [int(v) for v in output_size]
    out = []
    for i in range(dim):
        out.append(int(math.floor(float(input.size(i + 2)) * scale_factors[i])))
    return out


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
    if mode == 'area' and 3 <= nd and nd <= 5:
        if nd == 3:
            return torch.adaptive_avg_pool1d(input, output_size)
        if nd == 4:
            return F.adaptive_avg_pool2d(input, output_size)
        return adaptive_avg_pool3d(input, output_size)
    supported = (mode == 'nearest' and 3 <= nd and nd <= 5) or (mode == 'linear' and nd == 3) or \
        (mode == 'bilinear' and nd == 4) or (mode == 'trilinear' and nd == 5)
    if supported and not antialias:
        osz = _interp_output_size(input, output_size, scale_factors, dim)
        for v in osz:
            if v <= 0:
                raise RuntimeError(
                    "Input and output sizes should be greater than 0, but got input ({}) and output ({})".format(
                        ", ".join([str(input.size(i + 2)) for i in range(dim)]),
                        ", ".join([str(v2) for v2 in osz])))
        x = input
        if mode == 'nearest':
            for i in range(dim):
                sc = None if scale_factors is None else scale_factors[i]
                idx = _nearest_src(input.size(i + 2), osz[i], sc, input.device)
                x = x.index_select(i + 2, idx)
            return x
        # (bi/tri)linear: interpolate along the last dim first, as ATen nests it
        for i in range(dim - 1, -1, -1):
            sc = None if scale_factors is None else scale_factors[i]
            i0, i1, l0, l1 = _linear_src(input.size(i + 2), osz[i], align_corners, sc, input.device)
            shape = [1 for _ in range(nd)]
            shape[i + 2] = osz[i]
            l0 = l0.to(x.dtype).reshape(shape)
            l1 = l1.to(x.dtype).reshape(shape)
            x = x.index_select(i + 2, i0) * l0 + x.index_select(i + 2, i1) * l1
        return x
    if mode == 'nearest-exact' or mode == 'bicubic' or antialias:
        raise NotImplementedError("interpolate: mode '{}'{} is not available in model scripts".format(
            mode, " with antialias" if antialias else ""))

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


# ----------------------------------------------------------------------------- unfold / fold

def _unfold_geometry(kernel_size, dilation, padding, stride):
    return _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() != 4 and input.dim() != 3:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got: {}".format(
                list(input.shape)))
    k, d, p, s = _unfold_geometry(kernel_size, dilation, padding, stride)
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    n, c = x.shape[0], x.shape[1]
    x = F.pad(x, (p[1], p[1], p[0], p[0]))
    eh = d[0] * (k[0] - 1) + 1
    ew = d[1] * (k[1] - 1) + 1
    patches = x.unfold(2, eh, s[0]).unfold(3, ew, s[1])  # n, c, oh, ow, eh, ew
    patches = patches[:, :, :, :, ::d[0], ::d[1]]
    oh, ow = patches.shape[2], patches.shape[3]
    out = patches.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k[0] * k[1], oh * ow)
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() != 3 and input.dim() != 2:
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got: {}".format(
                list(input.shape)))
    o = _pair(output_size)
    k, d, p, s = _unfold_geometry(kernel_size, dilation, padding, stride)
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    n, ckk, L = x.shape[0], x.shape[1], x.shape[2]
    kk = k[0] * k[1]
    if ckk % kk != 0:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            "input.size(1)={} and kernel_size=({}, {}).".format(ckk, k[0], k[1]))
    c = ckk // kk
    hp = o[0] + 2 * p[0]
    wp = o[1] + 2 * p[1]
    oh = (hp - (d[0] * (k[0] - 1) + 1)) // s[0] + 1
    ow = (wp - (d[1] * (k[1] - 1) + 1)) // s[1] + 1
    if oh * ow != L:
        raise RuntimeError(
            "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), "
            "stride=({}, {}), expected size of input's dimension 2 to match the calculated number of sliding "
            "blocks {} * {} = {}, but got input.size(2)={}.".format(
                o[0], o[1], k[0], k[1], d[0], d[1], p[0], p[1], s[0], s[1], oh, ow, oh * ow, L))
    ki = torch.arange(k[0]).reshape(k[0], 1, 1, 1) * d[0]
    kj = torch.arange(k[1]).reshape(1, k[1], 1, 1) * d[1]
    bi = torch.arange(oh).reshape(1, 1, oh, 1) * s[0]
    bj = torch.arange(ow).reshape(1, 1, 1, ow) * s[1]
    pos = ((ki + bi) * wp + (kj + bj)).reshape(-1)  # (kh*kw*oh*ow)
    cols = x.reshape(n, c, kk * L)
    out = torch.zeros((n, c, hp * wp), dtype=x.dtype, device=x.device)
    out = out.index_add(2, pos, cols)
    out = out.reshape(n, c, hp, wp)[:, :, p[0]:p[0] + o[0], p[1]:p[1] + o[1]]
    return out if batched else out.squeeze(0)
