# Fuselab prelude: torch.optim.lr_scheduler
#
# Executed at interpreter start-up as module torch.optim.lr_scheduler.
# Names provided by the loader: torch, math, optim (torch.optim).
# Written in the model-script Python subset (no import statements).
#
# Layout of this module:
#   1. message templates and small utilities (Counter look-alike, bisect,
#      step counting wrapper, epoch formatting for verbose output);
#   2. _LRScheduler, whose step() asks a subclass for new rates either
#      incrementally (get_lr) or in closed form (_get_closed_form_lr);
#   3. the closed forms, kept in one table (_CLOSED_FORMS) keyed by a
#      class attribute, so every "epoch given" path shares one mechanism;
#   4. the concrete schedulers.
#
# Behaviour targets PyTorch 1.13: every learning-rate expression keeps the
# floating-point evaluation order of the reference so results are
# bit-identical, instance attributes are created in the reference order
# (state_dict() keys and their order depend on it), and error messages and
# verbose lines are the same text.
#
# Known differences from PyTorch 1.13:
#  - 1.13 names the base class _LRScheduler; it is also exported as
#    LRScheduler (the 2.x name) for scripts written against 2.x.
#  - Warnings (step order, deprecated epoch argument, get_lr() outside
#    step()) are not emitted; 1.13 sends them to stderr.
#  - optimizer.step is wrapped by an instance of _StepCounter (1.13 uses a
#    functools.wraps closure holding a weakref); it counts calls in
#    optimizer._step_count the same way.
#  - MultiStepLR.milestones is a small Counter look-alike (_Counter) whose
#    repr matches collections.Counter's.
#  - CyclicLR keeps a bound method in _scale_fn_ref (1.13: a
#    weakref.WeakMethod); both reprs contain addresses anyway.
#  - LambdaLR / MultiplicativeLR state_dict() save None for every lambda
#    that is a plain function, and fn.__dict__ copies for callable objects.

__all__ = ['LambdaLR', 'MultiplicativeLR', 'StepLR', 'MultiStepLR', 'ConstantLR', 'LinearLR',
           'ExponentialLR', 'SequentialLR', 'CosineAnnealingLR', 'ChainedScheduler', 'ReduceLROnPlateau',
           'CyclicLR', 'CosineAnnealingWarmRestarts', 'OneCycleLR', 'PolynomialLR']

Optimizer = optim.Optimizer
inf = math.inf

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

# ---------------------------------------------------------------------------
# Error texts (must match the reference word for word), filled by _fail().
_SAME_OPT = "belong to the same optimizer, but got schedulers at index "
_MESSAGES = {
    'not_optimizer': "{} is not an Optimizer",
    'no_initial_lr': "param 'initial_lr' is not specified in param_groups[{}] when resuming an optimizer",
    'lambda_count': "Expected {} lr_lambdas, but got {}",
    'const_factor': "Constant multiplicative factor expected to be between 0 and 1.",
    'start_factor': "Starting multiplicative factor expected to be between 0 and 1.",
    'end_factor': "Ending multiplicative factor expected to be between 0 and 1.",
    'seq_foreign': "Sequential Schedulers expects all schedulers to " + _SAME_OPT
                   + "{} to be different than the optimizer passed in.",
    'seq_mixed': "Sequential Schedulers expects all schedulers to " + _SAME_OPT + "{} and {} to be different.",
    'seq_count': ("Sequential Schedulers expects number of schedulers provided to be one more "
                  "than the number of milestone points, but got number of schedulers {} and the "
                  "number of milestones to be equal to {}"),
    'chain_mixed': "ChainedScheduler expects all schedulers to " + _SAME_OPT + "{} and {} to be different",
    'plateau_factor': "Factor should be < 1.0.",
    'min_lr_count': "expected {} min_lrs, got {}",
    'value_count': "expected {} values for {}, got {}",
    'cyclic_mode': "mode is invalid and scale_fn is None",
    'no_momentum': "optimizer must support momentum with `cycle_momentum` option enabled",
    'bad_T_0': "Expected positive integer T_0, but got {}",
    'bad_T_mult': "Expected integer T_mult >= 1, but got {}",
    'neg_epoch': "Expected non-negative epoch, but got {}",
    'no_length': "You must define either total_steps OR (epochs AND steps_per_epoch)",
    'bad_total_steps': "Expected positive integer total_steps, but got {}",
    'bad_epochs': "Expected positive integer epochs, but got {}",
    'bad_steps_per_epoch': "Expected positive integer steps_per_epoch, but got {}",
    'bad_pct_start': "Expected float between 0 and 1 pct_start, but got {}",
    'bad_anneal': "anneal_strategy must by one of 'cos' or 'linear', instead got {}",
    'overstep': "Tried to step {} times. The specified number of total steps is {}",
}


