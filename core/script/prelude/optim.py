# Fuselab prelude: torch.optim
#
# Executed at interpreter start-up; this file's globals become `torch.optim`.
# Names provided by the loader: torch, math.
# Written in the model-script Python subset: no imports, no generators, no
# decorators, single inheritance, zero-argument super() only.
#
# The update arithmetic is PyTorch 1.13's single-tensor (non-foreach) path,
# operation for operation (_single_tensor_sgd / _single_tensor_adam /
# _single_tensor_adamw), so parameters after N steps are bit-identical.
# With foreach=True, 1.13 uses the multi-tensor kernels; those give the same
# values for SGD/Adam on CPU, and the single-tensor path is used here anyway.
#
# PyTorch 1.13 vs 2.x differences kept at their 1.13 behaviour:
#  - Optimizer.zero_grad(set_to_none=False): 1.13 zeroes gradients by default
#    (2.0+ sets them to None by default).
#  - Adam/AdamW update exp_avg with exp_avg.mul_(beta1).add_(grad, alpha=1-beta1)
#    (2.x uses exp_avg.lerp_(grad, 1-beta1), which rounds differently).
#  - Adam/AdamW keep `step` as a float32 0-dim tensor (torch.tensor(0.)) and
#    use step.item() in Python-float bias corrections (1.13 non-capturable path).
#  - param_group keys (and their order) are 1.13's:
#      SGD:   lr, momentum, dampening, weight_decay, nesterov, maximize,
#             foreach, differentiable
#      Adam:  lr, betas, eps, weight_decay, amsgrad, maximize, foreach,
#             capturable, differentiable, fused
#      AdamW: lr, betas, eps, weight_decay, amsgrad, foreach, maximize,
#             capturable
#    (2.x adds e.g. 'fused' to SGD and 'differentiable'/'fused' to AdamW,
#    which shows in repr(optimizer) and state_dict()).
#  - SGD's lr is required (no default), as in 1.13 (2.2+ defaults to 1e-3).
#  - No optimizer step/state-dict hooks (2.x).

# Other known differences from CPython + torch:
#  - `state` is a defaultdict(dict)-like object keyed by parameter identity
#    (supports [], in, len, iteration, keys/values/items/get); its repr mimics
#    defaultdict's.
#  - capturable=True / differentiable=True / fused=True are accepted and stored
#    but the non-capturable CPU arithmetic is used.
#  - The closure passed to step() is run before the no-grad update block
#    (1.13 runs it under torch.enable_grad(); same effect unless step() itself
#    is called inside torch.no_grad()).
#  - add_param_group does not check param.is_leaf, and does not warn on
#    duplicate parameters (the warning goes to stderr in 1.13).


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _state_key(k):
    if isinstance(k, torch.Tensor):
        return id(k)
    return k


class _ParamState:
    # defaultdict(dict) keyed by parameter identity
    def __init__(self):
        self._keys = {}
        self._vals = {}

    def __getitem__(self, k):
        sk = _state_key(k)
        if sk not in self._vals:
            self._keys[sk] = k
            self._vals[sk] = {}
        return self._vals[sk]

    def __setitem__(self, k, v):
        sk = _state_key(k)
        self._keys[sk] = k
        self._vals[sk] = v

    def __delitem__(self, k):
        sk = _state_key(k)
        del self._keys[sk]
        del self._vals[sk]

    def __contains__(self, k):
        return _state_key(k) in self._vals

    def __len__(self):
        return len(self._vals)

    def __bool__(self):
        return len(self._vals) > 0

    def __iter__(self):
        return iter(list(self._keys.values()))

    def keys(self):
        return list(self._keys.values())

    def values(self):
        return list(self._vals.values())

    def items(self):
        return [(self._keys[sk], self._vals[sk]) for sk in self._vals.keys()]

    def get(self, k, default=None):
        sk = _state_key(k)
        if sk in self._vals:
            return self._vals[sk]
        return default

    def __repr__(self):
        parts = [repr(self._keys[sk]) + ': ' + repr(self._vals[sk]) for sk in self._vals.keys()]
        return "defaultdict(<class 'dict'>, {" + ', '.join(parts) + "})"

    def __str__(self):
        return self.__repr__()


_TENSOR_TYPE_NAMES = {
    'torch.float32': 'torch.FloatTensor',
    'torch.float64': 'torch.DoubleTensor',
    'torch.float16': 'torch.HalfTensor',
    'torch.bfloat16': 'torch.BFloat16Tensor',
    'torch.int64': 'torch.LongTensor',
    'torch.int32': 'torch.IntTensor',
    'torch.int16': 'torch.ShortTensor',
    'torch.int8': 'torch.CharTensor',
    'torch.uint8': 'torch.ByteTensor',
    'torch.bool': 'torch.BoolTensor',
}


