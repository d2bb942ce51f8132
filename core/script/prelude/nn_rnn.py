# Fuselab prelude: recurrent layers (torch.nn.modules.rnn).
#
# Runs as module torch.nn.modules.rnn; loader globals: torch, F, math,
# Parameter, _OrderedDict, init, nn, Module, _capture_break (a graph break where
# torch.compile has one: calling an RNN, GRU or LSTM).  Every name in __all__ is added
# to torch.nn.
#
# Compatibility contract with PyTorch 1.13:
#  * constructor signatures, parameter names and the order in which the
#    parameters are registered all match, and reset_parameters() draws one
#    uniform(-k, k) per parameter in that order, so a seeded model gets the
#    same weights;
#  * forward() hands the flat weight list to the same fused ATen entry point
#    (torch.lstm / torch.gru / torch.rnn_tanh / torch.rnn_relu, or the
#    torch.*_cell variants for the cells) with the same arguments, so the
#    numbers are bit-identical;
#  * error types and texts match (see _ERR below).
#
# Known gaps:
#  - PackedSequence inputs raise NotImplementedError.
#  - No UserWarning for dropout > 0 with a single layer.
#  - flatten_parameters() does nothing (there is nothing to do on CPU).

__all__ = ['RNNBase', 'RNN', 'LSTM', 'GRU', 'RNNCellBase', 'RNNCell', 'LSTMCell', 'GRUCell']


# ---------------------------------------------------------------------------
# Static facts
# ---------------------------------------------------------------------------

# mode -> (rows of the gate matrices per hidden unit, fused torch op name)
_MODE_TABLE = {
    'LSTM': (4, 'lstm'),
    'GRU': (3, 'gru'),
    'RNN_TANH': (1, 'rnn_tanh'),
    'RNN_RELU': (1, 'rnn_relu'),
}

# nn.RNN nonlinearity -> mode
_NONLIN_MODE = {'tanh': 'RNN_TANH', 'relu': 'RNN_RELU'}

# nn.RNNCell nonlinearity -> fused cell op name
_CELL_OP = {'tanh': 'rnn_tanh_cell', 'relu': 'rnn_relu_cell'}

# Error texts, kept word-for-word compatible with upstream.
_ERR = dict(
    dropout=("dropout should be a number in range [0, 1] representing the"
             " probability of an element being zeroed"),
    proj_negative=("proj_size should be a positive integer or zero to"
                   " disable projections"),
    proj_too_big="proj_size has to be smaller than hidden_size",
    bad_mode="Unrecognized RNN mode: ",
    proj_not_lstm=("proj_size argument is only supported for LSTM,"
                   " not RNN or GRU"),
    bad_nonlin="Unknown nonlinearity '{}'",
    bad_cell_nonlin="Unknown nonlinearity: {}",
    input_rank='input must have {} dimensions, got {}',
    input_width=('input.size(-1) must be equal to input_size.'
                 ' Expected {}, got {}'),
    state_shape='Expected hidden size {}, got {}',
    h_shape='Expected hidden[0] size {}, got {}',
    c_shape='Expected hidden[1] size {}, got {}',
    hx_rank_1=("For unbatched 2-D input, hx should also be 2-D"
               " but got {}-D tensor"),
    hx_rank_3=("For batched 3-D input, hx should also be 3-D"
               " but got {}-D tensor"),
    hxcx_rank_1=("For unbatched 2-D input, hx and cx should also be 2-D"
                 " but got ({}-D, {}-D) tensors"),
    hxcx_rank_3=("For batched 3-D input, hx and cx should also be 3-D"
                 " but got ({}-D, {}-D) tensors"),
    cell_rank="{}: Expected input to be 1-D or 2-D but received {}-D tensor",
)


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


def _is_packed(x):
    if isinstance(x, torch.Tensor):
        return False
    return type(x).__name__ == 'PackedSequence'


def _reject_packed(x, who):
    if _is_packed(x):
        raise NotImplementedError(
            '{}: PackedSequence input is not supported by Fuselab yet; '
            'pass a padded tensor instead'.format(who))


