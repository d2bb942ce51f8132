# Fuselab prelude: more of torch.optim (Adadelta, Adagrad, Adamax, ASGD, NAdam,
# RAdam, RMSprop, Rprop, LBFGS).
#
# Runs as its own module; globals from the loader: torch, math, optim
# (torch.optim with everything of optim.py).  Every name in __all__ is added
# to torch.optim.  Written in the model-script Python subset (no imports).
#
# Layout of this module:
#   1. error texts (one table, raised through _fail) and the constructor
#      checks, a table per optimizer run by _validate();
#   2. the per-optimizer rules (_RULES): state layout and the state entries a
#      step reads, whether the step count is an int (counted while gathering)
#      or a 0-dim tensor (counted by the update), group-key fallbacks and
#      state conversions for load_state_dict, and the update function;
#   3. one step driver (_drive) shared by the eight first-order optimizers:
#      per parameter group it first gathers (parameter, gradient, state
#      entries), creating missing state, then applies the rule's update;
#   4. LBFGS, with its strong-Wolfe line search over (step, loss, gradient,
#      slope) bracket ends.
#
# The update arithmetic is PyTorch 1.13's single-tensor (non-foreach) path,
# operation for operation (1.13 also picks it when foreach=None), so
# parameters after N steps are bit-identical.  Constructor defaults,
# param_group keys (and their order), state keys and the types of the state
# values (e.g. RMSprop/Adadelta/Rprop keep `step` as a Python int,
# Adagrad/Adamax/ASGD/NAdam/RAdam as a float32 0-dim tensor) are 1.13's.
#
# Known differences from PyTorch 1.13:
#  - The closure is run before the no-grad update block (1.13 runs it under
#    torch.enable_grad() inside step()); LBFGS runs every closure call under
#    torch.enable_grad() as 1.13 does.
#  - Sparse and complex parameters/gradients are not supported (1.13 handles
#    complex params through view_as_real, and Adagrad sparse gradients).
#  - differentiable=True (RMSprop) is stored but the in-place path is used.
#  - Adamax writes torch.amax(...) into exp_inf with copy_ instead of out=.
#  - Rprop writes the sign factors with masked_fill_ instead of boolean
#    index assignment (same values).

__all__ = ['Adadelta', 'Adagrad', 'Adamax', 'ASGD', 'NAdam', 'RAdam', 'RMSprop', 'Rprop', 'LBFGS']

Optimizer = optim.Optimizer


# ---------------------------------------------------------------------------
# Error texts (1.13's, word for word), filled by _fail().

_MESSAGES = {
    'lr': "Invalid learning rate: {}",
    'eps': "Invalid epsilon value: {}",
    'weight_decay': "Invalid weight_decay value: {}",
    'beta0': "Invalid beta parameter at index 0: {}",
    'beta1': "Invalid beta parameter at index 1: {}",
    'rho': "Invalid rho value: {}",
    'lr_decay': "Invalid lr_decay value: {}",
    'initial_accumulator_value': "Invalid initial_accumulator_value value: {}",
    'momentum_decay': "Invalid momentum_decay value: {}",
    'momentum': "Invalid momentum value: {}",
    'alpha': "Invalid alpha value: {}",
    'etas': "Invalid eta values: {}, {}",
    'sparse': "{} does not support sparse gradients",
    'sparse_decay': "weight_decay option is not compatible with sparse gradients",
    'step_tensor': "`step` can't be a tensor",
    'lbfgs_groups': "LBFGS doesn't support per-parameter options (parameter groups)",
    'line_search': "only 'strong_wolfe' is supported",
}


def _fail(kind, key, *fill):
    raise kind(_MESSAGES[key].format(*fill))


def _is_sparse(t):
    # Fuselab tensors are strided (no Tensor.is_sparse yet)
    return getattr(t, 'is_sparse', False)


def _run_closure(closure):
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


# ---------------------------------------------------------------------------
# Constructor checks: (message, argument, index or None, test), in 1.13's order.