def _fail(kind, key, *fill):
    raise kind(_MESSAGES[key].format(*fill))


def _require_optimizer(obj):
    if not isinstance(obj, Optimizer):
        _fail(TypeError, 'not_optimizer', type(obj).__name__)


def _positive_int(value, key):
    # shared check: a strictly positive int, else ValueError(key)
    if value <= 0 or not isinstance(value, int):
        _fail(ValueError, key, value)


def bisect_right(a, x):
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


class _Counter:
    # the part of collections.Counter that MultiStepLR uses
    def __init__(self, iterable=None):
        self._d = {}
        if iterable is not None:
            for k in iterable:
                self._d[k] = self._d.get(k, 0) + 1

    def __getitem__(self, k):
        return self._d.get(k, 0)

    def __setitem__(self, k, v):
        self._d[k] = v

    def __contains__(self, k):
        return k in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(list(self._d.keys()))

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def elements(self):
        out = []
        for k, v in self._d.items():
            for _ in range(v):
                out.append(k)
        return iter(out)

    def __eq__(self, other):
        if isinstance(other, _Counter):
            return self._d == other._d
        return self._d == other

    def __repr__(self):
        if not self._d:
            return 'Counter()'
        items = sorted(list(self._d.items()), key=lambda kv: -kv[1])
        return 'Counter({' + ', '.join([repr(k) + ': ' + repr(v) for k, v in items]) + '})'

    def __str__(self):
        return self.__repr__()


class _StepCounter:
    # replaces optimizer.step: counts calls in optimizer._step_count
    _with_counter = True

    def __init__(self, opt, method):
        self._opt = opt
        self._method = method

    def __call__(self, *args, **kwargs):
        self._opt._step_count += 1
        return self._method(*args, **kwargs)


def _with_counter(opt):
    method = opt.step
    if getattr(method, '_with_counter', False):
        return method
    return _StepCounter(opt, method)


def _is_plain_function(fn):
    return type(fn).__name__ == 'function' or type(fn).__name__ == 'builtin_function_or_method'


def _format_epoch(epoch):
    if isinstance(epoch, float):
        return '%.2f' % epoch
    # '%.5d' % epoch (written out: the interpreter's % ignores an integer precision)
    n = int(epoch)
    digits = str(-n if n < 0 else n)
    if len(digits) < 5:
        digits = '0' * (5 - len(digits)) + digits
    return ('-' if n < 0 else '') + digits


# ---------------------------------------------------------------------------
# Small helpers over param groups and scheduler state.

def _lrs_now(opt):
    return [g['lr'] for g in opt.param_groups]


def _lrs_times(opt, k):
    # every group's current rate multiplied by one factor
    return [g['lr'] * k for g in opt.param_groups]


def _per_group(opt, value, what):
    # broadcast a scalar to every group, or check a per-group sequence
    width = len(opt.param_groups)
    if not isinstance(value, (list, tuple)):
        return [value] * width
    if len(value) != width:
        if what is None:
            _fail(ValueError, 'lambda_count', width, len(value))
        _fail(ValueError, 'value_count', width, what, len(value))
    return value


def _format_param(name, optimizer, param):
    return _per_group(optimizer, param, name)


