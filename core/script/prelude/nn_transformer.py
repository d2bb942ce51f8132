# Fuselab prelude: attention and transformer layers (torch.nn.modules.transformer,
# plus MultiheadAttention from torch.nn.modules.activation).
#
# Runs as module torch.nn.modules.transformer; loader globals: torch, F, math,
# Parameter, _OrderedDict, init, nn, Module.  Every name in __all__ is added
# to torch.nn.
#
# Follows PyTorch 1.13: same constructor arguments, submodule / parameter
# registration order and initialisation calls (so torch.manual_seed gives the
# same weights), and the same forward op sequence through
# F.multi_head_attention_forward (functional_attention.py), so training-mode
# and autograd-enabled results are bit-identical.
#
# Layout of this module: error texts (one table, raised through _fail); the
# deep copier behind _get_clones; shared helpers that register a layer's
# sublayers in 1.13's order (attention blocks, feed-forward pair, one norm and
# one dropout per residual), wrap a sublayer in its pre- or post-norm residual
# and run the attention / feed-forward branches; then the modules, whose
# forward() methods chain those helpers.
#
# Differences from 1.13:
#  - The inference "fast paths" are not taken: 1.13's MultiheadAttention and
#    TransformerEncoderLayer call torch._native_multi_head_attention /
#    torch._transformer_encoder_layer_fwd when in eval mode, with
#    batch_first=True, autograd off (or no parameter requiring grad), an even
#    number of heads and no attn_mask (see 1.13 for the full list), and
#    TransformerEncoder converts the input to a nested tensor when, in
#    addition, a src_key_padding_mask is given.  Those fused kernels are not
#    reachable here, so the regular (training-path) computation is used in all
#    cases.  Results then agree with 1.13 to float rounding (not bit for bit),
#    and with the nested-tensor path the outputs at padded positions are the
#    regular path's values, where 1.13 returns zeros.
#  - NestedTensor inputs are not supported.
#  - _get_clones deep-copies modules with a small copier written here (the
#    prelude cannot import copy); it handles tensors, parameters, containers,
#    plain-attribute objects and modules.


__all__ = ['MultiheadAttention', 'Transformer', 'TransformerEncoder', 'TransformerDecoder',
           'TransformerEncoderLayer', 'TransformerDecoderLayer']


# ----------------------------------------------------------------------------- error texts

# Word for word 1.13's; filled by _fail().
_MESSAGES = {
    'activation': "activation should be relu/gelu, not {}",
    'mask_dtype': "only bool and floating types of key_padding_mask are supported",
    'heads': "embed_dim must be divisible by num_heads",
    'batch': "the batch number of src and tgt must be equal",
    'features': "the feature number of src and tgt must be equal to d_model",
    'deepcopy': ("Only Tensors created explicitly by the user (graph leaves) support "
                 "the deepcopy protocol at the moment"),
}


def _fail(kind, key, *fill):
    raise kind(_MESSAGES[key].format(*fill))


# ----------------------------------------------------------------------------- deep copy

_ATOMIC_TYPE_NAMES = ('function', 'builtin_function_or_method', 'method', 'dtype', 'device',
                      'NoneType', 'int', 'float', 'bool', 'str', 'complex', 'range', 'type',
                      'module', 'layout', 'memory_format', 'Size')


def _deepcopy(x, memo):
    key = id(x)
    if key in memo:
        return memo[key]
    if x is None or isinstance(x, (int, float, bool, str, type)):
        return x
    if type(x).__name__ in _ATOMIC_TYPE_NAMES:
        return x
    if isinstance(x, torch.Tensor):
        if not x.is_leaf:
            _fail(RuntimeError, 'deepcopy')
        y = x.detach().clone()
        if isinstance(x, Parameter):
            y = Parameter(y, requires_grad=x.requires_grad)
        else:
            y.requires_grad_(x.requires_grad)
        memo[key] = y
        return y
    if isinstance(x, list):
        y = []
        memo[key] = y
        for v in x:
            y.append(_deepcopy(v, memo))
        return y
    if isinstance(x, tuple):
        y = tuple([_deepcopy(v, memo) for v in x])
        memo[key] = y
        return y
    if isinstance(x, dict):
        y = type(x)()
        memo[key] = y
        for k, v in x.items():
            y[_deepcopy(k, memo)] = _deepcopy(v, memo)
        return y
    if isinstance(x, set):
        y = set([_deepcopy(v, memo) for v in x])
        memo[key] = y
        return y
    if hasattr(x, '__deepcopy__'):
        y = x.__deepcopy__(memo)
        memo[key] = y
        return y
    y = object.__new__(type(x))
    memo[key] = y
    for k, v in x.__dict__.items():
        object.__setattr__(y, k, _deepcopy(v, memo))
    return y


