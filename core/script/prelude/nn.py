# Fuselab prelude: torch.nn module classes
#
# Executed at interpreter start-up; this file's globals become `torch.nn`.
# Names provided by the loader: torch, F (torch.nn.functional), math,
# Parameter, _OrderedDict, init (the executed init.py namespace).
# Written in the model-script Python subset: no imports, no generators
# (methods that return generators in PyTorch return iter(list) here), no
# decorators, single inheritance, zero-argument super() only, no __dict__.
#
# PyTorch 1.13 vs 2.x differences kept at their 1.13 behaviour:
#  - Module.zero_grad(set_to_none=False): 1.13 zeroes gradients by default
#    (2.0+ sets them to None by default).
#  - Module.__init__() takes no arguments (2.x accepts and rejects *args/**kwargs).
#  - named_parameters()/named_buffers() have no remove_duplicate argument
#    (added in 2.0); named_modules() has it (1.13 has it too).
#  - state_dict(destination=None, prefix='', keep_vars=False) (positional use
#    is accepted without the 1.13 deprecation warning, which goes to stderr).
#  - load_state_dict(state_dict, strict=True): no `assign=` argument (2.1+).
#  - Module.__call__ has no global hooks, backward hooks, or
#    forward-hook with_kwargs/always_call variants (2.x).
#  - LayerNorm has no `bias=` argument (2.1+); Embedding has no `_freeze=`
#    argument (2.0+).
#
# Other known differences from CPython + torch (by construction of the subset):
#  - state_dict() returns an OrderedDict without the `_metadata` attribute
#    (the subset cannot attach attributes to a dict).  load_state_dict() still
#    reads `_metadata` when the given dict has it.  With no metadata,
#    BatchNorm2d fills in a missing `num_batches_tracked` (as 1.13 does for
#    version-less state dicts) instead of reporting it as missing.
#  - Sequential(OrderedDict) also accepts a plain dict (the subset cannot tell
#    OrderedDict from dict); 1.13 rejects a plain dict with a TypeError.
#  - Slicing a Sequential / ModuleList subclass returns a plain Sequential /
#    ModuleList (1.13 uses self.__class__).
#  - get_extra_state/set_extra_state overrides are not consulted.
#  - Error messages that 1.13 builds with torch.typename(obj) use
#    type(obj).__name__ (or the tensor type name for tensors) here.
#  - Non-floating dtype checks of Module.to() are not performed.


# torch.nn.functional / torch.nn.Parameter / torch.nn.init are reachable as
# nn.functional, nn.Parameter and nn.init (the last two are loader globals).
functional = F


def _addindent(s_, numSpaces):
    s = s_.split('\n')
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(' ' * numSpaces) + line for line in s]
    s = '\n'.join(s)
    s = first + '\n' + s
    return s


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


def _is_index(idx):
    # True for an integer index (or a 0-dim integer tensor), False for a slice.
    return isinstance(idx, int) or isinstance(idx, torch.Tensor)


def _as_int(idx):
    if isinstance(idx, torch.Tensor):
        return int(idx)
    return idx


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return '_IncompatibleKeys(missing_keys={}, unexpected_keys={})'.format(
            repr(self.missing_keys), repr(self.unexpected_keys))

    def __str__(self):
        return self.__repr__()

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return [self.missing_keys, self.unexpected_keys][i]

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])


_hook_counter = [0]


class _RemovableHandle:
    def __init__(self, hooks_dict):
        self.hooks_dict = hooks_dict
        self.id = _hook_counter[0]
        _hook_counter[0] = _hook_counter[0] + 1

    def remove(self):
        if self.id in self.hooks_dict:
            del self.hooks_dict[self.id]