def _state_without(obj, hidden):
    out = {}
    for name, val in obj.__dict__.items():
        if name not in hidden:
            out[name] = val
    return out


def _restore_with_children(obj, saved, key, restore_one):
    # the child list is loaded separately, after the plain attributes
    children = saved.pop(key)
    obj.__dict__.update(saved)
    saved[key] = children
    own = getattr(obj, key)
    for pos in range(len(children)):
        restore_one(own[pos], children[pos])


def _cos_mix(low, high, wave):
    # low + (high - low) * wave / 2, in the reference's evaluation order
    return low + (high - low) * wave / 2


def _publish(sched, values, epoch):
    groups = sched.optimizer.param_groups
    pos = 0
    for g, lr in zip(groups, values):
        g['lr'] = lr
        sched.print_lr(sched.verbose, pos, lr, epoch)
        pos += 1
    sched._last_lr = _lrs_now(sched.optimizer)


# ---------------------------------------------------------------------------
# Closed forms used by step(epoch). Each entry maps (scheduler, base_lr) to
# the rate at scheduler.last_epoch without looking at the current rates.

def _closed_step(s, b):
    return b * s.gamma ** (s.last_epoch // s.step_size)


def _closed_multistep(s, b):
    marks = sorted(list(s.milestones.elements()))
    return b * s.gamma ** bisect_right(marks, s.last_epoch)


def _closed_constant(s, b):
    reached = s.last_epoch >= s.total_iters
    return b * (s.factor + reached * (1 - s.factor))


def _closed_linear(s, b):
    span = s.end_factor - s.start_factor
    return b * (s.start_factor + span * min(s.total_iters, s.last_epoch) / s.total_iters)


def _closed_exponential(s, b):
    return b * s.gamma ** s.last_epoch


def _closed_polynomial(s, b):
    done = min(s.total_iters, s.last_epoch)
    return b * (1.0 - done / s.total_iters) ** s.power


def _closed_cosine(s, b):
    return _cos_mix(s.eta_min, b, 1 + math.cos(math.pi * s.last_epoch / s.T_max))


_CLOSED_FORMS = {
    'step': _closed_step,
    'multistep': _closed_multistep,
    'constant': _closed_constant,
    'linear': _closed_linear,
    'exponential': _closed_exponential,
    'polynomial': _closed_polynomial,
    'cosine': _closed_cosine,
}


def _closed_form(sched):
    rule = _CLOSED_FORMS[sched._closed_rule]
    return [rule(sched, b) for b in sched.base_lrs]


# ---------------------------------------------------------------------------

class _LRScheduler:
    def __init__(self, optimizer, last_epoch=-1, verbose=False):
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        groups = optimizer.param_groups
        fresh = last_epoch == -1
        for pos in range(len(groups)):
            g = groups[pos]
            if fresh:
                g.setdefault('initial_lr', g['lr'])
            elif 'initial_lr' not in g:
                _fail(KeyError, 'no_initial_lr', pos)
        self.base_lrs = [g['initial_lr'] for g in groups]
        self.last_epoch = last_epoch
        optimizer.step = _with_counter(optimizer)
        self.verbose = verbose
        self._initial_step()

    def _initial_step(self):
        self.optimizer._step_count = 0
        self._step_count = 0
        self.step()

    def state_dict(self):
        return _state_without(self, ('optimizer',))

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)

    def get_last_lr(self):
        return self._last_lr

    def get_lr(self):
        raise NotImplementedError

    def print_lr(self, is_verbose, group, lr, epoch=None):
        if not is_verbose:
            return
        if epoch is None:
            print('Adjusting learning rate of group {} to {:.4e}.'.format(group, lr))
        else:
            print('Epoch {}: adjusting learning rate of group {} to {:.4e}.'.format(
                _format_epoch(epoch), group, lr))

    def _next_values(self, epoch):
        # chainable update, or the closed form when an epoch is forced
        if epoch is None:
            self.last_epoch += 1
            return self.get_lr()
        self.last_epoch = epoch
        if hasattr(self, '_get_closed_form_lr'):
            return self._get_closed_form_lr()
        return self.get_lr()

    def step(self, epoch=None):
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            values = self._next_values(epoch)
        finally:
            self._get_lr_called_within_step = False
        _publish(self, values, epoch)