def _get_clones(module, N):
    # N independent deep copies (1.13: copy.deepcopy), in a ModuleList
    copies = []
    for _ in range(N):
        copies.append(_deepcopy(module, {}))
    return nn.ModuleList(copies)


# ----------------------------------------------------------------------------- shared helpers

# activation names a layer accepts as strings
_NAMED_ACTIVATIONS = [('relu', F.relu), ('gelu', F.gelu)]


def _get_activation_fn(activation):
    for name, fn in _NAMED_ACTIVATIONS:
        if activation == name:
            return fn
    _fail(RuntimeError, 'activation', activation)


def _resolve_activation(activation):
    return _get_activation_fn(activation) if isinstance(activation, str) else activation


def _activation_code(activation):
    # 1.13 records whether the activation is relu (1) / gelu (2) for its fast path
    if activation is F.relu or isinstance(activation, nn.ReLU):
        return 1
    if activation is F.gelu or isinstance(activation, nn.GELU):
        return 2
    return 0


def _check_key_padding_mask_dtype(mask):
    if mask is None:
        return
    if mask.dtype != torch.bool and not torch.is_floating_point(mask):
        _fail(AssertionError, 'mask_dtype')


def _factory(device, dtype):
    return {'device': device, 'dtype': dtype}


def _add_sublayers(layer, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                   norm_first, factory, attentions, residuals):
    # Registers, in 1.13's order (which fixes the RNG draws, the parameter order
    # and the printed layout): the attention blocks, the feed-forward pair with
    # its dropout, norm_first, one LayerNorm per residual, one Dropout per residual.
    for name in attentions:
        block = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, **factory)
        setattr(layer, name, block)
    layer.linear1 = nn.Linear(d_model, dim_feedforward, **factory)
    layer.dropout = nn.Dropout(dropout)
    layer.linear2 = nn.Linear(dim_feedforward, d_model, **factory)
    layer.norm_first = norm_first
    for k in range(1, residuals + 1):
        setattr(layer, 'norm' + str(k), nn.LayerNorm(d_model, eps=layer_norm_eps, **factory))
    for k in range(1, residuals + 1):
        setattr(layer, 'dropout' + str(k), nn.Dropout(dropout))


def _residual(x, norm, sublayer, norm_first):
    # pre-norm: x + f(norm(x)); post-norm: norm(x + f(x))
    if norm_first:
        return x + sublayer(norm(x))
    return norm(x + sublayer(x))


def _attend(attention, x, source, attn_mask, key_padding_mask, dropout):
    # the attention output without weights, then the residual branch's dropout
    out = attention(x, source, source, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                    need_weights=False)
    return dropout(out[0])


def _feed_forward(layer, x, dropout):
    hidden = layer.dropout(layer.activation(layer.linear1(x)))
    return dropout(layer.linear2(hidden))


def _sequence_first(query, key, value):
    # (batch, seq, feature) -> (seq, batch, feature), transposing a tensor passed
    # as both key and value (and query) only once, so that the identity tests
    # of multi_head_attention_forward see the same sharing as the caller's
    if key is not value:
        return query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)
    moved_query = query.transpose(1, 0)
    moved_key = moved_query if query is key else key.transpose(1, 0)
    return moved_query, moved_key, moved_key


class NonDynamicallyQuantizableLinear(nn.Linear):
    # torch.nn.modules.linear.NonDynamicallyQuantizableLinear: a Linear under
    # another name (MultiheadAttention.out_proj), so it prints that name.
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)


# ----------------------------------------------------------------------------- attention

