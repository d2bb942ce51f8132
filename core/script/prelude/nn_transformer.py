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


# ----------------------------------------------------------------------------- helpers

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
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                               "the deepcopy protocol at the moment")
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
    return nn.ModuleList([_deepcopy(module, {}) for i in range(N)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    elif activation == "gelu":
        return F.gelu
    raise RuntimeError("activation should be relu/gelu, not {}".format(activation))


def _check_key_padding_mask_dtype(mask):
    if mask is not None:
        _dtype = mask.dtype
        if _dtype != torch.bool and not torch.is_floating_point(mask):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")


class NonDynamicallyQuantizableLinear(nn.Linear):
    # torch.nn.modules.linear.NonDynamicallyQuantizableLinear: a Linear under
    # another name (MultiheadAttention.out_proj), so it prints that name.
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)


# ----------------------------------------------------------------------------- attention

class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0., bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 device=None, dtype=None):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim

        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), device=device, dtype=dtype))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), device=device, dtype=dtype))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), device=device, dtype=dtype))
            self.register_parameter('in_proj_weight', None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), device=device, dtype=dtype))
            self.register_parameter('q_proj_weight', None)
            self.register_parameter('k_proj_weight', None)
            self.register_parameter('v_proj_weight', None)

        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, device=device, dtype=dtype))
        else:
            self.register_parameter('in_proj_bias', None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)

        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), device=device, dtype=dtype))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), device=device, dtype=dtype))
        else:
            self.bias_k = None
            self.bias_v = None

        self.add_zero_attn = add_zero_attn

        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)

        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.)
            init.constant_(self.out_proj.bias, 0.)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True):
        is_batched = query.dim() == 3
        _check_key_padding_mask_dtype(key_padding_mask)

        # (1.13's native fast path is not available here; see the header.)
        if self.batch_first and is_batched:
            # make sure that the transpose op does not affect the "is" property
            if key is value:
                if query is key:
                    query = query.transpose(1, 0)
                    key = query
                    value = query
                else:
                    query = query.transpose(1, 0)
                    key = key.transpose(1, 0)
                    value = key
            else:
                query = query.transpose(1, 0)
                key = key.transpose(1, 0)
                value = value.transpose(1, 0)

        if not self._qkv_same_embed_dim:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query, key, value, self.embed_dim, self.num_heads,
                self.in_proj_weight, self.in_proj_bias,
                self.bias_k, self.bias_v, self.add_zero_attn,
                self.dropout, self.out_proj.weight, self.out_proj.bias,
                training=self.training,
                key_padding_mask=key_padding_mask, need_weights=need_weights,
                attn_mask=attn_mask, use_separate_proj_weight=True,
                q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
                v_proj_weight=self.v_proj_weight,
                average_attn_weights=average_attn_weights)
        else:
            attn_output, attn_output_weights = F.multi_head_attention_forward(
                query, key, value, self.embed_dim, self.num_heads,
                self.in_proj_weight, self.in_proj_bias,
                self.bias_k, self.bias_v, self.add_zero_attn,
                self.dropout, self.out_proj.weight, self.out_proj.bias,
                training=self.training,
                key_padding_mask=key_padding_mask, need_weights=need_weights,
                attn_mask=attn_mask, average_attn_weights=average_attn_weights)
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        else:
            return attn_output, attn_output_weights


# ----------------------------------------------------------------------------- transformer

class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first, norm_first,
                                                    device=device, dtype=dtype)
            encoder_norm = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)

        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                                    activation, layer_norm_eps, batch_first, norm_first,
                                                    device=device, dtype=dtype)
            decoder_norm = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)

        self._reset_parameters()

        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")

        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")

        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        output = self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                              tgt_key_padding_mask=tgt_key_padding_mask,
                              memory_key_padding_mask=memory_key_padding_mask)
        return output

    @staticmethod
    def generate_square_subsequent_mask(sz, device='cpu'):
        return torch.triu(torch.full((sz, sz), float('-inf'), device=device), diagonal=1)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)


class TransformerEncoder(Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None):
        _check_key_padding_mask_dtype(src_key_padding_mask)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        if self._would_use_nested(src, mask, src_key_padding_mask):
            # 1.13 runs the layers on a nested tensor of the unpadded tokens and pads the result
            # back with zeros (to the longest sequence's length); reproduce that layout.
            keep = src_key_padding_mask.logical_not()
            max_len = int(keep.sum(dim=1).max())
            output = output.masked_fill(keep.logical_not().unsqueeze(-1), 0.0)[:, :max_len]
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _would_use_nested(self, src, mask, src_key_padding_mask):
        # The conditions of 1.13's "sparsity fast path" (nested-tensor conversion).
        first_layer = self.layers[0]
        if not isinstance(first_layer, TransformerEncoderLayer):
            return False
        sa = first_layer.self_attn
        if (first_layer.norm_first or first_layer.training or not sa.batch_first
                or not sa._qkv_same_embed_dim or not first_layer.activation_relu_or_gelu
                or not first_layer.norm1.eps == first_layer.norm2.eps or src.dim() != 3
                or not self.enable_nested_tensor or src_key_padding_mask is None):
            return False
        if getattr(self, 'mask_check', True):
            # the unpadded tokens must form a prefix of each sequence
            keep = src_key_padding_mask.logical_not().to(torch.int64)
            if keep.size(1) > 1 and not bool((keep[:, 1:] <= keep[:, :-1]).all()):
                return False
        if mask is not None or sa.num_heads % 2 == 1:
            return False
        tensor_args = (src, sa.in_proj_weight, sa.in_proj_bias, sa.out_proj.weight, sa.out_proj.bias,
                       first_layer.norm1.weight, first_layer.norm1.bias, first_layer.norm2.weight,
                       first_layer.norm2.bias, first_layer.linear1.weight, first_layer.linear1.bias,
                       first_layer.linear2.weight, first_layer.linear2.bias)
        if torch.is_grad_enabled():
            for t in tensor_args:
                if t.requires_grad:
                    return False
        return True


class TransformerDecoder(Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask,
                         memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerEncoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            device=device, dtype=dtype)
        # feed-forward part
        self.linear1 = nn.Linear(d_model, dim_feedforward, device=device, dtype=dtype)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(dim_feedforward, d_model, device=device, dtype=dtype)

        self.norm_first = norm_first
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)

        if isinstance(activation, str):
            activation = _get_activation_fn(activation)

        # 1.13 records whether the activation is relu (1) / gelu (2) for its fast path
        if activation is F.relu or isinstance(activation, nn.ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, nn.GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        _check_key_padding_mask_dtype(src_key_padding_mask)
        # (1.13's fused encoder-layer fast path is not available here; see the header.)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            device=device, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 device=device, dtype=dtype)
        # feed-forward part
        self.linear1 = nn.Linear(d_model, dim_feedforward, device=device, dtype=dtype)
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(dim_feedforward, d_model, device=device, dtype=dtype)

        self.norm_first = norm_first
        self.norm1 = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm2 = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.norm3 = nn.LayerNorm(d_model, eps=layer_norm_eps, device=device, dtype=dtype)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.dropout3 = nn.Dropout(dropout)

        if isinstance(activation, str):
            self.activation = _get_activation_fn(activation)
        else:
            self.activation = activation

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)