LRScheduler = _LRScheduler


# --- schedulers driven by user callables -----------------------------------

def _callable_state(sched):
    saved = _state_without(sched, ('optimizer', 'lr_lambdas'))
    slots = []
    for fn in sched.lr_lambdas:
        keep = None
        if not _is_plain_function(fn) and hasattr(fn, '__dict__'):
            keep = dict(fn.__dict__)
        slots.append(keep)
    saved['lr_lambdas'] = slots
    return saved


def _refill_callable(fn, saved_attrs):
    if saved_attrs is not None:
        fn.__dict__.update(saved_attrs)


def _lambdas(optimizer, lr_lambda):
    return list(_per_group(optimizer, lr_lambda, None))


class LambdaLR(_LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def state_dict(self):
        return _callable_state(self)

    def load_state_dict(self, state_dict):
        _restore_with_children(self, state_dict, 'lr_lambdas', _refill_callable)

    def get_lr(self):
        e = self.last_epoch
        return [b * f(e) for f, b in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LRScheduler):
    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose=False):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def state_dict(self):
        return _callable_state(self)

    def load_state_dict(self, state_dict):
        _restore_with_children(self, state_dict, 'lr_lambdas', _refill_callable)

    def get_lr(self):
        e = self.last_epoch
        groups = self.optimizer.param_groups
        if e <= 0:
            return _lrs_now(self.optimizer)
        return [g['lr'] * f(e) for f, g in zip(self.lr_lambdas, groups)]


# --- multiplicative decays with closed forms --------------------------------

class StepLR(_LRScheduler):
    _closed_rule = 'step'

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        on_boundary = e != 0 and e % self.step_size == 0
        return _lrs_times(self.optimizer, self.gamma) if on_boundary else _lrs_now(self.optimizer)

    def _get_closed_form_lr(self):
        return _closed_form(self)


class MultiStepLR(_LRScheduler):
    _closed_rule = 'multistep'

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        self.milestones = _Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        if e in self.milestones:
            return _lrs_times(self.optimizer, self.gamma ** self.milestones[e])
        return _lrs_now(self.optimizer)

    def _get_closed_form_lr(self):
        return _closed_form(self)


def _check_unit(value, key):
    if value > 1.0 or value < 0:
        _fail(ValueError, key)


class ConstantLR(_LRScheduler):
    _closed_rule = 'constant'

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1, verbose=False):
        _check_unit(factor, 'const_factor')
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        if e == 0:
            return _lrs_times(self.optimizer, self.factor)
        if e == self.total_iters:
            return _lrs_times(self.optimizer, 1.0 / self.factor)
        return _lrs_now(self.optimizer)

    def _get_closed_form_lr(self):
        return _closed_form(self)


class LinearLR(_LRScheduler):
    _closed_rule = 'linear'

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1,
                 verbose=False):
        _check_unit(start_factor, 'start_factor')
        _check_unit(end_factor, 'end_factor')
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        lo = self.start_factor
        if e == 0:
            return _lrs_times(self.optimizer, lo)
        if e > self.total_iters:
            return _lrs_now(self.optimizer)
        span = self.end_factor - lo
        # ratio between consecutive points of the linear ramp
        ratio = 1. + span / (self.total_iters * lo + (e - 1) * span)
        return _lrs_times(self.optimizer, ratio)

    def _get_closed_form_lr(self):
        return _closed_form(self)