_PROJECTIONS = ('q_proj_weight', 'k_proj_weight', 'v_proj_weight')


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0., bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 device=None, dtype=None):
        super().__init__()
        factory = _factory(device, dtype)
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        packed = self.kdim == embed_dim and self.vdim == embed_dim
        self._qkv_same_embed_dim = packed

        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            _fail(AssertionError, 'heads')

        # one packed (3E, E) in-projection, or three separate ones (E by E / kdim / vdim);
        # the unused slots are registered as None, in 1.13's order
        separate_shapes = [(embed_dim, embed_dim), (embed_dim, self.kdim), (embed_dim, self.vdim)]
        if packed:
            self.register_parameter('in_proj_weight', Parameter(torch.empty((3 * embed_dim, embed_dim), **factory)))
            for name in _PROJECTIONS:
                self.register_parameter(name, None)
        else:
            for name, shape in zip(_PROJECTIONS, separate_shapes):
                self.register_parameter(name, Parameter(torch.empty(shape, **factory)))
            self.register_parameter('in_proj_weight', None)
        in_bias = Parameter(torch.empty(3 * embed_dim, **factory)) if bias else None
        self.register_parameter('in_proj_bias', in_bias)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)

        # bias_k / bias_v: parameters, or plain None attributes
        for name in ('bias_k', 'bias_v'):
            extra = Parameter(torch.empty((1, 1, embed_dim), **factory)) if add_bias_kv else None
            setattr(self, name, extra)

        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for name in _PROJECTIONS:
                init.xavier_uniform_(getattr(self, name))
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.)
            init.constant_(self.out_proj.bias, 0.)
        for extra in (self.bias_k, self.bias_v):
            if extra is not None:
                init.xavier_normal_(extra)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True):
        swap_batch = self.batch_first and query.dim() == 3
        _check_key_padding_mask_dtype(key_padding_mask)
        # (1.13's native fast path is not available here; see the header.)
        if swap_batch:
            query, key, value = _sequence_first(query, key, value)
        options = {'training': self.training, 'key_padding_mask': key_padding_mask,
                   'need_weights': need_weights, 'attn_mask': attn_mask,
                   'average_attn_weights': average_attn_weights}
        if not self._qkv_same_embed_dim:
            options['use_separate_proj_weight'] = True
            for name in _PROJECTIONS:
                options[name] = getattr(self, name)
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
            self.out_proj.bias, **options)
        if swap_batch:
            out = out.transpose(1, 0)
        return out, weights


# ----------------------------------------------------------------------------- transformer

def _default_stack(layer_cls, stack_cls, count, d_model, nhead, dim_feedforward, dropout, activation,
                   layer_norm_eps, batch_first, norm_first, factory):
    # one layer (cloned `count` times by the stack) plus the final LayerNorm
    layer = layer_cls(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, **factory)
    final_norm = nn.LayerNorm(d_model, eps=layer_norm_eps, **factory)
    return stack_cls(layer, count, final_norm)


class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        shared = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                  norm_first, _factory(device, dtype))
        if custom_encoder is None:
            custom_encoder = _default_stack(TransformerEncoderLayer, TransformerEncoder,
                                            num_encoder_layers, *shared)
        self.encoder = custom_encoder
        if custom_decoder is None:
            custom_decoder = _default_stack(TransformerDecoderLayer, TransformerDecoder,
                                            num_decoder_layers, *shared)
        self.decoder = custom_decoder

        self._reset_parameters()

        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if src.size(batch_axis) != tgt.size(batch_axis) and src.dim() == 3:
            _fail(RuntimeError, 'batch')
        width = self.d_model
        if src.size(-1) != width or tgt.size(-1) != width:
            _fail(RuntimeError, 'features')
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)

    @staticmethod
    def generate_square_subsequent_mask(sz, device='cpu'):
        # -inf above the diagonal, 0 on and below it
        blocked = torch.full((sz, sz), float('-inf'), device=device)
        return torch.triu(blocked, diagonal=1)

    def _reset_parameters(self):
        for weight in self.parameters():
            if weight.dim() > 1:
                init.xavier_uniform_(weight)