def _non_negative(v):
    return 0.0 <= v


def _unit_closed(v):
    return 0.0 <= v <= 1.0


def _unit_open_top(v):
    return 0.0 <= v < 1.0


def _eta_pair(v):
    return 0.0 < v[0] < 1.0 < v[1]


def _plain(name):
    return (name, name, None, _non_negative)


_BETA_CHECKS = [('beta0', 'betas', 0, _unit_open_top), ('beta1', 'betas', 1, _unit_open_top)]
_ADAM_LIKE_CHECKS = [_plain('lr'), _plain('eps')] + _BETA_CHECKS + [_plain('weight_decay')]

_CHECKS = {
    'Adadelta': [_plain('lr'), ('rho', 'rho', None, _unit_closed), _plain('eps'), _plain('weight_decay')],
    'Adagrad': [_plain('lr'), _plain('lr_decay'), _plain('weight_decay'), _plain('initial_accumulator_value'),
                _plain('eps')],
    'Adamax': _ADAM_LIKE_CHECKS,
    'ASGD': [_plain('lr'), _plain('weight_decay')],
    'NAdam': _ADAM_LIKE_CHECKS + [_plain('momentum_decay')],
    'RAdam': _ADAM_LIKE_CHECKS,
    'RMSprop': [_plain('lr'), _plain('eps'), _plain('momentum'), _plain('weight_decay'), _plain('alpha')],
    'Rprop': [_plain('lr'), ('etas', 'etas', None, _eta_pair)],
}


def _validate(kind, settings):
    for message, argument, index, test in _CHECKS[kind]:
        value = settings[argument] if index is None else settings[argument][index]
        if not test(value):
            shown = [value[0], value[1]] if message == 'etas' else [value]
            _fail(ValueError, message, *shown)


def _construct(opt, params, settings):
    # settings: the defaults dict, keys in 1.13's param_group order
    _validate(opt._update_rule, settings)
    Optimizer.__init__(opt, params, settings)


# ---------------------------------------------------------------------------
# State: makers for fresh entries, conditions on the group, conversions.

def _zeros(p, grad, group):
    return torch.zeros_like(p)


def _int_count(p, grad, group):
    return 0


def _tensor_count(p, grad, group):
    return torch.tensor(0.0)


def _tensor_one(p, grad, group):
    return torch.tensor(1.0)


def _lr_tensor(p, grad, group):
    return torch.tensor(group['lr'])


def _lr_sized(p, grad, group):
    return torch.empty(grad.shape, dtype=grad.dtype, device=grad.device).fill_(group['lr'])


def _uses_momentum(group):
    return group['momentum'] > 0


def _is_centered(group):
    return group['centered']


def _applies(condition, group):
    return condition is None or condition(group)


def _tensorize(state, key, through_float):
    # 1.13 looks at the first state only: if it already holds a tensor, all do
    states = list(state.values())
    if len(states) != 0 and isinstance(states[0][key], torch.Tensor):
        return
    for entry in states:
        entry[key] = torch.tensor(float(entry[key])) if through_float else torch.tensor(entry[key])


def _tick(step_t):
    # the tensor step count, incremented; its value as a Python float
    step_t.add_(1)
    return step_t.item()


def _decay_avg(avg, x, rate):
    avg.mul_(rate).add_(x, alpha=1 - rate)


def _decay_avg_sq(avg, x, rate):
    avg.mul_(rate).addcmul_(x, x, value=1 - rate)


# ---------------------------------------------------------------------------
# Updates, one per optimizer: (parameter, adjusted gradient, state entries, group).

def _adadelta_update(param, grad, slots, group):
    rho = group['rho']
    eps = group['eps']
    squares = slots['square_avg']
    deltas = slots['acc_delta']
    _decay_avg_sq(squares, grad, rho)
    rms_grad = squares.add(eps).sqrt_()
    change = deltas.add(eps).sqrt_().div_(rms_grad).mul_(grad)
    _decay_avg_sq(deltas, change, rho)
    param.add_(change, alpha=-group['lr'])