class Module:
    dump_patches = False
    _version = 1
    # Class-level defaults so that reading these before Module.__init__ ran
    # finds None instead of recursing into __getattr__.
    _parameters = None
    _buffers = None
    _modules = None
    _non_persistent_buffers_set = None
    _forward_hooks = None
    _forward_pre_hooks = None

    def __init__(self):
        object.__setattr__(self, 'training', True)
        object.__setattr__(self, '_parameters', _OrderedDict())
        object.__setattr__(self, '_buffers', _OrderedDict())
        object.__setattr__(self, '_non_persistent_buffers_set', {})
        object.__setattr__(self, '_backward_hooks', _OrderedDict())
        object.__setattr__(self, '_is_full_backward_hook', None)
        object.__setattr__(self, '_forward_hooks', _OrderedDict())
        object.__setattr__(self, '_forward_pre_hooks', _OrderedDict())
        object.__setattr__(self, '_state_dict_hooks', _OrderedDict())
        object.__setattr__(self, '_load_state_dict_pre_hooks', _OrderedDict())
        object.__setattr__(self, '_load_state_dict_post_hooks', _OrderedDict())
        object.__setattr__(self, '_modules', _OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(
            'Module [{}] is missing the required "forward" function'.format(type(self).__name__))

    # ----------------------------------------------------------------- registration
    def register_buffer(self, name, tensor, persistent=True):
        if self._buffers is None:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("buffer name should be a string. Got {}".format(_typename(name)))
        elif '.' in name:
            raise KeyError("buffer name can't contain \".\"")
        elif name == '':
            raise KeyError("buffer name can't be empty string \"\"")
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError("attribute '{}' already exists".format(name))
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError("cannot assign '{}' object to buffer '{}' "
                            "(torch Tensor or None required)".format(_typename(tensor), name))
        else:
            self._buffers[name] = tensor
            if persistent:
                if name in self._non_persistent_buffers_set:
                    del self._non_persistent_buffers_set[name]
            else:
                self._non_persistent_buffers_set[name] = True

    def register_parameter(self, name, param):
        if self._parameters is None:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got {}".format(_typename(name)))
        elif '.' in name:
            raise KeyError("parameter name can't contain \".\"")
        elif name == '':
            raise KeyError("parameter name can't be empty string \"\"")
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError("attribute '{}' already exists".format(name))
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError("cannot assign '{}' object to parameter '{}' "
                            "(torch.nn.Parameter or None required)".format(_typename(param), name))
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError("{} is not a Module subclass".format(_typename(module)))
        elif not isinstance(name, str):
            raise TypeError("module name should be a string. Got {}".format(_typename(name)))
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '{}' already exists".format(name))
        elif '.' in name:
            raise KeyError("module name can't contain \".\", got: {}".format(name))
        elif name == '':
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == "":
            return self
        atoms = target.split(".")
        mod = self
        for item in atoms:
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def _split_target(self, target):
        atoms = target.split('.')
        return '.'.join(atoms[:-1]), atoms[-1]

    def get_parameter(self, target):
        module_path, param_name = self._split_target(target)
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, buffer_name = self._split_target(target)
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        buffer = getattr(mod, buffer_name)
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    # ----------------------------------------------------------------- attributes
    def __getattr__(self, name):
        _parameters = self._parameters
        if _parameters is not None and name in _parameters:
            return _parameters[name]
        _buffers = self._buffers
        if _buffers is not None and name in _buffers:
            return _buffers[name]
        modules = self._modules
        if modules is not None and name in modules:
            return modules[name]
        raise AttributeError("'{}' object has no attribute '{}'".format(type(self).__name__, name))

    def _remove_plain_attr(self, name):
        # Drop an instance attribute of that name if there is one (1.13 removes
        # it from self.__dict__); class attributes are left alone.
        try:
            object.__delattr__(self, name)
        except AttributeError:
            pass

    def __setattr__(self, name, value):
        params = self._parameters
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            if name not in params:
                self._remove_plain_attr(name)
            if name in self._buffers:
                del self._buffers[name]
            if name in self._modules:
                del self._modules[name]
            if name in self._non_persistent_buffers_set:
                del self._non_persistent_buffers_set[name]
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '{}' as parameter '{}' "
                                "(torch.nn.Parameter or None expected)".format(_typename(value), name))
            self.register_parameter(name, value)
        else:
            modules = self._modules
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                if name not in modules:
                    self._remove_plain_attr(name)
                if name in self._parameters:
                    del self._parameters[name]
                if name in self._buffers:
                    del self._buffers[name]
                if name in self._non_persistent_buffers_set:
                    del self._non_persistent_buffers_set[name]
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError("cannot assign '{}' as child module '{}' "
                                    "(torch.nn.Module or None expected)".format(_typename(value), name))
                modules[name] = value
            else:
                buffers = self._buffers
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError("cannot assign '{}' as buffer '{}' "
                                        "(torch.Tensor or None expected)".format(_typename(value), name))
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            if name in self._non_persistent_buffers_set:
                del self._non_persistent_buffers_set[name]
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # ----------------------------------------------------------------- calling
    def register_forward_pre_hook(self, hook):
        handle = _RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        handle = _RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    def __call__(self, *input, **kwargs):
        if len(self._forward_pre_hooks) == 0 and len(self._forward_hooks) == 0:
            return self.forward(*input, **kwargs)
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, input)
            if result is not None:
                if not isinstance(result, tuple):
                    result = (result,)
                input = result
        result = self.forward(*input, **kwargs)
        for hook in list(self._forward_hooks.values()):
            hook_result = hook(self, input, result)
            if hook_result is not None:
                result = hook_result
        return result

    # ----------------------------------------------------------------- conversion
    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        for key, param in list(self._parameters.items()):
            if param is None:
                continue
            with torch.no_grad():
                param_applied = fn(param)
            param.data = param_applied
            if param.grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param.grad)
                param.grad.data = grad_applied
        for key, buf in list(self._buffers.items()):
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        device = kwargs.get('device', None)
        dtype = kwargs.get('dtype', None)
        for a in args:
            if isinstance(a, torch.Tensor):
                device = a.device
                dtype = a.dtype
            elif isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, bool):
                pass  # non_blocking
            else:
                device = a
        if 'tensor' in kwargs:
            device = kwargs['tensor'].device
            dtype = kwargs['tensor'].dtype

        def convert(t):
            t_dtype = None
            if dtype is not None and t.is_floating_point():
                t_dtype = dtype
            if device is not None and t_dtype is not None:
                return t.to(device, t_dtype)
            if t_dtype is not None:
                return t.to(t_dtype)
            if device is not None:
                return t.to(device)
            return t
        return self._apply(convert)

    def cpu(self):
        return self.to('cpu')

    def cuda(self, device=None):
        if device is None:
            return self.to('cuda')
        if isinstance(device, int):
            return self.to('cuda:' + str(device))
        return self.to(device)

    def float(self):
        return self._apply(lambda t: t.to(torch.float32) if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.to(torch.float64) if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.to(torch.float16) if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.to(torch.bfloat16) if t.is_floating_point() else t)

    # ----------------------------------------------------------------- state dict
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, destination=None, prefix='', keep_vars=False):
        if destination is None:
            destination = _OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        local_state = {}
        for k, v in self._parameters.items():
            if v is not None:
                local_state[k] = v
        for k, v in self._buffers.items():
            if v is not None and k not in self._non_persistent_buffers_set:
                local_state[k] = v
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, torch.Tensor):
                    error_msgs.append('While copying the parameter named "{}", '
                                      'expected torch.Tensor or Tensor-like object from checkpoint but '
                                      'received {}'.format(key, type(input_param)))
                    continue
                if len(param.shape) == 0 and len(input_param.shape) == 1:
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append('size mismatch for {}: copying a param with shape {} from checkpoint, '
                                      'the shape in current model is {}.'
                                      .format(key, input_param.shape, param.shape))
                    continue
                try:
                    with torch.no_grad():
                        param.copy_(input_param)
                except RuntimeError as ex:
                    error_msgs.append('While copying the parameter named "{}", '
                                      'whose dimensions in the model are {} and '
                                      'whose dimensions in the checkpoint are {}, '
                                      'an exception occurred : {}.'
                                      .format(key, param.size(), input_param.size(), (str(ex),)))
            elif strict:
                missing_keys.append(key)
        extra_state_key = prefix + '_extra_state'
        if strict and (extra_state_key in state_dict):
            unexpected_keys.append(extra_state_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix):]
                    input_name = input_name.split('.')[0]
                    if input_name not in self._modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def _load_recursive(self, local_state_dict, prefix, metadata, missing_keys, unexpected_keys, error_msgs):
        if metadata is None:
            local_metadata = {}
        else:
            local_metadata = metadata.get(prefix[:-1], {})
        self._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                   missing_keys, unexpected_keys, error_msgs)
        for name, child in self._modules.items():
            if child is not None:
                child_prefix = prefix + name + '.'
                child_state_dict = {}
                for k, v in local_state_dict.items():
                    if k.startswith(child_prefix):
                        child_state_dict[k] = v
                child._load_recursive(child_state_dict, child_prefix, metadata,
                                      missing_keys, unexpected_keys, error_msgs)

    def load_state_dict(self, state_dict, strict=True):
        if not isinstance(state_dict, dict):
            raise TypeError("Expected state_dict to be dict-like, got {}.".format(type(state_dict)))
        missing_keys = []
        unexpected_keys = []
        error_msgs = []
        metadata = getattr(state_dict, '_metadata', None)
        sd = {}
        for k, v in state_dict.items():
            sd[k] = v
        self._load_recursive(sd, '', metadata, missing_keys, unexpected_keys, error_msgs)
        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(
                    0, 'Unexpected key(s) in state_dict: {}. '.format(
                        ', '.join(['"{}"'.format(k) for k in unexpected_keys])))
            if len(missing_keys) > 0:
                error_msgs.insert(
                    0, 'Missing key(s) in state_dict: {}. '.format(
                        ', '.join(['"{}"'.format(k) for k in missing_keys])))
        if len(error_msgs) > 0:
            raise RuntimeError('Error(s) in loading state_dict for {}:\n\t{}'.format(
                               type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ----------------------------------------------------------------- iteration
    def _named_members_list(self, kind, prefix='', recurse=True):
        memo = {}
        result = []
        if recurse:
            modules = self._named_modules_list(None, prefix, True)
        else:
            modules = [(prefix, self)]
        for module_prefix, module in modules:
            if kind == 'parameters':
                members = module._parameters
            else:
                members = module._buffers
            for k, v in members.items():
                if v is None or id(v) in memo:
                    continue
                memo[id(v)] = v
                if module_prefix:
                    name = module_prefix + '.' + k
                else:
                    name = k
                result.append((name, v))
        return result

    def parameters(self, recurse=True):
        return iter([p for _, p in self._named_members_list('parameters', '', recurse)])

    def named_parameters(self, prefix='', recurse=True):
        return iter(self._named_members_list('parameters', prefix, recurse))

    def buffers(self, recurse=True):
        return iter([b for _, b in self._named_members_list('buffers', '', recurse)])

    def named_buffers(self, prefix='', recurse=True):
        return iter(self._named_members_list('buffers', prefix, recurse))

    def _named_children_list(self):
        memo = {}
        result = []
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo[id(module)] = module
                result.append((name, module))
        return result

    def children(self):
        return iter([m for _, m in self._named_children_list()])

    def named_children(self):
        return iter(self._named_children_list())

    def _named_modules_list(self, memo, prefix, remove_duplicate):
        if memo is None:
            memo = {}
        result = []
        if id(self) not in memo:
            if remove_duplicate:
                memo[id(self)] = self
            result.append((prefix, self))
            for name, module in self._modules.items():
                if module is None:
                    continue
                if prefix:
                    submodule_prefix = prefix + '.' + name
                else:
                    submodule_prefix = name
                result.extend(module._named_modules_list(memo, submodule_prefix, remove_duplicate))
        return result

    def modules(self):
        return iter([m for _, m in self._named_modules_list(None, '', True)])

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        # `memo` may be a set (1.13) or a dict; ids are tracked internally.
        return iter(self._named_modules_list(None, prefix, remove_duplicate))

    # ----------------------------------------------------------------- modes, grads
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    # ----------------------------------------------------------------- repr
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ''

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split('\n')
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append('(' + key + '): ' + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str

    def __str__(self):
        return self.__repr__()


# =============================================================================
# Simple layers
# =============================================================================

def _pair(x):
    if isinstance(x, tuple) or isinstance(x, list):
        return tuple(x)
    return (x, x)


def _reverse_repeat_tuple(t, n):
    out = []
    for x in reversed(list(t)):
        for _ in range(n):
            out.append(x)
    return tuple(out)


def _all_equal(t, v):
    # Python's `t != (v,) * len(t)` for a tuple t; a string is never equal.
    if isinstance(t, str):
        return False
    for x in t:
        if x != v:
            return False
    return True


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(torch.empty((out_features,), dtype=dtype, device=device))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features={}, out_features={}, bias={}'.format(
            self.in_features, self.out_features, self.bias is not None)


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class GELU(Module):
    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return 'approximate={}'.format(repr(self.approximate))


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


def _get_softmax_dim(ndim):
    # 1.13's implicit-dim rule (it also emits a deprecation warning to stderr)
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        dim = self.dim
        if dim is None:
            dim = _get_softmax_dim(input.dim())
        return F.softmax(input, dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        dim = self.dim
        if dim is None:
            dim = _get_softmax_dim(input.dim())
        return F.log_softmax(input, dim)

    def extra_repr(self):
        return 'dim={}'.format(self.dim)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        inplace_str = ', inplace=True' if self.inplace else ''
        return 'negative_slope={}{}'.format(self.negative_slope, inplace_str)


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return torch.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self):
        return 'start_dim={}, end_dim={}'.format(self.start_dim, self.end_dim)


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return 'p={}, inplace={}'.format(self.p, self.inplace)


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, dtype=dtype, device=device))
            self.bias = Parameter(torch.empty(self.normalized_shape, dtype=dtype, device=device))
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return '{}, eps={}, elementwise_affine={}'.format(
            self.normalized_shape, self.eps, self.elementwise_affine)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                if not padding_idx < self.num_embeddings:
                    raise AssertionError('Padding_idx must be within num_embeddings')
            elif padding_idx < 0:
                if not padding_idx >= -self.num_embeddings:
                    raise AssertionError('Padding_idx must be within num_embeddings')
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), dtype=dtype, device=device))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError('Shape of weight does not match num_embeddings and embedding_dim')
            self.weight = Parameter(_weight)
        self.sparse = sparse

    def reset_parameters(self):
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm,
                           self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        s = '{}, {}'.format(self.num_embeddings, self.embedding_dim)
        if self.padding_idx is not None:
            s += ', padding_idx={}'.format(self.padding_idx)
        if self.max_norm is not None:
            s += ', max_norm={}'.format(self.max_norm)
        if self.norm_type != 2:
            s += ', norm_type={}'.format(self.norm_type)
        if self.scale_grad_by_freq is not False:
            s += ', scale_grad_by_freq={}'.format(self.scale_grad_by_freq)
        if self.sparse is not False:
            s += ', sparse=True'
        return s

    # A classmethod in PyTorch.  Defined without `self` so that it works when
    # called through the class, Embedding.from_pretrained(weights, ...), which
    # is the only way it is used (the subset has no @classmethod).
    def from_pretrained(embeddings, freeze=True, padding_idx=None, max_norm=None,
                        norm_type=2.0, scale_grad_by_freq=False, sparse=False):
        if embeddings.dim() != 2:
            raise AssertionError('Embeddings parameter is expected to be 2-dimensional')
        rows = embeddings.size(0)
        cols = embeddings.size(1)
        embedding = Embedding(num_embeddings=rows, embedding_dim=cols, _weight=embeddings,
                              padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                              scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
        embedding.weight.requires_grad_(not freeze)
        return embedding


class _ConvNd(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        if isinstance(padding, str):
            if padding != 'same' and padding != 'valid':
                raise ValueError(
                    "Invalid padding string {}, should be one of {}".format(
                        repr(padding), "{'valid', 'same'}"))
            if padding == 'same' and any([s != 1 for s in stride]):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in ['zeros', 'reflect', 'replicate', 'circular']:
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'".format(
                "{'zeros', 'reflect', 'replicate', 'circular'}", padding_mode))
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            rp = []
            for _ in range(2 * len(kernel_size)):
                rp.append(0)
            if padding == 'same':
                n = len(kernel_size)
                for j in range(n):
                    d = dilation[j]
                    k = kernel_size[j]
                    i = n - 1 - j
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    rp[2 * i] = left_pad
                    rp[2 * i + 1] = total_padding - left_pad
            self._reversed_padding_repeated_twice = rp
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        if transposed:
            wshape = (in_channels, out_channels // groups) + tuple(kernel_size)
        else:
            wshape = (out_channels, in_channels // groups) + tuple(kernel_size)
        self.weight = Parameter(torch.empty(wshape, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(torch.empty((out_channels,), dtype=dtype, device=device))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = '{}, {}, kernel_size={}, stride={}'.format(
            self.in_channels, self.out_channels, self.kernel_size, self.stride)
        if not _all_equal(self.padding, 0):
            s += ', padding={}'.format(self.padding)
        if not _all_equal(self.dilation, 1):
            s += ', dilation={}'.format(self.dilation)
        if not _all_equal(self.output_padding, 0):
            s += ', output_padding={}'.format(self.output_padding)
        if self.groups != 1:
            s += ', groups={}'.format(self.groups)
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode={}'.format(self.padding_mode)
        return s


class Conv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros', device=None, dtype=None):
        kernel_size_ = _pair(kernel_size)
        stride_ = _pair(stride)
        padding_ = padding if isinstance(padding, str) else _pair(padding)
        dilation_ = _pair(dilation)
        super().__init__(in_channels, out_channels, kernel_size_, stride_, padding_, dilation_,
                         False, _pair(0), groups, bias, padding_mode, device=device, dtype=dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != 'zeros':
            return F.conv2d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                            weight, bias, self.stride, _pair(0), self.dilation, self.groups)
        return F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _NormBase(Module):
    _version = 2

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = Parameter(torch.empty((num_features,), dtype=dtype, device=device))
            self.bias = Parameter(torch.empty((num_features,), dtype=dtype, device=device))
        else:
            self.register_parameter('weight', None)
            self.register_parameter('bias', None)
        if self.track_running_stats:
            self.register_buffer('running_mean', torch.zeros((num_features,), dtype=dtype, device=device))
            self.register_buffer('running_var', torch.ones((num_features,), dtype=dtype, device=device))
            self.register_buffer('num_batches_tracked', torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.register_buffer('running_mean', None)
            self.register_buffer('running_var', None)
            self.register_buffer('num_batches_tracked', None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return '{}, eps={}, momentum={}, affine={}, track_running_stats={}'.format(
            self.num_features, self.eps, self.momentum, self.affine, self.track_running_stats)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get('version', None)
        if (version is None or version < 2) and self.track_running_stats:
            num_batches_tracked_key = prefix + 'num_batches_tracked'
            if num_batches_tracked_key not in state_dict:
                state_dict[num_batches_tracked_key] = torch.tensor(0, dtype=torch.long)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict,
                                      missing_keys, unexpected_keys, error_msgs)


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                if self.momentum is None:
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:
                    exponential_average_factor = self.momentum
        if self.training:
            bn_training = True
        else:
            bn_training = self.running_mean is None and self.running_var is None
        if not self.training or self.track_running_stats:
            running_mean = self.running_mean
            running_var = self.running_var
        else:
            running_mean = None
            running_var = None
        return F.batch_norm(input, running_mean, running_var, self.weight, self.bias,
                            bn_training, exponential_average_factor, self.eps)


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError("expected 4D input (got {}D input)".format(input.dim()))


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError("expected 2D or 3D input (got {}D input)".format(input.dim()))


# =============================================================================
# Pooling
# =============================================================================

class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, ceil_mode={ceil_mode}'.format(
            kernel_size=self.kernel_size, stride=self.stride, padding=self.padding,
            dilation=self.dilation, ceil_mode=self.ceil_mode)

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


# =============================================================================
# Losses
# =============================================================================

def _legacy_get_string(size_average, reduce):
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return 'mean'
    elif reduce:
        return 'sum'
    return 'none'


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer('weight', weight)


class MSELoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__(size_average, reduce, reduction)

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction='mean', label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


# =============================================================================
# Containers
# =============================================================================

class Sequential(Module):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        size = len(self)
        idx = _as_int(idx)
        if not -size <= idx < size:
            raise IndexError('index {} is out of range'.format(idx))
        idx %= size
        return list(iterator)[idx]

    def __getitem__(self, idx):
        if _is_index(idx):
            return self._get_item_by_idx(self._modules.values(), idx)
        ret = Sequential()
        for key, module in list(self._modules.items())[idx]:
            ret.add_module(key, module)
        return ret

    def __setitem__(self, idx, module):
        key = self._get_item_by_idx(self._modules.keys(), idx)
        return setattr(self, key, module)

    def _renumber(self):
        new_modules = _OrderedDict()
        i = 0
        for module in list(self._modules.values()):
            new_modules[str(i)] = module
            i += 1
        self._modules = new_modules

    def __delitem__(self, idx):
        if _is_index(idx):
            key = self._get_item_by_idx(self._modules.keys(), idx)
            del self._modules[key]
        else:
            for key in list(self._modules.keys())[idx]:
                del self._modules[key]
        self._renumber()

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __contains__(self, module):
        for m in self._modules.values():
            if m is module:
                return True
        return False

    def __add__(self, other):
        if isinstance(other, Sequential):
            ret = Sequential()
            for layer in self:
                ret.append(layer)
            for layer in other:
                ret.append(layer)
            return ret
        else:
            raise ValueError('add operator supports only objects of Sequential class, '
                             'but {} is given.'.format(str(type(other))))

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError('module should be of type: {}'.format("<class 'torch.nn.modules.module.Module'>"))
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError('Index out of range: {}'.format(index))
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _get_abs_string_index(self, idx):
        idx = _as_int(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError('index {} is out of range'.format(idx))
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if _is_index(idx):
            return self._modules[self._get_abs_string_index(idx)]
        return ModuleList(list(self._modules.values())[idx])

    def __setitem__(self, idx, module):
        idx = self._get_abs_string_index(idx)
        return setattr(self, str(idx), module)

    def __delitem__(self, idx):
        if _is_index(idx):
            del self._modules[self._get_abs_string_index(idx)]
        else:
            for k in list(range(len(self._modules)))[idx]:
                del self._modules[str(k)]
        new_modules = _OrderedDict()
        i = 0
        for module in list(self._modules.values()):
            new_modules[str(i)] = module
            i += 1
        self._modules = new_modules

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __contains__(self, module):
        for m in self._modules.values():
            if m is module:
                return True
        return False

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        combined = ModuleList()
        i = 0
        for module in self:
            combined.add_module(str(i), module)
            i += 1
        for module in other:
            combined.add_module(str(i), module)
            i += 1
        return combined

    def insert(self, index, module):
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def extend(self, modules):
        if isinstance(modules, Module) and not isinstance(modules, ModuleList) \
                and not isinstance(modules, Sequential) and not isinstance(modules, ModuleDict):
            raise TypeError("ModuleList.extend should be called with an "
                            "iterable, but got " + type(modules).__name__)
        offset = len(self)
        i = 0
        for module in modules:
            self.add_module(str(offset + i), module)
            i += 1
        return self


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.keys()))

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        for k in list(self._modules.keys()):
            del self._modules[k]

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        if isinstance(modules, dict) or isinstance(modules, ModuleDict):
            for key, module in modules.items():
                self[key] = module
        else:
            j = 0
            for m in modules:
                if not (isinstance(m, tuple) or isinstance(m, list)):
                    raise TypeError("ModuleDict update sequence element "
                                    "#" + str(j) + " should be Iterable; is" +
                                    type(m).__name__)
                if not len(m) == 2:
                    raise ValueError("ModuleDict update sequence element "
                                     "#" + str(j) + " has length " + str(len(m)) +
                                     "; 2 is required")
                self[m[0]] = m[1]
                j += 1
