# Fuselab prelude: more of torch.optim (Adadelta, Adagrad, Adamax, ASGD, NAdam,
# RAdam, RMSprop, Rprop, LBFGS).
#
# Runs as its own module; globals from the loader: torch, math, optim
# (torch.optim with everything of optim.py).  Every name in __all__ is added
# to torch.optim.  Written in the model-script Python subset (no imports).
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


def _is_sparse(t):
    # Fuselab tensors are strided (no Tensor.is_sparse yet)
    return getattr(t, 'is_sparse', False)


def _run_closure(closure):
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def _steps_to_tensors(state, key='step'):
    state_values = list(state.values())
    is_tensor = len(state_values) != 0 and isinstance(state_values[0][key], torch.Tensor)
    if not is_tensor:
        for s in state_values:
            s[key] = torch.tensor(float(s[key]))


def _check_betas(lr, betas, eps, weight_decay):
    if not 0.0 <= lr:
        raise ValueError("Invalid learning rate: {}".format(lr))
    if not 0.0 <= eps:
        raise ValueError("Invalid epsilon value: {}".format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    if not 0.0 <= weight_decay:
        raise ValueError("Invalid weight_decay value: {}".format(weight_decay))


# ---------------------------------------------------------------------------

class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay,
                    'maximize': maximize, 'foreach': foreach}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                square_avgs = []
                acc_deltas = []
                lr = group['lr']
                rho = group['rho']
                eps = group['eps']
                weight_decay = group['weight_decay']
                maximize = group['maximize']
                for p in group['params']:
                    if p.grad is None:
                        continue
                    params_with_grad.append(p)
                    if _is_sparse(p.grad):
                        raise RuntimeError('Adadelta does not support sparse gradients')
                    grads.append(p.grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state['step'] = 0
                        state['square_avg'] = torch.zeros_like(p)
                        state['acc_delta'] = torch.zeros_like(p)
                    square_avgs.append(state['square_avg'])
                    acc_deltas.append(state['acc_delta'])
                    state['step'] += 1
                for param, grad, square_avg, acc_delta in zip(params_with_grad, grads, square_avgs, acc_deltas):
                    grad = grad if not maximize else grad.neg()
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                    std = square_avg.add(eps).sqrt_()
                    delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                    param.add_(delta, alpha=-lr)
        return loss


# ---------------------------------------------------------------------------

class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= lr_decay:
            raise ValueError("Invalid lr_decay value: {}".format(lr_decay))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: {}".format(initial_accumulator_value))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        defaults = {'lr': lr, 'lr_decay': lr_decay, 'eps': eps, 'weight_decay': weight_decay,
                    'initial_accumulator_value': initial_accumulator_value, 'foreach': foreach,
                    'maximize': maximize}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.tensor(0.0)
                state['sum'] = torch.full_like(p, initial_accumulator_value)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _steps_to_tensors(self.state)

    def share_memory(self):
        for group in self.param_groups:
            for p in group['params']:
                self.state[p]['sum'].share_memory_()

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                state_sums = []
                state_steps = []
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        grads.append(p.grad)
                        state = self.state[p]
                        state_sums.append(state['sum'])
                        state_steps.append(state['step'])
                lr = group['lr']
                weight_decay = group['weight_decay']
                lr_decay = group['lr_decay']
                eps = group['eps']
                maximize = group['maximize']
                for param, grad, state_sum, step_t in zip(params_with_grad, grads, state_sums, state_steps):
                    step_t.add_(1)
                    step = step_t.item()
                    grad = grad if not maximize else grad.neg()
                    if weight_decay != 0:
                        if _is_sparse(grad):
                            raise RuntimeError("weight_decay option is not compatible with sparse gradients")
                        grad = grad.add(param, alpha=weight_decay)
                    clr = lr / (1 + (step - 1) * lr_decay)
                    state_sum.addcmul_(grad, grad, value=1)
                    std = state_sum.sqrt().add_(eps)
                    param.addcdiv_(grad, std, value=-clr)
        return loss