def _adagrad_update(param, grad, slots, group):
    n = _tick(slots['step'])
    decayed_lr = group['lr'] / (1 + (n - 1) * group['lr_decay'])
    total = slots['sum']
    total.addcmul_(grad, grad, value=1)
    param.addcdiv_(grad, total.sqrt().add_(group['eps']), value=-decayed_lr)


def _adamax_update(param, grad, slots, group):
    beta1, beta2 = group['betas']
    first = slots['exp_avg']
    peak = slots['exp_inf']
    n = _tick(slots['step'])
    _decay_avg(first, grad, beta1)
    candidates = [peak.mul_(beta2).unsqueeze(0), grad.abs().add_(group['eps']).unsqueeze(0)]
    peak.copy_(torch.amax(torch.cat(candidates, 0), 0, keepdim=False))
    scaled_lr = group['lr'] / (1 - beta1 ** n)
    param.addcdiv_(first, peak, value=-scaled_lr)


def _asgd_update(param, grad, slots, group):
    lr = group['lr']
    lambd = group['lambd']
    mu = slots['mu']
    average = slots['ax']
    eta = slots['eta']
    n = _tick(slots['step'])
    param.mul_(1 - lambd * eta.item())
    param.add_(grad, alpha=-eta.item())
    if mu.item() == 1:
        average.copy_(param)
    else:
        average.add_(param.sub(average).mul(mu))
    eta.copy_(torch.tensor(lr / math.pow((1 + lambd * lr * n), group['alpha'])))
    mu.copy_(torch.tensor(1 / max(1, n - group['t0'])))


def _nadam_momentum(beta1, n, momentum_decay):
    # 1.13's momentum schedule mu_n
    return beta1 * (1. - 0.5 * (0.96 ** (n * momentum_decay)))


def _nadam_update(param, grad, slots, group):
    beta1, beta2 = group['betas']
    lr = group['lr']
    decay = group['momentum_decay']
    first = slots['exp_avg']
    second = slots['exp_avg_sq']
    product = slots['mu_product']
    n = _tick(slots['step'])
    second_correction = 1 - beta2 ** n
    mu_now = _nadam_momentum(beta1, n, decay)
    mu_after = _nadam_momentum(beta1, n + 1, decay)
    product.mul_(mu_now)
    product_after = product * mu_now * mu_after
    _decay_avg(first, grad, beta1)
    _decay_avg_sq(second, grad, beta2)
    scale = second.div(second_correction).sqrt().add_(group['eps'])
    param.addcdiv_(grad, scale, value=(-lr * (1. - mu_now) / (1. - product.item())))
    param.addcdiv_(first, scale, value=(-lr * mu_after) / (1. - product_after.item()))


def _radam_update(param, grad, slots, group):
    beta1, beta2 = group['betas']
    lr = group['lr']
    first = slots['exp_avg']
    second = slots['exp_avg_sq']
    n = _tick(slots['step'])
    first_correction = 1 - beta1 ** n
    second_correction = 1 - beta2 ** n
    _decay_avg(first, grad, beta1)
    _decay_avg_sq(second, grad, beta2)
    unbiased = first / first_correction
    # length of the approximated simple moving average, and its limit
    sma_limit = 2 / (1 - beta2) - 1
    sma = sma_limit - 2 * n * (beta2 ** n) / second_correction
    if not sma > 5.:
        param.add_(unbiased * lr, alpha=-1.0)
        return
    rectifier = math.sqrt((sma - 4) * (sma - 2) * sma_limit / ((sma_limit - 4) * (sma_limit - 2) * sma))
    adaptive = math.sqrt(second_correction) / second.sqrt().add_(group['eps'])
    param.add_(unbiased * lr * adaptive * rectifier, alpha=-1.0)


