# Fuselab prelude: torch.nn.functional.multi_head_attention_forward.
#
# Runs as its own module (loader globals: torch, F, math); the names in
# __all__ are added to torch.nn.functional.
#
# Performs PyTorch 1.13's op sequence (packed / separate in-projection via
# linear, q scaled by 1/sqrt(head_dim) before bmm / baddbmm with the additive
# mask, softmax, dropout, bmm, out-projection), so results and gradients are
# bit-identical to 1.13.
#
# Differences from 1.13:
#  - The deprecation UserWarning for a uint8 attn_mask is not printed (the mask
#    is still converted to bool as 1.13 does).
#  - __torch_function__ overrides (has_torch_function) are not consulted.

__all__ = ['multi_head_attention_forward']


def _in_projection_packed(q, k, v, w, b=None):
    E = q.size(-1)
    if k is v:
        if q is k:
            # self-attention
            return F.linear(q, w, b).chunk(3, dim=-1)
        else:
            # encoder-decoder attention
            w_q, w_kv = w.split([E, E * 2])
            if b is None:
                b_q = None
                b_kv = None
            else:
                b_q, b_kv = b.split([E, E * 2])
            return (F.linear(q, w_q, b_q),) + tuple(F.linear(k, w_kv, b_kv).chunk(2, dim=-1))
    else:
        w_q, w_k, w_v = w.chunk(3)
        if b is None:
            b_q = None
            b_k = None
            b_v = None
        else:
            b_q, b_k, b_v = b.chunk(3)
        return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    Eq = q.size(-1)
    Ek = k.size(-1)
    Ev = v.size(-1)
    _check(tuple(w_q.shape) == (Eq, Eq),
           'expecting query weights shape of {}, but got {}'.format((Eq, Eq), w_q.shape))
    _check(tuple(w_k.shape) == (Eq, Ek),
           'expecting key weights shape of {}, but got {}'.format((Eq, Ek), w_k.shape))
    _check(tuple(w_v.shape) == (Eq, Ev),
           'expecting value weights shape of {}, but got {}'.format((Eq, Ev), w_v.shape))
    _check(b_q is None or tuple(b_q.shape) == (Eq,),
           'expecting query bias shape of {}, but got {}'.format((Eq,), None if b_q is None else b_q.shape))
    _check(b_k is None or tuple(b_k.shape) == (Eq,),
           'expecting key bias shape of {}, but got {}'.format((Eq,), None if b_k is None else b_k.shape))
    _check(b_v is None or tuple(b_v.shape) == (Eq,),
           'expecting value bias shape of {}, but got {}'.format((Eq,), None if b_v is None else b_v.shape))
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        is_batched = True
        _check(key.dim() == 3 and value.dim() == 3,
               "For batched (3-D) `query`, expected `key` and `value` to be 3-D"
               " but found {}-D and {}-D tensors respectively".format(key.dim(), value.dim()))
        if key_padding_mask is not None:
            _check(key_padding_mask.dim() == 2,
                   "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                   " but found {}-D tensor instead".format(key_padding_mask.dim()))
        if attn_mask is not None:
            _check(attn_mask.dim() in (2, 3),
                   "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                   " but found {}-D tensor instead".format(attn_mask.dim()))
    elif query.dim() == 2:
        is_batched = False
        _check(key.dim() == 2 and value.dim() == 2,
               "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
               " but found {}-D and {}-D tensors respectively".format(key.dim(), value.dim()))
        if key_padding_mask is not None:
            _check(key_padding_mask.dim() == 1,
                   "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                   " but found {}-D tensor instead".format(key_padding_mask.dim()))
        if attn_mask is not None:
            _check(attn_mask.dim() in (2, 3),
                   "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                   " but found {}-D tensor instead".format(attn_mask.dim()))
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                _check(tuple(attn_mask.shape) == expected_shape,
                       "Expected `attn_mask` shape to be {} but got {}".format(expected_shape, attn_mask.shape))
    else:
        raise AssertionError(
            "query should be unbatched 2D or batched 3D tensor but received {}-D query tensor".format(query.dim()))
    return is_batched


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v,
                                 add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True,
                                 attn_mask=None, use_separate_proj_weight=False,
                                 q_proj_weight=None, k_proj_weight=None, v_proj_weight=None,
                                 static_k=None, static_v=None, average_attn_weights=True):
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)

    # unbatched input: add a batch dimension of 1 (removed again at the end)
    if not is_batched:
        query = query.unsqueeze(1)
        key = key.unsqueeze(1)
        value = value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)

    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]

    if key_padding_mask is not None:
        _kpm_dtype = key_padding_mask.dtype
        if _kpm_dtype != torch.bool and not torch.is_floating_point(key_padding_mask):
            raise AssertionError("only bool and floating types of key_padding_mask are supported")
    _check(embed_dim == embed_dim_to_check,
           "was expecting embedding dimension of {}, but got {}".format(embed_dim_to_check, embed_dim))
    if isinstance(embed_dim, torch.Tensor):
        head_dim = embed_dim.div(num_heads, rounding_mode='trunc')
    else:
        head_dim = embed_dim // num_heads
    _check(head_dim * num_heads == embed_dim,
           "embed_dim {} not divisible by num_heads {}".format(embed_dim, num_heads))
    if use_separate_proj_weight:
        _check(tuple(key.shape[:2]) == tuple(value.shape[:2]),
               "key's sequence and batch dims {} do not match value's {}".format(key.shape[:2], value.shape[:2]))
    else:
        _check(tuple(key.shape) == tuple(value.shape),
               "key shape {} does not match value shape {}".format(key.shape, value.shape))

    # input projections
    if not use_separate_proj_weight:
        _check(in_proj_weight is not None, "use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        _check(q_proj_weight is not None, "use_separate_proj_weight is True but q_proj_weight is None")
        _check(k_proj_weight is not None, "use_separate_proj_weight is True but k_proj_weight is None")
        _check(v_proj_weight is not None, "use_separate_proj_weight is True but v_proj_weight is None")
        if in_proj_bias is None:
            b_q = None
            b_k = None
            b_v = None
        else:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # attn_mask checks and shaping
    if attn_mask is not None:
        if attn_mask.dtype == torch.uint8:
            attn_mask = attn_mask.to(torch.bool)
        else:
            _check(attn_mask.is_floating_point() or attn_mask.dtype == torch.bool,
                   "Only float, byte, and bool types are supported for attn_mask, not {}".format(attn_mask.dtype))
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if tuple(attn_mask.shape) != correct_2d_size:
                raise RuntimeError("The shape of the 2D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, correct_2d_size))
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if tuple(attn_mask.shape) != correct_3d_size:
                raise RuntimeError("The shape of the 3D attn_mask is {}, but should be {}.".format(
                    attn_mask.shape, correct_3d_size))
        else:
            raise RuntimeError("attn_mask's dimension {} is not supported".format(attn_mask.dim()))

    # bias_k / bias_v appended along the sequence
    if bias_k is not None and bias_v is not None:
        _check(static_k is None, "bias cannot be added to static key.")
        _check(static_v is None, "bias cannot be added to static value.")
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    else:
        if bias_k is not None:
            raise AssertionError()
        if bias_v is not None:
            raise AssertionError()

    # heads into the batch dimension
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.contiguous().view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check(static_k.size(0) == bsz * num_heads,
               "expecting static_k.size(0) of {}, but got {}".format(bsz * num_heads, static_k.size(0)))
        _check(static_k.size(2) == head_dim,
               "expecting static_k.size(2) of {}, but got {}".format(head_dim, static_k.size(2)))
        k = static_k
    if static_v is None:
        v = v.contiguous().view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check(static_v.size(0) == bsz * num_heads,
               "expecting static_v.size(0) of {}, but got {}".format(bsz * num_heads, static_v.size(0)))
        _check(static_v.size(2) == head_dim,
               "expecting static_v.size(2) of {}, but got {}".format(head_dim, static_v.size(2)))
        v = static_v

    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = torch.cat([k, torch.zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = torch.cat([v, torch.zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))

    src_len = k.size(1)

    # merge key padding into the attention mask
    if key_padding_mask is not None:
        _check(tuple(key_padding_mask.shape) == (bsz, src_len),
               "expecting key_padding_mask shape of {}, but got {}".format((bsz, src_len), key_padding_mask.shape))
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len). \
            expand(-1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == torch.bool:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask.masked_fill(key_padding_mask, float("-inf"))

    # boolean mask -> additive float mask
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        new_attn_mask = torch.zeros_like(attn_mask, dtype=q.dtype)
        new_attn_mask.masked_fill_(attn_mask, float("-inf"))
        attn_mask = new_attn_mask

    if not training:
        dropout_p = 0.0

    # scaled dot-product attention
    B, Nt, E = q.shape
    q_scaled = q / math.sqrt(E)
    if attn_mask is not None:
        attn_output_weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        attn_output_weights = torch.bmm(q_scaled, k.transpose(-2, -1))
    attn_output_weights = F.softmax(attn_output_weights, dim=-1)
    if dropout_p > 0.0:
        attn_output_weights = F.dropout(attn_output_weights, p=dropout_p)

    attn_output = torch.bmm(attn_output_weights, v)
    attn_output = attn_output.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    attn_output = F.linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))

    if need_weights:
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.sum(dim=1) / num_heads
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights
    else:
        if not is_batched:
            attn_output = attn_output.squeeze(1)
        return attn_output, None