# ---------------------------------------------------------------------------

class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None,
                 *, maximize=False):
        _check_betas(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'foreach': foreach, 'maximize': maximize}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _steps_to_tensors(self.state)

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                exp_avgs = []
                exp_infs = []
                state_steps = []
                beta1, beta2 = group['betas']
                eps = group['eps']
                lr = group['lr']
                weight_decay = group['weight_decay']
                maximize = group['maximize']
                for p in group['params']:
                    if p.grad is None:
                        continue
                    params_with_grad.append(p)
                    if _is_sparse(p.grad):
                        raise RuntimeError('Adamax does not support sparse gradients')
                    grads.append(p.grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.0)
                        state['exp_avg'] = torch.zeros_like(p)
                        state['exp_inf'] = torch.zeros_like(p)
                    exp_avgs.append(state['exp_avg'])
                    exp_infs.append(state['exp_inf'])
                    state_steps.append(state['step'])
                for i, param in enumerate(params_with_grad):
                    grad = grads[i]
                    grad = grad if not maximize else grad.neg()
                    exp_avg = exp_avgs[i]
                    exp_inf = exp_infs[i]
                    step_t = state_steps[i]
                    step_t.add_(1)
                    step = step_t.item()
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    norm_buf = torch.cat([exp_inf.mul_(beta2).unsqueeze(0),
                                          grad.abs().add_(eps).unsqueeze(0)], 0)
                    exp_inf.copy_(torch.amax(norm_buf, 0, keepdim=False))
                    bias_correction = 1 - beta1 ** step
                    clr = lr / bias_correction
                    param.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss


# ---------------------------------------------------------------------------

class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = {'lr': lr, 'lambd': lambd, 'alpha': alpha, 't0': t0, 'weight_decay': weight_decay,
                    'foreach': foreach, 'maximize': maximize}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _steps_to_tensors(self.state)
        state_values = list(self.state.values())
        if not (len(state_values) != 0 and isinstance(state_values[0]['eta'], torch.Tensor)):
            for s in state_values:
                s['eta'] = torch.tensor(s['eta'])
        if not (len(state_values) != 0 and isinstance(state_values[0]['mu'], torch.Tensor)):
            for s in state_values:
                s['mu'] = torch.tensor(float(s['mu']))

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                mus = []
                axs = []
                etas = []
                state_steps = []
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        if _is_sparse(p.grad):
                            raise RuntimeError('ASGD does not support sparse gradients')
                        grads.append(p.grad)
                        state = self.state[p]
                        if len(state) == 0:
                            state['step'] = torch.tensor(0.0)
                            state['eta'] = torch.tensor(group['lr'])
                            state['mu'] = torch.tensor(1.0)
                            state['ax'] = torch.zeros_like(p)
                        mus.append(state['mu'])
                        axs.append(state['ax'])
                        etas.append(state['eta'])
                        state_steps.append(state['step'])
                lambd = group['lambd']
                lr = group['lr']
                t0 = group['t0']
                alpha = group['alpha']
                weight_decay = group['weight_decay']
                maximize = group['maximize']
                for i, param in enumerate(params_with_grad):
                    grad = grads[i]
                    grad = grad if not maximize else grad.neg()
                    mu = mus[i]
                    ax = axs[i]
                    eta = etas[i]
                    step_t = state_steps[i]
                    step_t.add_(1)
                    step = step_t.item()
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    param.mul_(1 - lambd * eta.item())
                    param.add_(grad, alpha=-eta.item())
                    if mu.item() != 1:
                        ax.add_(param.sub(ax).mul(mu))
                    else:
                        ax.copy_(param)
                    new_eta = torch.tensor(lr / math.pow((1 + lambd * lr * step), alpha))
                    eta.copy_(new_eta)
                    new_mu = torch.tensor(1 / max(1, step - t0))
                    mu.copy_(new_mu)
        return loss


# ---------------------------------------------------------------------------