def _rmsprop_update(param, grad, slots, group):
    alpha = group['alpha']
    squares = slots['square_avg']
    _decay_avg_sq(squares, grad, alpha)
    if group['centered']:
        mean_grad = slots['grad_avg']
        _decay_avg(mean_grad, grad, alpha)
        root = squares.addcmul(mean_grad, mean_grad, value=-1).sqrt_()
    else:
        root = squares.sqrt()
    root = root.add(group['eps']) if group['differentiable'] else root.add_(group['eps'])
    if group['momentum'] > 0:
        velocity = slots['momentum_buffer']
        velocity.mul_(group['momentum']).addcdiv_(grad, root)
        param.add_(velocity, alpha=-group['lr'])
    else:
        param.addcdiv_(grad, root, value=-group['lr'])


def _rprop_update(param, grad, slots, group):
    shrink, grow = group['etas']
    smallest, largest = group['step_sizes']
    previous = slots['prev']
    sizes = slots['step_size']
    factor = grad.mul(previous).sign()
    factor.masked_fill_(factor.gt(0), grow)
    factor.masked_fill_(factor.lt(0), shrink)
    factor.masked_fill_(factor.eq(0), 1)
    sizes.mul_(factor).clamp_(smallest, largest)
    # a sign change skips this step and forgets the gradient
    kept = grad.clone()
    kept.masked_fill_(factor.eq(shrink), 0)
    param.addcmul_(kept.sign(), sizes, value=-1)
    previous.copy_(kept)


# ---------------------------------------------------------------------------
# The rules.
#   layout:    fresh state entries (key, maker, condition), created when a
#              parameter's state is empty (None: created by the constructor)
#   reads:     the entries a step hands to the update (key, condition)
#   counted:   `step` is a Python int, counted while gathering (int_only: a
#              tensor step is an error when the group is differentiable)
#   sparse:    gathering rejects sparse gradients
#   maximize / decay: the group's maximize / weight_decay adjust the gradient
#   fallbacks: group keys load_state_dict fills in; tensorize: state entries
#              it turns into tensors (key, through float())

_FIRST_ORDER = [('foreach', None), ('maximize', False)]

_RULES = {
    'Adadelta': {
        'layout': [('step', _int_count, None), ('square_avg', _zeros, None), ('acc_delta', _zeros, None)],
        'reads': [('square_avg', None), ('acc_delta', None)],
        'counted': True, 'sparse': True, 'maximize': True, 'decay': True,
        'fallbacks': _FIRST_ORDER, 'tensorize': [], 'update': _adadelta_update,
    },
    'Adagrad': {
        'layout': None,
        'reads': [('sum', None), ('step', None)],
        'counted': False, 'sparse': False, 'maximize': True, 'decay': True,
        'fallbacks': _FIRST_ORDER, 'tensorize': [('step', True)], 'update': _adagrad_update,
    },
    'Adamax': {
        'layout': [('step', _tensor_count, None), ('exp_avg', _zeros, None), ('exp_inf', _zeros, None)],
        'reads': [('exp_avg', None), ('exp_inf', None), ('step', None)],
        'counted': False, 'sparse': True, 'maximize': True, 'decay': True,
        'fallbacks': _FIRST_ORDER, 'tensorize': [('step', True)], 'update': _adamax_update,
    },
    'ASGD': {
        'layout': [('step', _tensor_count, None), ('eta', _lr_tensor, None), ('mu', _tensor_one, None),
                   ('ax', _zeros, None)],
        'reads': [('mu', None), ('ax', None), ('eta', None), ('step', None)],
        'counted': False, 'sparse': True, 'maximize': True, 'decay': True,
        'fallbacks': _FIRST_ORDER, 'tensorize': [('step', True), ('eta', False), ('mu', True)],
        'update': _asgd_update,
    },
    'NAdam': {
        'layout': [('step', _tensor_count, None), ('mu_product', _tensor_one, None), ('exp_avg', _zeros, None),
                   ('exp_avg_sq', _zeros, None)],
        'reads': [('exp_avg', None), ('exp_avg_sq', None), ('mu_product', None), ('step', None)],
        'counted': False, 'sparse': True, 'maximize': False, 'decay': True,
        'fallbacks': [('foreach', None)], 'tensorize': [('step', True), ('mu_product', False)],
        'update': _nadam_update,
    },
    'RAdam': {
        'layout': [('step', _tensor_count, None), ('exp_avg', _zeros, None), ('exp_avg_sq', _zeros, None)],
        'reads': [('exp_avg', None), ('exp_avg_sq', None), ('step', None)],
        'counted': False, 'sparse': True, 'maximize': False, 'decay': True,
        'fallbacks': [('foreach', None)], 'tensorize': [('step', True)], 'update': _radam_update,
    },
    'RMSprop': {
        'layout': [('step', _int_count, None), ('square_avg', _zeros, None),
                   ('momentum_buffer', _zeros, _uses_momentum), ('grad_avg', _zeros, _is_centered)],
        'reads': [('square_avg', None), ('momentum_buffer', _uses_momentum), ('grad_avg', _is_centered)],
        'counted': True, 'int_only': True, 'sparse': True, 'maximize': True, 'decay': True,
        'fallbacks': [('momentum', 0), ('centered', False), ('foreach', None), ('maximize', False),
                      ('differentiable', False)],
        'tensorize': [], 'update': _rmsprop_update,
    },
    'Rprop': {
        'layout': [('step', _int_count, None), ('prev', _zeros, None), ('step_size', _lr_sized, None)],
        'reads': [('prev', None), ('step_size', None)],
        'counted': True, 'sparse': True, 'maximize': True, 'decay': False,
        'fallbacks': _FIRST_ORDER, 'tensorize': [], 'update': _rprop_update,
    },
}