def _is_number(x):
    if isinstance(x, bool):
        return False
    return isinstance(x, (int, float))


def _uniform_reset(module):
    # One uniform draw per registered parameter, in registration order.
    k = 0
    if module.hidden_size > 0:
        k = 1.0 / math.sqrt(module.hidden_size)
    for p in module.parameters():
        init.uniform_(p, -k, k)


def _need_rank(t, rank, key):
    # Hidden-state rank check for the single-tensor (RNN/GRU) case.
    if t.dim() != rank:
        raise RuntimeError(_ERR[key].format(t.dim()))


def _need_pair_rank(pair, rank, key):
    # Hidden-state rank check for the (h, c) LSTM case.
    h_rank, c_rank = pair[0].dim(), pair[1].dim()
    if h_rank != rank or c_rank != rank:
        raise RuntimeError(_ERR[key].format(h_rank, c_rank))


def _fused(op_name):
    return getattr(torch, op_name)


# ---------------------------------------------------------------------------
# Multi-layer sequence modules
# ---------------------------------------------------------------------------

class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0., bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size

        # Argument validation (order matters for which error wins).
        if not (_is_number(dropout) and 0 <= dropout <= 1):
            raise ValueError(_ERR['dropout'])
        if proj_size < 0:
            raise ValueError(_ERR['proj_negative'])
        if proj_size >= hidden_size:
            raise ValueError(_ERR['proj_too_big'])
        if mode not in _MODE_TABLE:
            raise ValueError(_ERR['bad_mode'] + mode)

        rows = _MODE_TABLE[mode][0] * hidden_size
        n_dirs = 2 if bidirectional else 1
        out_width = proj_size if proj_size > 0 else hidden_size
        factory = dict(device=device, dtype=dtype)

        self._flat_weights_names = []
        self._all_weights = []
        for depth in range(num_layers):
            if depth == 0:
                fan_in = input_size
            else:
                fan_in = out_width * n_dirs
            for rev in range(n_dirs):
                # (name stem, shape) in the order upstream registers them
                plan = [('weight_ih_l', (rows, fan_in)),
                        ('weight_hh_l', (rows, out_width))]
                if bias:
                    plan.append(('bias_ih_l', (rows,)))
                    plan.append(('bias_hh_l', (rows,)))
                if proj_size > 0:
                    plan.append(('weight_hr_l', (proj_size, hidden_size)))
                tail = str(depth) + ('_reverse' if rev == 1 else '')
                group = []
                for stem, shape in plan:
                    full = stem + tail
                    setattr(self, full, Parameter(torch.empty(shape, **factory)))
                    group.append(full)
                self._flat_weights_names.extend(group)
                self._all_weights.append(group)

        self._refresh_flat()
        self.flatten_parameters()
        self.reset_parameters()

    # -- flat weight bookkeeping ------------------------------------------

    def _weight_or_none(self, wn):
        return getattr(self, wn) if hasattr(self, wn) else None

    def _refresh_flat(self):
        self._flat_weights = [self._weight_or_none(n)
                              for n in self._flat_weights_names]

    def __setattr__(self, attr, value):
        # Reassigning e.g. `weight_ih_l0` must also update the flat list.
        if hasattr(self, '_flat_weights_names'):
            names = self._flat_weights_names
            if attr in names:
                self._flat_weights[names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self):
        # cuDNN packs weights here; a no-op for CPU execution.
        return None

    def _apply(self, fn):
        out = super()._apply(fn)
        self._refresh_flat()
        self.flatten_parameters()
        return out

    def reset_parameters(self):
        _uniform_reset(self)

    # -- shape checks -----------------------------------------------------

    def _n_dirs(self):
        return 2 if self.bidirectional else 1

    def _batch_of(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0 if self.batch_first else 1)

    def _state_shape(self, input, batch_sizes, width):
        return (self.num_layers * self._n_dirs(),
                self._batch_of(input, batch_sizes), width)

    def _out_width(self):
        return self.proj_size if self.proj_size > 0 else self.hidden_size

    def check_input(self, input, batch_sizes):
        want = 3 if batch_sizes is None else 2
        got = input.dim()
        if got != want:
            raise RuntimeError(_ERR['input_rank'].format(want, got))
        last = input.size(-1)
        if last != self.input_size:
            raise RuntimeError(_ERR['input_width'].format(self.input_size, last))

    def get_expected_hidden_size(self, input, batch_sizes):
        return self._state_shape(input, batch_sizes, self._out_width())

    def check_hidden_size(self, hx, expected_hidden_size,
                          msg=_ERR['state_shape']):
        actual = hx.size()
        if tuple(actual) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(actual)))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        want = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden, want)

    def permute_hidden(self, hx, permutation):
        if permutation is not None:
            hx = _apply_permutation(hx, permutation)
        return hx

    # -- hidden-state preparation -----------------------------------------

    def _batch_axis(self):
        return 0 if self.batch_first else 1

    def _zero_state(self, input, width):
        # Called after any unbatched input was given its batch axis.
        return torch.zeros(self.num_layers * self._n_dirs(),
                           input.size(self._batch_axis()), width,
                           dtype=input.dtype, device=input.device)

    def _prepare_single(self, input, hx):
        # Shared by RNN and GRU: one hidden tensor.
        batched = input.dim() == 3
        axis = self._batch_axis()
        if batched:
            if hx is not None:
                _need_rank(hx, 3, 'hx_rank_3')
        else:
            input = input.unsqueeze(axis)
            if hx is not None:
                _need_rank(hx, 2, 'hx_rank_1')
                hx = hx.unsqueeze(1)
        if hx is None:
            hx = self._zero_state(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        return input, hx, batched, axis

    def _run_single(self, who, input, hx):
        _reject_packed(input, who)
        seq, h0, batched, axis = self._prepare_single(input, hx)
        op = _fused(_MODE_TABLE[self.mode][1])
        res = op(seq, h0, self._flat_weights, self.bias, self.num_layers,
                 self.dropout, self.training, self.bidirectional,
                 self.batch_first)
        y, h_n = res[0], res[1]
        if batched:
            return y, h_n
        return y.squeeze(axis), h_n.squeeze(1)

    # -- misc -------------------------------------------------------------

    def extra_repr(self):
        # (field, value that is omitted from the repr)
        optional = (('proj_size', 0), ('num_layers', 1), ('bias', True),
                    ('batch_first', False), ('dropout', 0),
                    ('bidirectional', False))
        text = '{input_size}, {hidden_size}'
        for field, default in optional:
            value = getattr(self, field)
            if field in ('bias', 'batch_first', 'bidirectional'):
                shown = value is not default
            else:
                shown = value != default
            if shown:
                text += ', ' + field + '={' + field + '}'
        return text.format(**self.__dict__)

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in group] for group in self._all_weights]


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError(_ERR['proj_not_lstm'])
        self.nonlinearity = kwargs.pop('nonlinearity', 'tanh')
        mode = None
        if isinstance(self.nonlinearity, str):
            mode = _NONLIN_MODE.get(self.nonlinearity)
        if mode is None:
            raise ValueError(_ERR['bad_nonlin'].format(self.nonlinearity))
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        _capture_break('rnn', '')
        return self._run_single('RNN', input, hx)


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__('LSTM', *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        return self._state_shape(input, batch_sizes, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        h_want = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden[0], h_want, _ERR['h_shape'])
        c_want = self.get_expected_cell_size(input, batch_sizes)
        self.check_hidden_size(hidden[1], c_want, _ERR['c_shape'])

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return tuple(_apply_permutation(t, permutation) for t in (hx[0], hx[1]))

    def forward(self, input, hx=None):
        _capture_break('rnn', '')
        _reject_packed(input, 'LSTM')
        batched = input.dim() == 3
        axis = self._batch_axis()
        if not batched:
            input = input.unsqueeze(axis)
        if hx is None:
            hx = (self._zero_state(input, self._out_width()),
                  self._zero_state(input, self.hidden_size))
        elif batched:
            _need_pair_rank(hx, 3, 'hxcx_rank_3')
        else:
            _need_pair_rank(hx, 2, 'hxcx_rank_1')
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        res = _fused(_MODE_TABLE['LSTM'][1])(
            input, hx, self._flat_weights, self.bias, self.num_layers,
            self.dropout, self.training, self.bidirectional, self.batch_first)
        y, h_n, c_n = res[0], res[1], res[2]
        if not batched:
            y, h_n, c_n = y.squeeze(axis), h_n.squeeze(1), c_n.squeeze(1)
        return y, (h_n, c_n)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError(_ERR['proj_not_lstm'])
        super().__init__('GRU', *args, **kwargs)

    def forward(self, input, hx=None):
        _capture_break('rnn', '')
        return self._run_single('GRU', input, hx)


# ---------------------------------------------------------------------------
# Single-step cells
# ---------------------------------------------------------------------------

class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks,
                 device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        rows = num_chunks * hidden_size
        factory = dict(device=device, dtype=dtype)
        self.weight_ih = Parameter(torch.empty((rows, input_size), **factory))
        self.weight_hh = Parameter(torch.empty((rows, hidden_size), **factory))
        for bname in ('bias_ih', 'bias_hh'):
            if bias:
                setattr(self, bname, Parameter(torch.empty(rows, **factory)))
            else:
                self.register_parameter(bname, None)
        self.reset_parameters()

    def extra_repr(self):
        attrs = self.__dict__
        text = '{input_size}, {hidden_size}'
        if 'bias' in attrs and self.bias is not True:
            text += ', bias={bias}'
        if 'nonlinearity' in attrs and self.nonlinearity != 'tanh':
            text += ', nonlinearity={nonlinearity}'
        return text.format(**attrs)

    def reset_parameters(self):
        _uniform_reset(self)

    # Shared input/state handling for the cells.  Returns the (possibly
    # batch-expanded) input, the state and whether the caller was batched.
    def _cell_inputs(self, who, input, hx, paired):
        rank = input.dim()
        if rank not in (1, 2):
            raise AssertionError(_ERR['cell_rank'].format(who, rank))
        batched = rank == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            blank = torch.zeros(input.size(0), self.hidden_size,
                                dtype=input.dtype, device=input.device)
            hx = (blank, blank) if paired else blank
        elif not batched:
            if paired:
                hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
            else:
                hx = hx.unsqueeze(0)
        return input, hx, batched

    def _cell_call(self, op_name, input, hx):
        return _fused(op_name)(input, hx, self.weight_ih, self.weight_hh,
                               self.bias_ih, self.bias_hh)


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True,
                 nonlinearity='tanh', device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1,
                         device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        x, h, batched = self._cell_inputs('RNNCell', input, hx, False)
        op_name = None
        if isinstance(self.nonlinearity, str):
            op_name = _CELL_OP.get(self.nonlinearity)
        if op_name is None:
            raise RuntimeError(_ERR['bad_cell_nonlin'].format(self.nonlinearity))
        h_next = self._cell_call(op_name, x, h)
        return h_next if batched else h_next.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True,
                 device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4,
                         device=device, dtype=dtype)

    def forward(self, input, hx=None):
        x, state, batched = self._cell_inputs('LSTMCell', input, hx, True)
        h_next, c_next = self._cell_call('lstm_cell', x, state)
        if batched:
            return h_next, c_next
        return h_next.squeeze(0), c_next.squeeze(0)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True,
                 device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3,
                         device=device, dtype=dtype)

    def forward(self, input, hx=None):
        x, h, batched = self._cell_inputs('GRUCell', input, hx, False)
        h_next = self._cell_call('gru_cell', x, h)
        return h_next if batched else h_next.squeeze(0)