class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        _check_betas(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError("Invalid momentum_decay value: {}".format(momentum_decay))
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'momentum_decay': momentum_decay, 'foreach': foreach}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
        _steps_to_tensors(self.state)
        state_values = list(self.state.values())
        if not (len(state_values) != 0 and isinstance(state_values[0]['mu_product'], torch.Tensor)):
            for s in state_values:
                s['mu_product'] = torch.tensor(s['mu_product'])

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                exp_avgs = []
                exp_avg_sqs = []
                mu_products = []
                state_steps = []
                beta1, beta2 = group['betas']
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        if _is_sparse(p.grad):
                            raise RuntimeError('NAdam does not support sparse gradients')
                        grads.append(p.grad)
                        state = self.state[p]
                        if len(state) == 0:
                            state['step'] = torch.tensor(0.0)
                            state['mu_product'] = torch.tensor(1.0)
                            state['exp_avg'] = torch.zeros_like(p)
                            state['exp_avg_sq'] = torch.zeros_like(p)
                        exp_avgs.append(state['exp_avg'])
                        exp_avg_sqs.append(state['exp_avg_sq'])
                        mu_products.append(state['mu_product'])
                        state_steps.append(state['step'])
                lr = group['lr']
                weight_decay = group['weight_decay']
                momentum_decay = group['momentum_decay']
                eps = group['eps']
                for i, param in enumerate(params_with_grad):
                    grad = grads[i]
                    exp_avg = exp_avgs[i]
                    exp_avg_sq = exp_avg_sqs[i]
                    mu_product = mu_products[i]
                    step_t = state_steps[i]
                    step_t.add_(1)
                    step = step_t.item()
                    bias_correction2 = 1 - beta2 ** step
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    mu = beta1 * (1. - 0.5 * (0.96 ** (step * momentum_decay)))
                    mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                    mu_product.mul_(mu)
                    mu_product_next = mu_product * mu * mu_next
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
                    param.addcdiv_(grad, denom, value=(-lr * (1. - mu) / (1. - mu_product.item())))
                    param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1. - mu_product_next.item()))
        return loss


# ---------------------------------------------------------------------------

class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        _check_betas(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay,
                    'foreach': foreach}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
        _steps_to_tensors(self.state)

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                exp_avgs = []
                exp_avg_sqs = []
                state_steps = []
                beta1, beta2 = group['betas']
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        if _is_sparse(p.grad):
                            raise RuntimeError('RAdam does not support sparse gradients')
                        grads.append(p.grad)
                        state = self.state[p]
                        if len(state) == 0:
                            state['step'] = torch.tensor(0.0)
                            state['exp_avg'] = torch.zeros_like(p)
                            state['exp_avg_sq'] = torch.zeros_like(p)
                        exp_avgs.append(state['exp_avg'])
                        exp_avg_sqs.append(state['exp_avg_sq'])
                        state_steps.append(state['step'])
                lr = group['lr']
                weight_decay = group['weight_decay']
                eps = group['eps']
                for i, param in enumerate(params_with_grad):
                    grad = grads[i]
                    exp_avg = exp_avgs[i]
                    exp_avg_sq = exp_avg_sqs[i]
                    step_t = state_steps[i]
                    step_t.add_(1)
                    step = step_t.item()
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    bias_corrected_exp_avg = exp_avg / bias_correction1
                    rho_inf = 2 / (1 - beta2) - 1
                    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                    if rho_t > 5.:
                        rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf /
                                         ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                        adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
                        param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                    else:
                        param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss


# ---------------------------------------------------------------------------