def _restore(opt, state, param_groups):
    # Optimizer._setstate plus the rule's group fallbacks and state conversions
    Optimizer._setstate(opt, state, param_groups)
    rule = _RULES[opt._update_rule]
    for group in opt.param_groups:
        for key, value in rule['fallbacks']:
            group.setdefault(key, value)
    for key, through_float in rule['tensorize']:
        _tensorize(opt.state, key, through_float)


def _gather(opt, kind, rule, group):
    # phase one of a step: every parameter with a gradient, its state created
    # if missing and the entries the update needs, the int step counted
    work = []
    for p in group['params']:
        grad = p.grad
        if grad is None:
            continue
        if rule['sparse'] and _is_sparse(grad):
            _fail(RuntimeError, 'sparse', kind)
        state = opt.state[p]
        if len(state) == 0 and rule['layout'] is not None:
            for key, make, condition in rule['layout']:
                if _applies(condition, group):
                    state[key] = make(p, grad, group)
        slots = {}
        for key, condition in rule['reads']:
            if _applies(condition, group):
                slots[key] = state[key]
        if rule['counted']:
            if rule.get('int_only') and group['differentiable'] and isinstance(state['step'], torch.Tensor):
                _fail(RuntimeError, 'step_tensor')
            state['step'] += 1
        work.append((p, grad, slots))
    return work


def _adjusted_grad(rule, param, grad, group):
    if rule['maximize'] and group['maximize']:
        grad = grad.neg()
    if rule['decay'] and group['weight_decay'] != 0:
        if _is_sparse(grad):
            _fail(RuntimeError, 'sparse_decay')
        grad = grad.add(param, alpha=group['weight_decay'])
    return grad


def _drive(opt, closure):
    # the step() of every first-order optimizer here
    kind = opt._update_rule
    rule = _RULES[kind]
    loss = _run_closure(closure)
    with torch.no_grad():
        for group in opt.param_groups:
            for param, grad, slots in _gather(opt, kind, rule, group):
                rule['update'](param, _adjusted_grad(rule, param, grad, group), slots, group)
    return loss


# ---------------------------------------------------------------------------