class ExponentialLR(_LRScheduler):
    _closed_rule = 'exponential'

    def __init__(self, optimizer, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return _lrs_now(self.optimizer)
        return _lrs_times(self.optimizer, self.gamma)

    def _get_closed_form_lr(self):
        return _closed_form(self)


class PolynomialLR(_LRScheduler):
    _closed_rule = 'polynomial'

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1, verbose=False):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        n = self.total_iters
        if e == 0 or e > n:
            return _lrs_now(self.optimizer)
        ahead = 1.0 - e / n
        behind = 1.0 - (e - 1) / n
        return _lrs_times(self.optimizer, (ahead / behind) ** self.power)

    def _get_closed_form_lr(self):
        return _closed_form(self)


class CosineAnnealingLR(_LRScheduler):
    _closed_rule = 'cosine'

    def __init__(self, optimizer, T_max, eta_min=0, last_epoch=-1, verbose=False):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        e = self.last_epoch
        period = self.T_max
        floor_lr = self.eta_min
        groups = self.optimizer.param_groups
        if e == 0:
            return _lrs_now(self.optimizer)
        if self._step_count == 1 and e > 0:
            # first step after resuming mid-schedule: jump straight onto the curve
            wave = 1 + math.cos((e) * math.pi / period)
            return [_cos_mix(floor_lr, b, wave) for b in self.base_lrs]
        if (e - 1 - period) % (2 * period) == 0:
            # leaving a trough: add back half of one cosine step
            lift = 1 - math.cos(math.pi / period)
            return [g['lr'] + (b - floor_lr) * lift / 2 for b, g in zip(self.base_lrs, groups)]
        now = 1 + math.cos(math.pi * e / period)
        before = 1 + math.cos(math.pi * (e - 1) / period)
        return [now / before * (g['lr'] - floor_lr) + floor_lr for g in groups]

    def _get_closed_form_lr(self):
        return _closed_form(self)


# --- schedulers that drive other schedulers ---------------------------------

def _nested_state_dict(sched):
    saved = _state_without(sched, ('optimizer', '_schedulers'))
    saved['_schedulers'] = [child.state_dict() for child in sched._schedulers]
    return saved


def _reload_child(child, saved):
    child.load_state_dict(saved)


class SequentialLR(_LRScheduler):
    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1, verbose=False):
        first_opt = schedulers[0].optimizer if len(schedulers) > 0 else None
        for pos in range(len(schedulers)):
            owner = schedulers[pos].optimizer
            if owner is not optimizer:
                _fail(ValueError, 'seq_foreign', pos)
            if owner is not first_opt:
                _fail(ValueError, 'seq_mixed', 0, pos)
        if len(milestones) + 1 != len(schedulers):
            _fail(ValueError, 'seq_count', len(schedulers), len(milestones))
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for g in optimizer.param_groups:
            g["lr"] = g["initial_lr"]
        # the children already stepped once when they were built; undo that
        for child in schedulers:
            child.last_epoch -= 1
        lead = schedulers[0]
        lead._initial_step()
        self._last_lr = lead.get_last_lr()

    def step(self):
        self.last_epoch += 1
        e = self.last_epoch
        which = bisect_right(self._milestones, e)
        active = self._schedulers[which]
        starts_here = which > 0 and self._milestones[which - 1] == e
        if starts_here:
            active.step(0)
        else:
            active.step()
        self._last_lr = active.get_last_lr()

    def state_dict(self):
        return _nested_state_dict(self)

    def load_state_dict(self, state_dict):
        _restore_with_children(self, state_dict, '_schedulers', _reload_child)


class ChainedScheduler(_LRScheduler):
    def __init__(self, schedulers):
        head = schedulers[0].optimizer
        for pos in range(1, len(schedulers)):
            if schedulers[pos].optimizer is not head:
                _fail(ValueError, 'chain_mixed', 0, pos)
        self._schedulers = list(schedulers)
        self.optimizer = head
        self._last_lr = _lrs_now(self._schedulers[-1].optimizer)

    def step(self):
        for child in self._schedulers:
            child.step()
        self._last_lr = _lrs_now(self._schedulers[-1].optimizer)

    def state_dict(self):
        return _nested_state_dict(self)

    def load_state_dict(self, state_dict):
        _restore_with_children(self, state_dict, '_schedulers', _reload_child)