class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= momentum:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= alpha:
            raise ValueError("Invalid alpha value: {}".format(alpha))
        defaults = {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps, 'centered': centered,
                    'weight_decay': weight_decay, 'foreach': foreach, 'maximize': maximize,
                    'differentiable': differentiable}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('momentum', 0)
            group.setdefault('centered', False)
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                square_avgs = []
                grad_avgs = []
                momentum_buffer_list = []
                for p in group['params']:
                    if p.grad is None:
                        continue
                    params_with_grad.append(p)
                    if _is_sparse(p.grad):
                        raise RuntimeError('RMSprop does not support sparse gradients')
                    grads.append(p.grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state['step'] = 0
                        state['square_avg'] = torch.zeros_like(p)
                        if group['momentum'] > 0:
                            state['momentum_buffer'] = torch.zeros_like(p)
                        if group['centered']:
                            state['grad_avg'] = torch.zeros_like(p)
                    square_avgs.append(state['square_avg'])
                    if group['momentum'] > 0:
                        momentum_buffer_list.append(state['momentum_buffer'])
                    if group['centered']:
                        grad_avgs.append(state['grad_avg'])
                    if group['differentiable'] and isinstance(state['step'], torch.Tensor):
                        raise RuntimeError("`step` can't be a tensor")
                    state['step'] += 1
                lr = group['lr']
                alpha = group['alpha']
                eps = group['eps']
                weight_decay = group['weight_decay']
                momentum = group['momentum']
                centered = group['centered']
                maximize = group['maximize']
                differentiable = group['differentiable']
                for i, param in enumerate(params_with_grad):
                    grad = grads[i]
                    grad = grad if not maximize else grad.neg()
                    square_avg = square_avgs[i]
                    if weight_decay != 0:
                        grad = grad.add(param, alpha=weight_decay)
                    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                    if centered:
                        grad_avg = grad_avgs[i]
                        grad_avg.mul_(alpha).add_(grad, alpha=1 - alpha)
                        avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                    else:
                        avg = square_avg.sqrt()
                    if differentiable:
                        avg = avg.add(eps)
                    else:
                        avg = avg.add_(eps)
                    if momentum > 0:
                        buf = momentum_buffer_list[i]
                        buf.mul_(momentum).addcdiv_(grad, avg)
                        param.add_(buf, alpha=-lr)
                    else:
                        param.addcdiv_(grad, avg, value=-lr)
        return loss


# ---------------------------------------------------------------------------

class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = {'lr': lr, 'etas': etas, 'step_sizes': step_sizes, 'foreach': foreach,
                    'maximize': maximize}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)

    def step(self, closure=None):
        loss = _run_closure(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params = []
                grads = []
                prevs = []
                step_sizes = []
                etaminus, etaplus = group['etas']
                step_size_min, step_size_max = group['step_sizes']
                maximize = group['maximize']
                for p in group['params']:
                    if p.grad is None:
                        continue
                    params.append(p)
                    grad = p.grad
                    if _is_sparse(grad):
                        raise RuntimeError('Rprop does not support sparse gradients')
                    grads.append(grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state['step'] = 0
                        state['prev'] = torch.zeros_like(p)
                        state['step_size'] = torch.empty(grad.shape, dtype=grad.dtype, device=grad.device).fill_(group['lr'])
                    prevs.append(state['prev'])
                    step_sizes.append(state['step_size'])
                    state['step'] += 1
                for i, param in enumerate(params):
                    grad = grads[i]
                    grad = grad if not maximize else grad.neg()
                    prev = prevs[i]
                    step_size = step_sizes[i]
                    sign = grad.mul(prev).sign()
                    sign.masked_fill_(sign.gt(0), etaplus)
                    sign.masked_fill_(sign.lt(0), etaminus)
                    sign.masked_fill_(sign.eq(0), 1)
                    step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                    grad = grad.clone()
                    grad.masked_fill_(sign.eq(etaminus), 0)
                    param.addcmul_(grad.sign(), step_size, value=-1)
                    prev.copy_(grad)
        return loss


# ---------------------------------------------------------------------------
# LBFGS

def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    else:
        return (xmin_bound + xmax_bound) / 2.


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket = None
    bracket_f = None
    bracket_g = None
    bracket_gtd = None
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = [t]
            bracket_f = [f_new]
            bracket_g = [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev = tmp
        f_prev = f_new
        g_prev = g_new.clone()
        gtd_prev = gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [0, t]
        bracket_f = [f, f_new]
        bracket_g = [g, g_new]
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0],
                               bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos] = t
            bracket_f[high_pos] = f_new
            bracket_g[high_pos] = g_new.clone()
            bracket_gtd[high_pos] = gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos] = bracket[low_pos]
                bracket_f[high_pos] = bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos] = t
            bracket_f[low_pos] = f_new
            bracket_g[low_pos] = g_new.clone()
            bracket_gtd[low_pos] = gtd_new
    t = bracket[low_pos]
    f_new = bracket_f[low_pos]
    g_new = bracket_g[low_pos]
    return f_new, g_new, t, ls_func_evals


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {'lr': lr, 'max_iter': max_iter, 'max_eval': max_eval,
                    'tolerance_grad': tolerance_grad, 'tolerance_change': tolerance_change,
                    'history_size': history_size, 'line_search_fn': line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options "
                             "(parameter groups)")
        self._params = self.param_groups[0]['params']
        self._numel_cache = None

    def _numel(self):
        if self._numel_cache is None:
            total = 0
            for p in self._params:
                total = total + p.numel()
            self._numel_cache = total
        return self._numel_cache

    def _gather_flat_grad(self):
        views = []
        for p in self._params:
            if p.grad is None:
                view = torch.zeros(p.numel(), dtype=p.dtype)
            else:
                view = p.grad.view(-1)
            views.append(view)
        return torch.cat(views, 0)

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel
        if offset != self._numel():
            raise AssertionError()

    def _clone_param(self):
        return [p.clone() for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data):
            p.copy_(pdata)

    def _directional_evaluate(self, closure, x, t, d):
        self._add_grad(t, d)
        with torch.enable_grad():
            loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        with torch.no_grad():
            return self._step(closure)

    def _step(self, closure):
        if len(self.param_groups) != 1:
            raise AssertionError()
        group = self.param_groups[0]
        lr = group['lr']
        max_iter = group['max_iter']
        max_eval = group['max_eval']
        tolerance_grad = group['tolerance_grad']
        tolerance_change = group['tolerance_change']
        line_search_fn = group['line_search_fn']
        history_size = group['history_size']

        state = self.state[self._params[0]]
        state.setdefault('func_evals', 0)
        state.setdefault('n_iter', 0)

        with torch.enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state['func_evals'] += 1

        flat_grad = self._gather_flat_grad()
        opt_cond = flat_grad.abs().max() <= tolerance_grad
        if opt_cond:
            return orig_loss

        d = state.get('d')
        t = state.get('t')
        old_dirs = state.get('old_dirs')
        old_stps = state.get('old_stps')
        ro = state.get('ro')
        H_diag = state.get('H_diag')
        prev_flat_grad = state.get('prev_flat_grad')
        prev_loss = state.get('prev_loss')

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state['n_iter'] += 1
            if state['n_iter'] == 1:
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
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1. / ys)
                    H_diag = ys / y.dot(y)
                num_old = len(old_dirs)
                if 'al' not in state:
                    state['al'] = [None] * history_size
                al = state['al']
                q = flat_grad.neg()
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i])
                d = torch.mul(q, H_diag)
                r = d
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=al[i] - be_i)

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if state['n_iter'] == 1:
                t = min(1., 1. / flat_grad.abs().sum()) * lr
            else:
                t = lr

            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                else:
                    x_init = self._clone_param()

                    def obj_func(x, t, d):
                        return self._directional_evaluate(closure, x, t, d)

                    loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                        obj_func, x_init, t, d, loss, flat_grad, gtd)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    with torch.enable_grad():
                        loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1

            current_evals += ls_func_evals
            state['func_evals'] += ls_func_evals

            if n_iter == max_iter:
                break
            if current_evals >= max_eval:
                break
            if opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state['d'] = d
        state['t'] = t
        state['old_dirs'] = old_dirs
        state['old_stps'] = old_stps
        state['ro'] = ro
        state['H_diag'] = H_diag
        state['prev_flat_grad'] = prev_flat_grad
        state['prev_loss'] = prev_loss
        return orig_loss