class Adadelta(Optimizer):
    _update_rule = 'Adadelta'

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        _construct(self, params, {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay,
                                  'maximize': maximize, 'foreach': foreach})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class Adagrad(Optimizer):
    _update_rule = 'Adagrad'

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False):
        _construct(self, params, {'lr': lr, 'lr_decay': lr_decay, 'eps': eps, 'weight_decay': weight_decay,
                                  'initial_accumulator_value': initial_accumulator_value, 'foreach': foreach,
                                  'maximize': maximize})
        # unlike the others, Adagrad's state exists from the start
        for group in self.param_groups:
            for p in group['params']:
                fresh = self.state[p]
                fresh['step'] = torch.tensor(0.0)
                fresh['sum'] = torch.full_like(p, initial_accumulator_value)

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def share_memory(self):
        for group in self.param_groups:
            for p in group['params']:
                self.state[p]['sum'].share_memory_()

    def step(self, closure=None):
        return _drive(self, closure)


class Adamax(Optimizer):
    _update_rule = 'Adamax'

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None,
                 *, maximize=False):
        _construct(self, params, {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                                  'foreach': foreach, 'maximize': maximize})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class ASGD(Optimizer):
    _update_rule = 'ASGD'

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False):
        _construct(self, params, {'lr': lr, 'lambd': lambd, 'alpha': alpha, 't0': t0,
                                  'weight_decay': weight_decay, 'foreach': foreach, 'maximize': maximize})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class NAdam(Optimizer):
    _update_rule = 'NAdam'

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        _construct(self, params, {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                                  'momentum_decay': momentum_decay, 'foreach': foreach})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class RAdam(Optimizer):
    _update_rule = 'RAdam'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        _construct(self, params, {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                                  'foreach': foreach})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class RMSprop(Optimizer):
    _update_rule = 'RMSprop'

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 foreach=None, maximize=False, differentiable=False):
        _construct(self, params, {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps,
                                  'centered': centered, 'weight_decay': weight_decay, 'foreach': foreach,
                                  'maximize': maximize, 'differentiable': differentiable})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


class Rprop(Optimizer):
    _update_rule = 'Rprop'

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        _construct(self, params, {'lr': lr, 'etas': etas, 'step_sizes': step_sizes, 'foreach': foreach,
                                  'maximize': maximize})

    def _setstate(self, state, param_groups):
        _restore(self, state, param_groups)

    def step(self, closure=None):
        return _drive(self, closure)


# ---------------------------------------------------------------------------
# LBFGS

def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    # Minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2,
    # clamped to bounds (default: between the two points); the middle of the
    # bounds when the cubic has no minimum.
    if bounds is None:
        bounds = (x1, x2) if x1 <= x2 else (x2, x1)
    low, high = bounds
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    discriminant = d1 ** 2 - g1 * g2
    if not discriminant >= 0:
        return (low + high) / 2.
    d2 = discriminant.sqrt()
    # the formula is written from the right-hand point
    if x1 <= x2:
        right, left, slope_right, slope_left = x2, x1, g2, g1
    else:
        right, left, slope_right, slope_left = x1, x2, g1, g2
    back = (slope_right + d2 - d1) / (slope_right - slope_left + 2 * d2)
    return min(max(right - (right - left) * back, low), high)


def _probe(evaluate, x, t, d):
    # one trial step: (step, loss, flat gradient, slope along d)
    loss, grad = evaluate(x, t, d)
    return (t, loss, grad, grad.dot(d))


def _kept(point):
    # a bracket end keeps its own copy of the gradient
    return (point[0], point[1], point[2].clone(), point[3])


def _lower_first(ends):
    return (0, 1) if ends[0][1] <= ends[-1][1] else (1, 0)