# --- metric driven -----------------------------------------------------------

# (mode, threshold_mode) -> comparison of a new metric against the best one
_IMPROVES = {
    ('min', 'rel'): lambda a, best, t: a < best * (1. - t),
    ('min', 'abs'): lambda a, best, t: a < best - t,
    ('max', 'rel'): lambda a, best, t: a > best * (t + 1.),
    ('max', 'abs'): lambda a, best, t: a > best + t,
}


class ReduceLROnPlateau:
    def __init__(self, optimizer, mode='min', factor=0.1, patience=10,
                 threshold=1e-4, threshold_mode='rel', cooldown=0,
                 min_lr=0, eps=1e-8, verbose=False):
        if factor >= 1.0:
            _fail(ValueError, 'plateau_factor')
        self.factor = factor
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        width = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != width:
                _fail(ValueError, 'min_lr_count', width, len(min_lr))
            self.min_lrs = list(min_lr)
        else:
            self.min_lrs = [min_lr] * width
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.best = None
        self.num_bad_epochs = None
        self.mode_worse = None
        self.eps = eps
        self.last_epoch = 0
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None):
        value = float(metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        epoch = self.last_epoch
        if self.is_better(value, self.best):
            self.best = value
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            # bad epochs during cooldown do not count
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _lrs_now(self.optimizer)

    def _reduce_lr(self, epoch):
        pos = 0
        for g in self.optimizer.param_groups:
            before = float(g['lr'])
            after = max(before * self.factor, self.min_lrs[pos])
            if before - after > self.eps:
                g['lr'] = after
                if self.verbose:
                    print('Epoch {}: reducing learning rate of group {} to {:.4e}.'.format(
                        _format_epoch(epoch), pos, after))
            pos += 1

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def is_better(self, a, best):
        test = _IMPROVES.get((self.mode, self.threshold_mode), _IMPROVES[('max', 'abs')])
        return test(a, best, self.threshold)

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {'min', 'max'}:
            raise ValueError('mode ' + mode + ' is unknown!')
        if threshold_mode not in {'rel', 'abs'}:
            raise ValueError('threshold mode ' + threshold_mode + ' is unknown!')
        self.mode_worse = inf if mode == 'min' else -inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def state_dict(self):
        return _state_without(self, ('optimizer',))

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode)


# --- cyclical schedules ------------------------------------------------------

# built-in CyclicLR modes: mode -> (scale method name, scale_mode it forces)
_CYCLIC_MODES = {
    'triangular': ('_triangular_scale_fn', 'cycle'),
    'triangular2': ('_triangular2_scale_fn', 'cycle'),
    'exp_range': ('_exp_range_scale_fn', 'iterations'),
}