def _nested_path_layout(output, src_key_padding_mask):
    # 1.13 runs the layers on a nested tensor of the unpadded tokens and pads the result
    # back with zeros (to the longest sequence's length); reproduce that layout.
    kept = src_key_padding_mask.logical_not()
    longest = int(kept.sum(dim=1).max())
    return output.masked_fill(kept.logical_not().unsqueeze(-1), 0.0)[:, :longest]


def _init_stack(stack, layer, count, norm):
    # encoder / decoder: `count` clones of one layer and an optional final norm
    stack.layers = _get_clones(layer, count)
    stack.num_layers = count
    stack.norm = norm


def _tensors_of_layer(src, layer):
    attn = layer.self_attn
    out = [src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias]
    for sub in (layer.norm1, layer.norm2, layer.linear1, layer.linear2):
        out.append(sub.weight)
        out.append(sub.bias)
    return out


class TransformerEncoder(Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        _init_stack(self, encoder_layer, num_layers, norm)
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None):
        _check_key_padding_mask_dtype(src_key_padding_mask)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        if self._would_use_nested(src, mask, src_key_padding_mask):
            output = _nested_path_layout(output, src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _would_use_nested(self, src, mask, src_key_padding_mask):
        # The conditions of 1.13's "sparsity fast path" (nested-tensor conversion).
        first = self.layers[0]
        if not isinstance(first, TransformerEncoderLayer):
            return False
        attn = first.self_attn
        blockers = (first.norm_first, first.training, not attn.batch_first, not attn._qkv_same_embed_dim,
                    not first.activation_relu_or_gelu, first.norm1.eps != first.norm2.eps)
        for blocked in blockers:
            if blocked:
                return False
        if src.dim() != 3 or not self.enable_nested_tensor or src_key_padding_mask is None:
            return False
        if getattr(self, 'mask_check', True):
            # the unpadded tokens must form a prefix of each sequence
            kept = src_key_padding_mask.logical_not().to(torch.int64)
            if kept.size(1) > 1 and not bool((kept[:, 1:] <= kept[:, :-1]).all()):
                return False
        if mask is not None or attn.num_heads % 2 == 1:
            return False
        if torch.is_grad_enabled():
            for t in _tensors_of_layer(src, first):
                if t.requires_grad:
                    return False
        return True


class TransformerDecoder(Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _init_stack(self, decoder_layer, num_layers, norm)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        masks = {'tgt_mask': tgt_mask, 'memory_mask': memory_mask,
                 'tgt_key_padding_mask': tgt_key_padding_mask,
                 'memory_key_padding_mask': memory_key_padding_mask}
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, **masks)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerEncoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 device=None, dtype=None):
        super().__init__()
        _add_sublayers(self, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                       norm_first, _factory(device, dtype), ('self_attn',), 2)
        activation = _resolve_activation(activation)
        self.activation_relu_or_gelu = _activation_code(activation)
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        _check_key_padding_mask_dtype(src_key_padding_mask)
        # (1.13's fused encoder-layer fast path is not available here; see the header.)
        pre = self.norm_first
        x = _residual(src, self.norm1, lambda h: self._sa_block(h, src_mask, src_key_padding_mask), pre)
        return _residual(x, self.norm2, self._ff_block, pre)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return _attend(self.self_attn, x, x, attn_mask, key_padding_mask, self.dropout1)

    def _ff_block(self, x):
        return _feed_forward(self, x, self.dropout2)


class TransformerDecoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 device=None, dtype=None):
        super().__init__()
        _add_sublayers(self, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                       norm_first, _factory(device, dtype), ('self_attn', 'multihead_attn'), 3)
        self.activation = _resolve_activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        pre = self.norm_first
        x = _residual(tgt, self.norm1, lambda h: self._sa_block(h, tgt_mask, tgt_key_padding_mask), pre)
        x = _residual(x, self.norm2,
                      lambda h: self._mha_block(h, memory, memory_mask, memory_key_padding_mask), pre)
        return _residual(x, self.norm3, self._ff_block, pre)

    def _sa_block(self, x, attn_mask, key_padding_mask):
        return _attend(self.self_attn, x, x, attn_mask, key_padding_mask, self.dropout1)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        return _attend(self.multihead_attn, x, mem, attn_mask, key_padding_mask, self.dropout2)

    def _ff_block(self, x):
        return _feed_forward(self, x, self.dropout3)