def _typename(o):
    if isinstance(o, torch.Tensor):
        return _TENSOR_TYPE_NAMES.get(str(o.dtype), 'torch.Tensor')
    return type(o).__name__


def _copy_value(value):
    # stands in for copy.deepcopy on optimizer state / group values
    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[k] = _copy_value(v)
        return out
    if isinstance(value, list):
        return [_copy_value(v) for v in value]
    if isinstance(value, tuple):
        return tuple([_copy_value(v) for v in value])
    return value


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be "
                            "an iterable of Tensors or dicts, but got " + _typename(params))
        self.state = _ParamState()
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __repr__(self):
        format_string = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            format_string += '\n'
            format_string += 'Parameter Group {}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    format_string += '    {}: {}\n'.format(key, group[key])
        format_string += ')'
        return format_string

    def __str__(self):
        return self.__repr__()

    def _setstate(self, state, param_groups):
        self.state = state
        self.param_groups = param_groups
        self.defaults.setdefault('differentiable', False)

    def state_dict(self):
        param_mappings = {}
        start_index = 0
        param_groups = []
        for group in self.param_groups:
            packed = {}
            for k, v in group.items():
                if k != 'params':
                    packed[k] = v
            i = start_index
            for p in group['params']:
                if id(p) not in param_mappings:
                    param_mappings[id(p)] = i
                i += 1
            packed['params'] = [param_mappings[id(p)] for p in group['params']]
            start_index += len(packed['params'])
            param_groups.append(packed)
        packed_state = {}
        for k, v in self.state.items():
            if isinstance(k, torch.Tensor):
                packed_state[param_mappings[id(k)]] = v
            else:
                packed_state[k] = v
        return {'state': packed_state, 'param_groups': param_groups}

    def _cast(self, param, value, key=None):
        if isinstance(value, torch.Tensor):
            if key != 'step':
                if param.is_floating_point():
                    value = value.to(param.dtype)
                value = value.to(param.device)
            return value
        elif isinstance(value, dict):
            out = {}
            for k, v in value.items():
                out[k] = self._cast(param, v, k)
            return out
        elif isinstance(value, list):
            return [self._cast(param, v) for v in value]
        elif isinstance(value, tuple):
            return tuple([self._cast(param, v) for v in value])
        else:
            return value

    def load_state_dict(self, state_dict):
        state_dict = _copy_value(state_dict)
        groups = self.param_groups
        saved_groups = state_dict['param_groups']
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for g, sg in zip(groups, saved_groups):
            if len(g['params']) != len(sg['params']):
                raise ValueError("loaded state dict contains a parameter group "
                                 "that doesn't match the size of optimizer's group")
        id_map = {}
        for g, sg in zip(groups, saved_groups):
            for old_id, p in zip(sg['params'], g['params']):
                id_map[old_id] = p
        state = _ParamState()
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = self._cast(param, v)
            else:
                state[k] = v
        param_groups = []
        for g, ng in zip(groups, saved_groups):
            ng['params'] = g['params']
            param_groups.append(ng)
        self._setstate(state, param_groups)

    def zero_grad(self, set_to_none=False):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise AssertionError("param group must be a dict")
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but '
                            'the ordering of tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, "
                                "but one of the params is " + _typename(param))
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter " +
                                 name)
            else:
                param_group.setdefault(name, default)
        seen = {}
        for group in self.param_groups:
            for p in group['params']:
                seen[id(p)] = True
        for p in param_group['params']:
            if id(p) in seen:
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)