def _wolfe_search(evaluate, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    # Strong-Wolfe line search as 1.13's LBFGS runs it: grow the step until a
    # minimum is bracketed (or the curvature condition holds), then zoom into
    # the bracket.  Returns (loss, flat gradient, step, evaluations).
    d_norm = d.abs().max()
    g = g.clone()

    def sufficient_decrease_fails(point):
        return point[1] > (f + c1 * point[0] * gtd)

    def curvature_holds(point):
        return abs(point[3]) <= -c2 * gtd

    previous = (0, f, g, gtd)
    trial = _probe(evaluate, x, t, d)
    evaluations = 1
    rounds = 0
    done = False
    ends = None
    while rounds < max_ls:
        if sufficient_decrease_fails(trial) or (rounds > 1 and trial[1] >= previous[1]):
            ends = [previous, _kept(trial)]
            break
        if curvature_holds(trial):
            ends = [trial]
            done = True
            break
        if trial[3] >= 0:
            ends = [previous, _kept(trial)]
            break
        step_now = trial[0]
        widened = _cubic_minimum(previous[0], previous[1], previous[3], step_now, trial[1], trial[3],
                                 bounds=(step_now + 0.01 * (step_now - previous[0]), step_now * 10))
        previous = _kept(trial)
        trial = _probe(evaluate, x, widened, d)
        evaluations += 1
        rounds += 1
    if rounds == max_ls:
        ends = [(0, f, g, None), (trial[0], trial[1], trial[2], None)]

    stalled = False
    low, high = _lower_first(ends)
    while not done and rounds < max_ls:
        step_a = ends[0][0]
        step_b = ends[1][0]
        if abs(step_b - step_a) * d_norm < tolerance_change:
            break
        step_new = _cubic_minimum(step_a, ends[0][1], ends[0][3], step_b, ends[1][1], ends[1][3])
        top = max(step_a, step_b)
        bottom = min(step_a, step_b)
        margin = 0.1 * (top - bottom)
        # keep the trial away from the bracket's ends
        if min(top - step_new, step_new - bottom) < margin:
            if stalled or step_new >= top or step_new <= bottom:
                step_new = top - margin if abs(step_new - top) < abs(step_new - bottom) else bottom + margin
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        trial = _probe(evaluate, x, step_new, d)
        evaluations += 1
        rounds += 1
        if sufficient_decrease_fails(trial) or trial[1] >= ends[low][1]:
            ends[high] = _kept(trial)
            low, high = _lower_first(ends)
            continue
        if curvature_holds(trial):
            done = True
        elif trial[3] * (ends[high][0] - ends[low][0]) >= 0:
            ends[high] = ends[low]
        ends[low] = _kept(trial)
    best = ends[low]
    return best[1], best[2], best[0], evaluations


# state entries LBFGS carries from one step() to the next, in 1.13's order
_CARRIED = ('d', 't', 'old_dirs', 'old_stps', 'ro', 'H_diag', 'prev_flat_grad', 'prev_loss')
_LBFGS_SETTINGS = ('lr', 'max_iter', 'max_eval', 'tolerance_grad', 'tolerance_change', 'line_search_fn',
                   'history_size')


def _small(t, tolerance):
    return t.abs().max() <= tolerance


def _two_loop(state, flat_grad, memory, gamma, history_size):
    # the L-BFGS direction: -H * flat_grad from the stored curvature pairs
    dirs, steps, inverse_ys = memory
    count = len(dirs)
    if 'al' not in state:
        state['al'] = [None] * history_size
    alphas = state['al']
    q = flat_grad.neg()
    for k in range(count - 1, -1, -1):
        alphas[k] = steps[k].dot(q) * inverse_ys[k]
        q.add_(dirs[k], alpha=-alphas[k])
    direction = torch.mul(q, gamma)
    for k in range(count):
        beta = dirs[k].dot(direction) * inverse_ys[k]
        direction.add_(steps[k], alpha=alphas[k] - beta)
    return direction


def _remember(memory, y, s, ys, history_size):
    # store a curvature pair, dropping the oldest when the history is full
    if len(memory[0]) == history_size:
        for column in memory:
            column.pop(0)
    memory[0].append(y)
    memory[1].append(s)
    memory[2].append(1. / ys)


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, {'lr': lr, 'max_iter': max_iter, 'max_eval': max_eval,
                                  'tolerance_grad': tolerance_grad, 'tolerance_change': tolerance_change,
                                  'history_size': history_size, 'line_search_fn': line_search_fn})
        if len(self.param_groups) != 1:
            _fail(ValueError, 'lbfgs_groups')
        self._params = self.param_groups[0]['params']
        self._numel_cache = None

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum([p.numel() for p in self._params])
        return self._numel_cache

    def _gather_flat_grad(self):
        pieces = []
        for p in self._params:
            pieces.append(torch.zeros(p.numel(), dtype=p.dtype) if p.grad is None else p.grad.view(-1))
        return torch.cat(pieces, 0)

    def _add_grad(self, step_size, update):
        start = 0
        for p in self._params:
            stop = start + p.numel()
            p.add_(update[start:stop].view_as(p), alpha=step_size)
            start = stop
        if start != self._numel():
            raise AssertionError()

    def _clone_param(self):
        return [p.clone() for p in self._params]

    def _set_param(self, params_data):
        for p, saved in zip(self._params, params_data):
            p.copy_(saved)

    def _directional_evaluate(self, closure, x, t, d):
        # loss and flat gradient at x + t * d; the parameters are put back to x
        self._add_grad(t, d)
        with torch.enable_grad():
            loss = float(closure())
        grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, grad

    def step(self, closure):
        with torch.no_grad():
            return self._step(closure)

    def _step(self, closure):
        if len(self.param_groups) != 1:
            raise AssertionError()
        lr, max_iter, max_eval, tol_grad, tol_change, line_search, history_size = [
            self.param_groups[0][key] for key in _LBFGS_SETTINGS]

        state = self.state[self._params[0]]
        state.setdefault('func_evals', 0)
        state.setdefault('n_iter', 0)

        with torch.enable_grad():
            first_loss = closure()
        loss = float(first_loss)
        evals_here = 1
        state['func_evals'] += 1

        flat_grad = self._gather_flat_grad()
        if _small(flat_grad, tol_grad):
            return first_loss

        d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, prev_loss = [state.get(key) for key in _CARRIED]

        converged = False
        iteration = 0
        while iteration < max_iter:
            iteration += 1
            state['n_iter'] += 1
            first_ever = state['n_iter'] == 1

            if first_ever:
                d = flat_grad.neg()
                old_dirs = []
                old_stps = []
                ro = []
                H_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    _remember((old_dirs, old_stps, ro), y, s, ys, history_size)
                    H_diag = ys / y.dot(y)
                d = _two_loop(state, flat_grad, (old_dirs, old_stps, ro), H_diag, history_size)

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if first_ever:
                # the first step is scaled down by the gradient's l1 norm
                inverse_l1 = 1. / flat_grad.abs().sum()
                t = min(1., inverse_l1) * lr
            else:
                t = lr

            gtd = flat_grad.dot(d)
            if gtd > -tol_change:
                break

            used = 0
            if line_search is None:
                self._add_grad(t, d)
                if iteration != max_iter:
                    with torch.enable_grad():
                        loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    converged = _small(flat_grad, tol_grad)
                    used = 1
            else:
                if line_search != "strong_wolfe":
                    _fail(RuntimeError, 'line_search')
                start = self._clone_param()
                loss, flat_grad, t, used = _wolfe_search(
                    lambda x, step, direction: self._directional_evaluate(closure, x, step, direction),
                    start, t, d, loss, flat_grad, gtd)
                self._add_grad(t, d)
                converged = _small(flat_grad, tol_grad)

            evals_here += used
            state['func_evals'] += used

            if iteration == max_iter or evals_here >= max_eval or converged:
                break
            if _small(d.mul(t), tol_change) or abs(loss - prev_loss) < tol_change:
                break

        for key, value in zip(_CARRIED, [d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, prev_loss]):
            state[key] = value
        return first_loss