class CyclicLR(_LRScheduler):
    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode='triangular', gamma=1., scale_fn=None, scale_mode='cycle',
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9,
                 last_epoch=-1, verbose=False):
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        groups = optimizer.param_groups
        fresh = last_epoch == -1
        lows = self._format_param('base_lr', optimizer, base_lr)
        if fresh:
            for g, lr in zip(groups, lows):
                g['lr'] = lr
        self.max_lrs = _per_group(optimizer, max_lr, 'max_lr')
        rise = float(step_size_up)
        fall = rise if step_size_down is None else float(step_size_down)
        self.total_size = rise + fall
        self.step_ratio = rise / self.total_size
        if scale_fn is None and mode not in _CYCLIC_MODES:
            _fail(ValueError, 'cyclic_mode')
        self.mode = mode
        self.gamma = gamma
        if scale_fn is not None:
            self._scale_fn_custom = scale_fn
            self._scale_fn_ref = None
            self.scale_mode = scale_mode
        else:
            method_name, forced_mode = _CYCLIC_MODES[mode]
            self._scale_fn_custom = None
            self._scale_fn_ref = getattr(self, method_name)
            self.scale_mode = forced_mode
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if 'momentum' not in optimizer.defaults:
                _fail(ValueError, 'no_momentum')
            lows_m = self._format_param('base_momentum', optimizer, base_momentum)
            if fresh:
                for g, m in zip(groups, lows_m):
                    g['momentum'] = m
            self.base_momentums = [g['momentum'] for g in groups]
            self.max_momentums = _per_group(optimizer, max_momentum, 'max_momentum')
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)
        self.base_lrs = lows

    def _format_param(self, name, optimizer, param):
        return _per_group(optimizer, param, name)

    def scale_fn(self, x):
        chosen = self._scale_fn_custom
        if chosen is None:
            chosen = self._scale_fn_ref
        return chosen(x)

    def _triangular_scale_fn(self, x):
        return 1.

    def _triangular2_scale_fn(self, x):
        return 1 / (2. ** (x - 1))

    def _exp_range_scale_fn(self, x):
        return self.gamma ** (x)

    def get_lr(self):
        e = self.last_epoch
        size = self.total_size
        ratio = self.step_ratio
        cycle = math.floor(1 + e / size)
        where = 1. + e / size - cycle
        # position inside the current half-cycle, 0 at the bottom, 1 at the top
        if where <= ratio:
            height = where / ratio
        else:
            height = (where - 1) / (ratio - 1)
        arg = cycle if self.scale_mode == 'cycle' else e
        out = []
        for lo, hi in zip(self.base_lrs, self.max_lrs):
            out.append(lo + (hi - lo) * height * self.scale_fn(arg))
        if self.cycle_momentum:
            moms = []
            for lo, hi in zip(self.base_momentums, self.max_momentums):
                moms.append(hi - (hi - lo) * height * self.scale_fn(arg))
            for g, m in zip(self.optimizer.param_groups, moms):
                g['momentum'] = m
        return out