class SGD(Optimizer):
    def __init__(self, params, lr=required, momentum=0, dampening=0,
                 weight_decay=0, nesterov=False, maximize=False, foreach=None,
                 differentiable=False):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = {'lr': lr, 'momentum': momentum, 'dampening': dampening,
                    'weight_decay': weight_decay, 'nesterov': nesterov,
                    'maximize': maximize, 'foreach': foreach,
                    'differentiable': differentiable}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('nesterov', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('differentiable', False)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                d_p_list = []
                momentum_buffer_list = []
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        d_p_list.append(p.grad)
                        state = self.state[p]
                        if 'momentum_buffer' not in state:
                            momentum_buffer_list.append(None)
                        else:
                            momentum_buffer_list.append(state['momentum_buffer'])
                _single_tensor_sgd(params_with_grad, d_p_list, momentum_buffer_list,
                                   group['weight_decay'], group['momentum'], group['lr'],
                                   group['dampening'], group['nesterov'], group['maximize'])
                for p, momentum_buffer in zip(params_with_grad, momentum_buffer_list):
                    state = self.state[p]
                    state['momentum_buffer'] = momentum_buffer
        return loss


def _single_tensor_sgd(params, d_p_list, momentum_buffer_list, weight_decay, momentum,
                       lr, dampening, nesterov, maximize):
    for i, param in enumerate(params):
        d_p = d_p_list[i] if not maximize else d_p_list[i].neg()
        if weight_decay != 0:
            d_p = d_p.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = torch.clone(d_p).detach()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
            if nesterov:
                d_p = d_p.add(buf, alpha=momentum)
            else:
                d_p = buf
        param.add_(d_p, alpha=-lr)


def _check_adam_args(lr, betas, eps, weight_decay):
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


def _steps_to_tensors(state):
    state_values = list(state.values())
    step_is_tensor = len(state_values) != 0 and isinstance(state_values[0]['step'], torch.Tensor)
    if not step_is_tensor:
        for s in state_values:
            s['step'] = torch.tensor(float(s['step']))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=0, amsgrad=False, foreach=None, maximize=False,
                 capturable=False, differentiable=False, fused=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps,
                    'weight_decay': weight_decay, 'amsgrad': amsgrad,
                    'maximize': maximize, 'foreach': foreach, 'capturable': capturable,
                    'differentiable': differentiable, 'fused': fused}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('amsgrad', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('capturable', False)
            group.setdefault('differentiable', False)
            group.setdefault('fused', False)
        _steps_to_tensors(self.state)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                exp_avgs = []
                exp_avg_sqs = []
                max_exp_avg_sqs = []
                state_steps = []
                beta1, beta2 = group['betas']
                for p in group['params']:
                    if p.grad is not None:
                        params_with_grad.append(p)
                        grads.append(p.grad)
                        state = self.state[p]
                        if len(state) == 0:
                            state['step'] = torch.tensor(0.0)
                            state['exp_avg'] = torch.zeros_like(p)
                            state['exp_avg_sq'] = torch.zeros_like(p)
                            if group['amsgrad']:
                                state['max_exp_avg_sq'] = torch.zeros_like(p)
                        exp_avgs.append(state['exp_avg'])
                        exp_avg_sqs.append(state['exp_avg_sq'])
                        if group['amsgrad']:
                            max_exp_avg_sqs.append(state['max_exp_avg_sq'])
                        state_steps.append(state['step'])
                _single_tensor_adam(params_with_grad, grads, exp_avgs, exp_avg_sqs,
                                    max_exp_avg_sqs, state_steps, group['amsgrad'],
                                    beta1, beta2, group['lr'], group['weight_decay'],
                                    group['eps'], group['maximize'])
        return loss


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                        state_steps, amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else grads[i].neg()
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t.add_(1)
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = math.sqrt(bias_correction2)
        if amsgrad:
            max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sqs[i], exp_avg_sq))
            denom = max_exp_avg_sqs[i].sqrt().div_(bias_correction2_sqrt).add_(eps)
        else:
            denom = exp_avg_sq.sqrt().div_(bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=1e-2, amsgrad=False, maximize=False,
                 foreach=None, capturable=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = {'lr': lr, 'betas': betas, 'eps': eps,
                    'weight_decay': weight_decay, 'amsgrad': amsgrad,
                    'foreach': foreach, 'maximize': maximize, 'capturable': capturable}
        super().__init__(params, defaults)

    def _setstate(self, state, param_groups):
        super()._setstate(state, param_groups)
        for group in self.param_groups:
            group.setdefault('amsgrad', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('capturable', False)
        _steps_to_tensors(self.state)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad = []
                grads = []
                exp_avgs = []
                exp_avg_sqs = []
                max_exp_avg_sqs = []
                state_steps = []
                amsgrad = group['amsgrad']
                beta1, beta2 = group['betas']
                for p in group['params']:
                    if p.grad is None:
                        continue
                    params_with_grad.append(p)
                    grads.append(p.grad)
                    state = self.state[p]
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.0)
                        state['exp_avg'] = torch.zeros_like(p)
                        state['exp_avg_sq'] = torch.zeros_like(p)
                        if amsgrad:
                            state['max_exp_avg_sq'] = torch.zeros_like(p)
                    exp_avgs.append(state['exp_avg'])
                    exp_avg_sqs.append(state['exp_avg_sq'])
                    if amsgrad:
                        max_exp_avg_sqs.append(state['max_exp_avg_sq'])
                    state_steps.append(state['step'])
                _single_tensor_adamw(params_with_grad, grads, exp_avgs, exp_avg_sqs,
                                     max_exp_avg_sqs, state_steps, amsgrad, beta1, beta2,
                                     group['lr'], group['weight_decay'], group['eps'],
                                     group['maximize'])
        return loss


def _single_tensor_adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                         state_steps, amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else grads[i].neg()
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        step_t.add_(1)
        param.mul_(1 - lr * weight_decay)
        exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = math.sqrt(bias_correction2)
        if amsgrad:
            max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sqs[i], exp_avg_sq))
            denom = max_exp_avg_sqs[i].sqrt().div_(bias_correction2_sqrt).add_(eps)
        else:
            denom = exp_avg_sq.sqrt().div_(bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)
