# Fuselab prelude: more of torch.nn.functional (PyTorch 1.13 behaviour)
#
# Runs as its own module with globals torch, F (the torch.nn.functional built
# into the interpreter) and math; every name in __all__ is added to
# torch.nn.functional.  Only names the built-in F lacks are listed there.
#
# Each function calls the ATen kernel 1.13's torch/nn/functional.py calls
# (torch._C._nn.* reaches any ATen operator by its registry name), so values
# are bit-identical and grad_fn names are PyTorch's.
#
# Layout of this module:
#   1. error texts in one table (_MESSAGES), raised through _fail();
#   2. shared helpers: size tuples (also used by the nn_*.py files through
#      the loader's `_functional`), table look-up, reduction codes;
#   3. pooling, driven by kernel tables keyed by rank (max / adaptive /
#      fractional / unpool), so each public function is a thin entry point;
#   4. dropout and activations (in-place / out-of-place kernel pairs);
#   5. embedding_bag and the normalisations;
#   6. losses;
#   7. interpolate (a (rank, mode) kernel table), grid sampling, fold.
#
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


# ----------------------------------------------------------------------------- error texts

# Word for word 1.13's messages; the `{}` slots are filled by _fail().
_MESSAGES = {
    'min_dims': "Input dimension should be at least {}",
    'reduction': "{} is not a valid value for reduction",
    'not_valid': " is not valid",
    'dropout_p': "dropout probability has to be between 0 and 1, but got {}",
    'unpool_len': "output_size should be a sequence containing {} or {} elements, but it has a length of '{}'",
    'unpool_range': 'invalid output_size "{}" (dim {} must be between {} and {})',
    'fractional': "fractional_max_pool{}d requires specifying either an output_size or an output_ratio",
    'dropout1d': ("dropout1d: Expected 2D or 3D input, but received a {}D input. Note that dropout1d exists to "
                  "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an "
                  "optional batch dimension (i.e. 2D or 3D inputs)."),
    'glu_scalar': "glu does not support scalars because halving size must be even",
    'bag_weights': ("embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as "
                    "the input ({})"),
    'bag_offsets_2d': ("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                       "length sequences. However, found offsets of type <class 'torch.Tensor'>"),
    'bag_no_offsets': "offsets has to be a 1D Tensor but got None",
    'bag_offsets_dim': "offsets has to be a 1D Tensor",
    'bag_input_dim': "input has to be 1D or 2D Tensor, but got Tensor of dimension {}",
    'bag_max_freq': "max mode does not support scaling the gradient by the frequency",
    'bag_max_sparse': "max mode does not support sparse weights",
    'bag_mode': "mode has to be one of sum, mean or max",
    'bag_weighted_mode': ("embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                          "mode='sum' (got mode='{}'). Please open a feature request on GitHub."),
    'spatial_one': "Expected more than 1 spatial element when training, got input size {}",
    'channel_one': "Expected more than 1 value per channel when training, got input size {}",
    'lrn_dims': "Expected 3D or higher dimensionality                          input (got {} dimensions)",
    'var_size': "var is of incorrect size",
    'var_negative': "var has negative entry/entries",
    'ranking_dims': ("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                     "input1: {}, input2: {}, target: {} "),
    'margin_p': "only p == 1 and p == 2 supported",
    'margin_weight': "weight must be one-dimensional",
    'align_unused': ("align_corners option can only be set with the interpolating modes: "
                     "linear | bilinear | bicubic | trilinear"),
    'size_and_scale': "only one of size or scale_factor should be defined",
    'size_rank': ("Input and output must have the same number of spatial dimensions, but got input with "
                  "spatial dimensions of {} and output size of {}. Please provide input tensor in (N, C, d1, "
                  "d2, ...,dK) format and output size in (o1, o2, ...,oK) format."),
    'scale_rank': ("Input and scale_factor must have the same number of spatial dimensions, but got input "
                   "with spatial dimensions of {} and scale_factor of shape {}. Please provide input tensor "
                   "in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format."),
    'no_size': "either size or scale_factor should be defined",
    'recompute_size': "recompute_scale_factor is not meaningful with an explicit size.",
    'antialias': "Anti-alias option is only supported for bilinear and bicubic modes",
    'mode_rank': "Got {}D input, but {} mode needs {}D input",
    'resample_rank': ("Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: nearest "
                      "| linear | bilinear | bicubic | trilinear | area | nearest-exact (got {})"),
    'grid_mode': ("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                  "but got: '{}'"),
    'grid_padding': ("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                     "'reflection', but got: '{}'"),
    'theta_dtype': "Expected theta to have floating point type, but got {}",
    'theta_shape': "Expected a batch of {}D affine matrices of shape Nx{}x{} for size {}. Got {}.",
    'affine_rank': ("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
                    "Got size {}."),
    'affine_size': "Expected non-zero, positive output size. Got {}",
}


def _fail(kind, key, *fill):
    raise kind(_MESSAGES[key].format(*fill))


# ----------------------------------------------------------------------------- shared helpers

def _ntuple(x, n):
    # a list/tuple becomes a tuple as it is; anything else is repeated n times
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return tuple([x] * n)


def _single(x):
    return _ntuple(x, 1)


def _pair(x):
    return _ntuple(x, 2)


def _triple(x):
    return _ntuple(x, 3)


def _as_given(x):
    return x


def _lookup(pairs, key):
    # linear search with == (so unhashable keys just miss); None when absent
    for name, value in pairs:
        if key == name:
            return value
    return None


def _pick(inplace, in_place_kernel, kernel):
    return in_place_kernel if inplace else kernel


def _product(values):
    total = 1
    for v in values:
        total = total * v
    return total


def _fill_none_sizes(out_size, defaults):
    # adaptive pools: None entries of output_size keep the input's own size
    if isinstance(out_size, int):
        return out_size
    count = len(out_size)
    if len(defaults) <= count:
        _fail(ValueError, 'min_dims', count + 1)
    tail = list(defaults)[-count:]
    return [tail[k] if out_size[k] is None else out_size[k] for k in range(count)]


# Reductions: 1.13's enum codes; the legacy flags size_average / reduce (None
# meaning "not given", i.e. True) override `reduction` when either is given.
_REDUCTION_CODES = [('none', 0), ('mean', 1), ('elementwise_mean', 1), ('sum', 2)]
_REDUCTION_NAMES = ('none', 'mean', 'sum')


def _reduction_enum(reduction):
    code = _lookup(_REDUCTION_CODES, reduction)
    if code is None:
        _fail(ValueError, 'reduction', reduction)
    return code


def _reduction_name(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    averaged = True if size_average is None else size_average
    reduced = True if reduce is None else reduce
    if not reduced:
        return 'none'
    return 'mean' if averaged else 'sum'


def _reduction_code(size_average, reduce, reduction):
    return _reduction_enum(_reduction_name(size_average, reduce, reduction))


def _require_reduction_name(reduction):
    # the losses written in Python accept only the three names ('x' + text, as 1.13)
    if reduction not in _REDUCTION_NAMES:
        raise ValueError(reduction + _MESSAGES['not_valid'])


def _reduce_by_code(loss, code):
    if code == 2:
        return loss.sum()
    if code == 1:
        return loss.mean()
    return loss


def _reduce_by_name(loss, reduction):
    _require_reduction_name(reduction)
    return _reduce_by_code(loss, _lookup(_REDUCTION_CODES, reduction))


def _check_p(p):
    if p < 0.0 or p > 1.0:
        _fail(ValueError, 'dropout_p', p)


# ----------------------------------------------------------------------------- direct bindings

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
adaptive_avg_pool1d = torch.adaptive_avg_pool1d
softshrink = torch._C._nn.softshrink


# ----------------------------------------------------------------------------- pooling

def _window(shape, kernel_size, stride, *rest):
    # kernel, stride (None: the kernel's own size, which the kernels get as []),
    # then padding / dilation, each passed through `shape`
    sizes = [shape(kernel_size), shape([] if stride is None else stride)]
    for value in rest:
        sizes.append(shape(value))
    return sizes


# (rank, with indices) -> (kernel, how the sizes are passed)
_MAX_POOLS = [
    ((1, False), (torch.max_pool1d, _single)),
    ((1, True), (torch.max_pool1d_with_indices, _single)),
    ((2, True), (torch._C._nn.max_pool2d_with_indices, _as_given)),
    ((3, False), (torch.max_pool3d, _as_given)),
    ((3, True), (torch._C._nn.max_pool3d_with_indices, _as_given)),
]


def _max_pool(rank, with_indices, input, kernel_size, stride, padding, dilation, ceil_mode):
    kernel, shape = _lookup(_MAX_POOLS, (rank, bool(with_indices)))
    sizes = _window(shape, kernel_size, stride, padding, dilation)
    return kernel(*([input] + sizes + [ceil_mode]))


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    sizes = _window(_single, kernel_size, stride, padding)
    return torch.avg_pool1d(*([input] + sizes + [ceil_mode, count_include_pad]))


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    # 1.13 binds torch._C._nn.avg_pool3d directly (stride=None means kernel_size)
    sizes = _window(_as_given, kernel_size, stride, padding)
    return torch._C._nn.avg_pool3d(*([input] + sizes + [ceil_mode, count_include_pad, divisor_override]))


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool(1, True, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    return _max_pool(1, return_indices, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool(2, True, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool(3, True, input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    return _max_pool(3, return_indices, input, kernel_size, stride, padding, dilation, ceil_mode)


def _unpooled_size(input, kernel, step, pad, requested):
    # the size max_unpool produces: the inverse of the pooling arithmetic, or a
    # requested size (optionally with batch and channel) within one stride of it
    rank = len(kernel)
    shape = input.size()
    natural = [(shape[axis - rank] - 1) * step[axis] + kernel[axis] - 2 * pad[axis] for axis in range(rank)]
    if requested is None:
        return natural
    if len(requested) == rank + 2:
        requested = requested[2:]
    if len(requested) != rank:
        _fail(ValueError, 'unpool_len', rank, rank + 2, len(requested))
    for axis in range(rank):
        low = natural[axis] - step[axis]
        high = natural[axis] + step[axis]
        if not (low < requested[axis] and requested[axis] < high):
            _fail(ValueError, 'unpool_range', requested, axis, low, high)
    return requested


def _max_unpool(rank, input, indices, kernel_size, stride, padding, output_size):
    kernel = _ntuple(kernel_size, rank)
    step = kernel if stride is None else _ntuple(stride, rank)
    pad = _ntuple(padding, rank)
    size = _unpooled_size(input, kernel, step, pad, output_size)
    if rank == 3:
        return torch._C._nn.max_unpool3d(input, indices, size, step, pad)
    if rank == 2:
        return torch._C._nn.max_unpool2d(input, indices, size)
    # 1-d: unpool as 2-d with a trailing axis of 1
    size = size + [1] if isinstance(size, list) else tuple(size) + (1,)
    flat = torch._C._nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size)
    return flat.squeeze(-1)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


def _lp_pool(average, input, norm_type, kernel_size, stride, ceil_mode, window):
    # (sum over the window of x**p) ** (1/p), as an average times the window size
    if stride is None:
        mean_pow = average(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    else:
        mean_pow = average(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    kept = torch.sign(mean_pow) * F.relu(torch.abs(mean_pow))
    return kept.mul(window).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _pair(kernel_size)
    return _lp_pool(F.avg_pool2d, input, norm_type, kernel_size, stride, ceil_mode, kw * kh)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(avg_pool1d, input, norm_type, kernel_size, stride, ceil_mode, kernel_size)


def adaptive_avg_pool3d(input, output_size):
    sizes = _fill_none_sizes(output_size, input.size())
    return torch._C._nn.adaptive_avg_pool3d(input, sizes)


def _adaptive_max(rank, input, output_size, with_indices):
    # the kernels return (values, indices); 1-d takes output_size as given
    if rank == 1:
        both = torch.adaptive_max_pool1d(input, output_size)
    else:
        kernel = torch._C._nn.adaptive_max_pool2d if rank == 2 else torch._C._nn.adaptive_max_pool3d
        both = kernel(input, _fill_none_sizes(output_size, input.size()))
    return both if with_indices else both[0]


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(1, input, output_size, True)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    return _adaptive_max(1, input, output_size, return_indices)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(2, input, output_size, True)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _adaptive_max(2, input, output_size, return_indices)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(3, input, output_size, True)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    return _adaptive_max(3, input, output_size, return_indices)


# ----------------------------------------------------------------------------- fractional max pooling

def _fractional_max(rank, input, kernel_size, output_size, output_ratio, samples):
    # returns (values, indices); the random samples are drawn as 1.13 draws them
    if output_size is None:
        if output_ratio is None:
            _fail(ValueError, 'fractional', rank)
        ratio = _ntuple(output_ratio, rank)
        output_size = [int(input.size(axis - rank) * ratio[axis]) for axis in range(rank)]
    if samples is None:
        batch = input.size(0) if input.dim() != rank + 1 else 1
        samples = torch.rand(batch, input.size(-1 - rank), rank, dtype=input.dtype, device=input.device)
    kernel = torch._C._nn.fractional_max_pool2d if rank == 2 else torch._C._nn.fractional_max_pool3d
    return kernel(input, kernel_size, output_size, samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    both = _fractional_max(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return both if return_indices else both[0]


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    both = _fractional_max(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return both if return_indices else both[0]


# ----------------------------------------------------------------------------- dropout

def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return _pick(inplace, torch.alpha_dropout_, torch.alpha_dropout)(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return _pick(inplace, torch.feature_alpha_dropout_, torch.feature_alpha_dropout)(input, p, training)


def _channel_dropout(input, p, training, inplace, unbatched):
    # whole channels zeroed; an unbatched input gets a leading axis for the kernel
    if not unbatched:
        return _pick(inplace, torch.feature_dropout_, torch.feature_dropout)(input, p, training)
    batched = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _channel_dropout(batched, p, training, inplace, False)
    return out.squeeze_(0) if inplace else out.squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        _fail(RuntimeError, 'dropout1d', ndim)
    return _channel_dropout(input, p, training, inplace, ndim == 2)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _channel_dropout(input, p, training, inplace, False)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    return _channel_dropout(input, p, training, inplace, input.dim() != 5)


# ----------------------------------------------------------------------------- activations

def threshold(input, threshold, value, inplace=False):
    return _pick(inplace, torch.threshold_, torch.threshold)(input, threshold, value)


def threshold_(input, threshold, value):
    return torch.threshold_(input, threshold, value)


def relu_(input):
    return F.relu(input, inplace=True)


def glu(input, dim=-1):
    if input.dim() == 0:
        _fail(RuntimeError, 'glu_scalar')
    return torch._C._nn.glu(input, dim)


def hardtanh_(input, min_val=-1., max_val=1.):
    return F.hardtanh(input, min_val, max_val, True)


def elu_(input, alpha=1.):
    return F.elu(input, alpha, True)


def selu(input, inplace=False):
    return _pick(inplace, torch.selu_, torch.selu)(input)


def selu_(input):
    return torch.selu_(input)


def celu(input, alpha=1., inplace=False):
    return _pick(inplace, torch.celu_, torch.celu)(input, alpha)


def celu_(input, alpha=1.):
    return torch.celu_(input, alpha)


def leaky_relu_(input, negative_slope=0.01):
    return F.leaky_relu(input, negative_slope, True)


def rrelu(input, lower=1. / 8, upper=1. / 3, training=False, inplace=False):
    return _pick(inplace, torch.rrelu_, torch.rrelu)(input, lower, upper, training)


def rrelu_(input, lower=1. / 8, upper=1. / 3, training=False):
    return torch.rrelu_(input, lower, upper, training)


def tanhshrink(input):
    return input - input.tanh()


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        # 1.13's implicit softmax dimension
        dim = 0 if input.dim() in (0, 1, 3) else 1
    flipped = -input
    if dtype is None:
        return flipped.softmax(dim)
    return flipped.softmax(dim, dtype=dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    noise = -torch.empty_like(logits).exponential_().log()
    soft = ((logits + noise) / tau).softmax(dim)
    if not hard:
        return soft
    # straight-through: one-hot of the argmax forward, the soft gradient backward
    winner = soft.max(dim, keepdim=True)[1]
    one_hot = torch.zeros_like(logits).scatter_(dim, winner, 1.0)
    return one_hot - soft.detach() + soft


# ----------------------------------------------------------------------------- embedding / normalization

_BAG_MODES = [('sum', 0), ('mean', 1), ('max', 2)]


def _bag_layout(input, offsets, weights):
    # (flat indices, offsets, flat per-sample weights): a 2-D input is one bag per row
    ndim = input.dim()
    if ndim == 2:
        if offsets is not None:
            _fail(ValueError, 'bag_offsets_2d')
        starts = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        flat_weights = None if weights is None else weights.reshape(-1)
        return input.reshape(-1), starts, flat_weights
    if ndim != 1:
        _fail(ValueError, 'bag_input_dim', ndim)
    if offsets is None:
        _fail(ValueError, 'bag_no_offsets')
    if offsets.dim() != 1:
        _fail(ValueError, 'bag_offsets_dim')
    return input, offsets, weights


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    if weight.dtype == torch.long and input.is_floating_point():
        # the pre-1.0 argument order (weight first) is still accepted
        input, weight = weight, input
    weights = per_sample_weights
    if weights is not None and input.size() != weights.size():
        _fail(ValueError, 'bag_weights', weights.shape, input.shape)
    input, offsets, weights = _bag_layout(input, offsets, weights)
    code = _lookup(_BAG_MODES, mode)
    if code is None:
        _fail(ValueError, 'bag_mode')
    if code == 2 and scale_grad_by_freq:
        _fail(ValueError, 'bag_max_freq')
    if code == 2 and sparse:
        _fail(ValueError, 'bag_max_sparse')
    if max_norm is not None:
        with torch.no_grad():
            torch.embedding_renorm_(weight, input, max_norm, norm_type)
    if weights is not None and code != 0:
        _fail(NotImplementedError, 'bag_weighted_mode', mode)
    outputs = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, code, sparse,
                                  weights, include_last_offset, padding_idx)
    return outputs[0]


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    if use_input_stats and _product(list(input.size())[2:]) == 1:
        _fail(ValueError, 'spatial_one', input.size())
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                               momentum, eps, False)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    grouped = [input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:])
    if grouped[0] * _product(grouped[2:]) == 1:
        _fail(ValueError, 'channel_one', grouped)
    return torch.group_norm(input, num_groups, weight, bias, eps, False)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    ndim = input.dim()
    if ndim < 3:
        _fail(ValueError, 'lrn_dims', ndim)
    if input.numel() == 0:
        return input
    before = size // 2
    after = (size - 1) // 2
    squares = input.mul(input).unsqueeze(1)
    if ndim == 3:
        padded = F.pad(squares, (0, 0, before, after))
        window_mean = F.avg_pool2d(padded, (size, 1), stride=1).squeeze(1)
    else:
        shape = input.size()
        folded = squares.view(shape[0], 1, shape[1], shape[2], -1)
        padded = F.pad(folded, (0, 0, 0, 0, before, after))
        window_mean = avg_pool3d(padded, (size, 1, 1), stride=1).squeeze(1).view(shape)
    return input / window_mean.mul(alpha).add(k).pow(beta)


# ----------------------------------------------------------------------------- losses

def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction='mean'):
    name = _reduction_name(size_average, reduce, reduction)
    _require_reduction_name(name)
    return torch.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(name))


def _matched_var(input, var):
    # var may lack the last axis, or have it of size 1 (homoscedastic)
    if var.size() == input.size():
        return var
    lead = input.size()[:-1]
    if lead == var.size():
        return torch.unsqueeze(var, -1)
    if lead == var.size()[:-1] and var.size(-1) == 1:
        return var
    _fail(ValueError, 'var_size')


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    var = _matched_var(input, var)
    _require_reduction_name(reduction)
    if torch.any(var < 0):
        _fail(ValueError, 'var_negative')
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce_by_code(loss, _reduction_enum(reduction))


def kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
    if size_average is None and reduce is None and reduction == 'batchmean':
        code = 2
    else:
        code = _reduction_code(size_average, reduce, reduction)
    out = torch.kl_div(input, target, code, log_target=log_target)
    if reduction == 'batchmean' and input.dim() != 0:
        out = out / input.size()[0]
    return out


def huber_loss(input, target, reduction='mean', delta=1.0):
    pair = torch.broadcast_tensors(input, target)
    return torch._C._nn.huber_loss(pair[0], pair[1], _reduction_enum(reduction), delta)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    ndim = input1.dim()
    if input2.dim() != ndim or target.dim() != ndim:
        _fail(RuntimeError, 'ranking_dims', input1.size(), input2.size(), target.size())
    return torch.margin_ranking_loss(input1, input2, target, margin, code)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    return torch.hinge_embedding_loss(input, target, margin, code)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    return torch._C._nn.soft_margin_loss(input, target, code)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    return torch._C._nn.multilabel_margin_loss(input, target, code)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    name = _reduction_name(size_average, reduce, reduction)
    loss = -(target * F.logsigmoid(input) + (1 - target) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    last = input.dim() - 1
    loss = loss.sum(dim=last) / input.size(last)
    return _reduce_by_name(loss, name)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    return torch.cosine_embedding_loss(input1, input2, target, margin, code)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    if p not in (1, 2):
        _fail(ValueError, 'margin_p')
    if weight is not None and weight.dim() != 1:
        _fail(ValueError, 'margin_weight')
    return torch._C._nn.multi_margin_loss(input, target, p, margin, weight, code)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction='mean'):
    code = _reduction_code(size_average, reduce, reduction)
    return torch.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, code)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction='mean'):
    dist = pairwise_distance if distance_function is None else distance_function
    to_positive = dist(anchor, positive)
    to_negative = dist(anchor, negative)
    if swap:
        to_negative = torch.min(to_negative, dist(positive, negative))
    hinge = torch.clamp(to_positive - to_negative + margin, min=0.0)
    return _reduce_by_code(hinge, _reduction_enum(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
             zero_infinity=False):
    code = _reduction_enum(reduction)
    return torch.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, code, zero_infinity)


# ----------------------------------------------------------------------------- interpolation

# (input rank, mode) -> ATen kernel.  The upsample_* kernels have two overloads;
# scale_factors= picks the .vec one, which 1.13 calls (grad_fn ...Backward1).
_RESAMPLE_KERNELS = [
    ((3, 'nearest'), 'upsample_nearest1d'),
    ((4, 'nearest'), 'upsample_nearest2d'),
    ((5, 'nearest'), 'upsample_nearest3d'),
    ((3, 'nearest-exact'), '_upsample_nearest_exact1d'),
    ((4, 'nearest-exact'), '_upsample_nearest_exact2d'),
    ((5, 'nearest-exact'), '_upsample_nearest_exact3d'),
    ((3, 'linear'), 'upsample_linear1d'),
    ((4, 'bilinear'), 'upsample_bilinear2d'),
    ((5, 'trilinear'), 'upsample_trilinear3d'),
    ((4, 'bicubic'), 'upsample_bicubic2d'),
]
_UNALIGNED_MODES = ('nearest', 'area', 'nearest-exact')
_ANTIALIASED_MODES = ('bilinear', 'bicubic')
_MODE_RANKS = [('linear', 3), ('bilinear', 4), ('trilinear', 5)]


def _per_spatial_axis(value, count, key, input):
    # one value per spatial axis: a sequence of the right length, or a scalar repeated
    if not isinstance(value, (list, tuple)):
        return [value for _ in range(count)]
    if len(value) != count:
        _fail(ValueError, key, list(input.shape[2:]), value)
    return value


def _resample(input, mode, output_size, scale_factors, align_corners, antialias):
    ndim = input.dim()
    if mode == 'area' and 3 <= ndim <= 5:
        pool = [F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, adaptive_avg_pool3d][ndim - 3]
        return pool(input, output_size)
    name = _lookup(_RESAMPLE_KERNELS, (ndim, mode))
    if name is not None:
        if antialias:
            name = '_' + name + '_aa'
        kernel = getattr(torch._C._nn, name)
        if mode in _UNALIGNED_MODES:
            return kernel(input, output_size, scale_factors=scale_factors)
        return kernel(input, output_size, align_corners, scale_factors=scale_factors)
    needed = _lookup(_MODE_RANKS, mode)
    if needed is not None and 3 <= ndim <= 5:
        _fail(NotImplementedError, 'mode_rank', ndim, mode, needed)
    _fail(NotImplementedError, 'resample_rank', ndim, mode)


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode in _UNALIGNED_MODES:
        if align_corners is not None:
            _fail(ValueError, 'align_unused')
    elif align_corners is None:
        align_corners = False
    spatial = input.dim() - 2
    if size is not None:
        if scale_factor is not None:
            _fail(ValueError, 'size_and_scale')
        output_size = _per_spatial_axis(size, spatial, 'size_rank', input)
        scale_factors = None
    elif scale_factor is not None:
        output_size = None
        scale_factors = _per_spatial_axis(scale_factor, spatial, 'scale_rank', input)
    else:
        _fail(ValueError, 'no_size')
    if recompute_scale_factor and size is not None:
        _fail(ValueError, 'recompute_size')
    if mode == 'area' and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        # the output size from the scale factors, then resampled by size alone
        output_size = [int(math.floor(float(input.size(axis + 2)) * scale_factors[axis]))
                       for axis in range(spatial)]
        scale_factors = None
    if antialias and (mode not in _ANTIALIASED_MODES or input.ndim != 4):
        _fail(ValueError, 'antialias')
    return _resample(input, mode, output_size, scale_factors, align_corners, antialias)


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    return interpolate(input, size, scale_factor, mode=mode, align_corners=align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='nearest')


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


# ----------------------------------------------------------------------------- grid sampling

GRID_SAMPLE_INTERPOLATION_MODES = {'bilinear': 0, 'nearest': 1, 'bicubic': 2}
GRID_SAMPLE_PADDING_MODES = {'zeros': 0, 'border': 1, 'reflection': 2}


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    mode_code = _lookup(list(GRID_SAMPLE_INTERPOLATION_MODES.items()), mode)
    if mode_code is None:
        _fail(ValueError, 'grid_mode', mode)
    padding_code = _lookup(list(GRID_SAMPLE_PADDING_MODES.items()), padding_mode)
    if padding_code is None:
        _fail(ValueError, 'grid_padding', padding_mode)
    corners = False if align_corners is None else align_corners
    return torch.grid_sampler(input, grid, mode_code, padding_code, corners)


# output rank -> the (rows, cols) of one affine matrix
_AFFINE_MATRIX = [(4, (2, 3)), (5, (3, 4))]


def affine_grid(theta, size, align_corners=None):
    corners = False if align_corners is None else align_corners
    if not theta.is_floating_point():
        _fail(ValueError, 'theta_dtype', theta.dtype)
    matrix = _lookup(_AFFINE_MATRIX, len(size))
    if matrix is None:
        _fail(NotImplementedError, 'affine_rank', size)
    rows, cols = matrix
    if theta.dim() != 3 or theta.shape[-2] != rows or theta.shape[-1] != cols:
        _fail(ValueError, 'theta_shape', rows, rows, cols, size, theta.shape)
    single_pixel = corners and min(size[-rows:]) == 1
    if not single_pixel and min(size) <= 0:
        _fail(ValueError, 'affine_size', size)
    return torch.affine_grid_generator(theta, size, corners)


# ----------------------------------------------------------------------------- unfold / fold

def assert_int_or_pair(arg, arg_name, message):
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    sizes = [_pair(v) for v in (kernel_size, dilation, padding, stride)]
    return torch._C._nn.im2col(*([input] + sizes))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    sizes = [_pair(v) for v in (output_size, kernel_size, dilation, padding, stride)]
    return torch._C._nn.col2im(*([input] + sizes))