class CosineAnnealingWarmRestarts(_LRScheduler):
    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if T_0 <= 0 or not isinstance(T_0, int):
            _fail(ValueError, 'bad_T_0', T_0)
        if not (T_mult >= 1 and isinstance(T_mult, int)):
            _fail(ValueError, 'bad_T_mult', T_mult)
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        wave = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [_cos_mix(self.eta_min, b, wave) for b in self.base_lrs]

    def _advance(self):
        # one implicit step; wrap into the next (possibly longer) period
        self.T_cur = self.T_cur + 1
        if self.T_cur >= self.T_i:
            self.T_cur = self.T_cur - self.T_i
            self.T_i = self.T_i * self.T_mult

    def _seek(self, epoch):
        # place (T_cur, T_i) for an explicit epoch
        if epoch < 0:
            _fail(ValueError, 'neg_epoch', epoch)
        first = self.T_0
        grow = self.T_mult
        if epoch < first:
            self.T_i = first
            self.T_cur = epoch
        elif grow == 1:
            self.T_cur = epoch % first
        else:
            k = int(math.log((epoch / first * (grow - 1) + 1), grow))
            self.T_cur = epoch - first * (grow ** k - 1) / (grow - 1)
            self.T_i = first * grow ** (k)

    def step(self, epoch=None):
        if epoch is None:
            if self.last_epoch < 0:
                epoch = 0
                self._seek(epoch)
            else:
                epoch = self.last_epoch + 1
                self._advance()
        else:
            self._seek(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        _publish(self, values, epoch)


# --- one-cycle policy --------------------------------------------------------

def _phase(end_step, lr_from, lr_to, mom_from, mom_to):
    return {'end_step': end_step, 'start_lr': lr_from, 'end_lr': lr_to,
            'start_momentum': mom_from, 'end_momentum': mom_to}


def _one_cycle_phases(total, pct_start, three_phase):
    rise_end = float(pct_start * total) - 1
    if not three_phase:
        return [_phase(rise_end, 'initial_lr', 'max_lr', 'max_momentum', 'base_momentum'),
                _phase(total - 1, 'max_lr', 'min_lr', 'base_momentum', 'max_momentum')]
    return [_phase(rise_end, 'initial_lr', 'max_lr', 'max_momentum', 'base_momentum'),
            _phase(float(2 * pct_start * total) - 2, 'max_lr', 'initial_lr', 'base_momentum', 'max_momentum'),
            _phase(total - 1, 'initial_lr', 'min_lr', 'max_momentum', 'max_momentum')]


def _set_momentum(group, use_betas, value):
    if use_betas:
        group['betas'] = tuple([value] + list(group['betas'][1:]))
    else:
        group['momentum'] = value


class OneCycleLR(_LRScheduler):
    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85,
                 max_momentum=0.95, div_factor=25., final_div_factor=1e4, three_phase=False,
                 last_epoch=-1, verbose=False):
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        if total_steps is not None:
            _positive_int(total_steps, 'bad_total_steps')
            self.total_steps = total_steps
        elif epochs is None and steps_per_epoch is None:
            _fail(ValueError, 'no_length')
        else:
            _positive_int(epochs, 'bad_epochs')
            _positive_int(steps_per_epoch, 'bad_steps_per_epoch')
            self.total_steps = epochs * steps_per_epoch
        self._schedule_phases = _one_cycle_phases(self.total_steps, pct_start, three_phase)
        pct_ok = not (pct_start < 0 or pct_start > 1) and isinstance(pct_start, float)
        if not pct_ok:
            _fail(ValueError, 'bad_pct_start', pct_start)
        if anneal_strategy == 'cos':
            self.anneal_func = self._annealing_cos
        elif anneal_strategy == 'linear':
            self.anneal_func = self._annealing_linear
        else:
            _fail(ValueError, 'bad_anneal', anneal_strategy)
        groups = optimizer.param_groups
        fresh = last_epoch == -1
        peaks = self._format_param('max_lr', optimizer, max_lr)
        if fresh:
            for g, peak in zip(groups, peaks):
                g['initial_lr'] = peak / div_factor
                g['max_lr'] = peak
                g['min_lr'] = g['initial_lr'] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            known = optimizer.defaults
            if 'momentum' not in known and 'betas' not in known:
                _fail(ValueError, 'no_momentum')
            self.use_beta1 = 'betas' in known
            tops = self._format_param('max_momentum', optimizer, max_momentum)
            bottoms = self._format_param('base_momentum', optimizer, base_momentum)
            if fresh:
                for g, top, bottom in zip(groups, tops, bottoms):
                    _set_momentum(g, self.use_beta1, top)
                    g['max_momentum'] = top
                    g['base_momentum'] = bottom
        super().__init__(optimizer, last_epoch=last_epoch, verbose=verbose)

    def _format_param(self, name, optimizer, param):
        return _per_group(optimizer, param, name)

    def _annealing_cos(self, start, end, pct):
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    def _annealing_linear(self, start, end, pct):
        return (end - start) * pct + start

    def _locate(self, step_num):
        # (phase, step where it began) holding step_num; the last phase absorbs overflow
        phases = self._schedule_phases
        began = 0
        last = len(phases) - 1
        for pos in range(len(phases)):
            ph = phases[pos]
            if step_num <= ph['end_step'] or pos == last:
                return ph, began
            began = ph['end_step']
        return None, began

    def get_lr(self):
        step_num = self.last_epoch
        if step_num > self.total_steps:
            _fail(ValueError, 'overstep', step_num + 1, self.total_steps)
        ph, began = self._locate(step_num)
        anneal = self.anneal_func
        out = []
        for g in self.optimizer.param_groups:
            lr = None
            mom = None
            if ph is not None:
                pct = (step_num - began) / (ph['end_step'] - began)
                lr = anneal(g[ph['start_lr']], g[ph['end_lr']], pct)
                if self.cycle_momentum:
                    mom = anneal(g[ph['start_momentum']], g[ph['end_momentum']], pct)
            out.append(lr)
            if self.cycle_momentum:
                _set_momentum(g, self.use_beta1, mom)
        return out
