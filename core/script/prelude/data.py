# Fuselab prelude: torch.utils.data
#
# Executed at interpreter start-up; this file's globals become
# `torch.utils.data`.  Names provided by the loader: torch, math.
# Written in the model-script Python subset (no import statements).
#
# Layout of this module:
#   1. error texts (one table, raised through _fail);
#   2. random numbers: the generator-or-default call helper, ATen's MT19937
#      for the fresh generators 1.13 creates;
#   3. samplers, datasets, random_split;
#   4. collation (default_convert / default_collate over one "rebuild in the
#      element's own type" helper);
#   5. the DataLoader: option checks, its iterator (attributes copied from
#      the loader through a table) and the two fetchers.
#
# Behaviour targets PyTorch 1.13's torch/utils/data: for the same seed, the
# same indices / batches come out in the same order and the same random
# numbers are drawn from the default generator:
#  - DataLoader.__iter__ draws the iterator's base seed
#    (torch.empty((), dtype=torch.int64).random_(generator=loader.generator))
#    before the sampler is first advanced;
#  - RandomSampler with generator=None draws a 63-bit seed from the default
#    generator at the start of each epoch and seeds a fresh generator with it;
#  - random_split and SubsetRandomSampler use the default generator directly.
# Samplers are generators, so their draws happen when 1.13's do (at the first
# next(), block by block).
#
# Known differences from PyTorch 1.13:
#  - Fuselab has no torch.Generator yet.  Where 1.13 creates a fresh
#    torch.Generator (RandomSampler with generator=None), a Python MT19937
#    (the engine of ATen's CPUGeneratorImpl, seeded the same way) with ATen's
#    randperm / randint algorithms is used instead, so the permutations are
#    identical.  When torch.Generator exists it is used.  A user-supplied
#    generator= is passed straight to the torch ops.
#  - num_workers > 0 loads in-process (same batches and order as 1.13 for
#    map-style datasets; an IterableDataset is not replicated per worker);
#    worker_init_fn is called once per worker id before the first batch;
#    pin_memory, timeout, prefetch_factor and persistent_workers are only
#    validated/stored.  get_worker_info() returns None.
#  - Warnings 1.13 emits (random_split zero-length split, too many workers,
#    IterableDataset length mismatch) are not printed (stderr only in 1.13).
#  - DataPipes, DataLoader2, DistributedSampler and ChainDataset's
#    datapipe integration are not provided; numpy arrays are not collated.
#  - With an IterableDataset, any shuffle other than None / False is refused
#    (1.13 lets other values equal to False, e.g. 0, through).

__all__ = ['BatchSampler', 'ChainDataset', 'ConcatDataset', 'DataLoader', 'Dataset',
           'IterableDataset', 'RandomSampler', 'Sampler', 'SequentialSampler', 'Subset',
           'SubsetRandomSampler', 'TensorDataset', 'WeightedRandomSampler',
           'default_collate', 'default_convert', 'get_worker_info', 'random_split']


# ---------------------------------------------------------------------------
# Error texts (1.13's, word for word), filled by _fail().

_ITERABLE_LOADER = "DataLoader with IterableDataset: expected unspecified "
_MESSAGES = {
    'positive_int': "{} should be a positive integer value, but got {}={}",
    'boolean': "{} should be a boolean value, but got {}={}",
    'weights_shape': "weights should be a 1d sequence but given weights have shape {}",
    'tensor_sizes': "Size mismatch between tensors",
    'concat_empty': 'datasets should not be an empty iterable',
    'concat_iterable': "ConcatDataset does not support IterableDataset",
    'concat_index': "absolute value of index should not exceed dataset length",
    'chain_map': "ChainDataset only supports IterableDataset",
    'fraction': "Fraction at index {} is not between 0 and 1",
    'split_sum': "Sum of input lengths does not equal the length of the input dataset!",
    'collate': ("default_collate: batch must contain tensors, numpy arrays, numbers, "
                "dicts or lists; found {}"),
    'ragged': 'each element in list of batch should be of equal size',
    'num_workers': 'num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.',
    'timeout': 'timeout option should be non-negative',
    'prefetch': ('prefetch_factor option could only be specified in multiprocessing.'
                 'let num_workers > 0 to enable multiprocessing.'),
    'persistent': 'persistent_workers option needs num_workers > 0',
    'mp_context': ('multiprocessing_context can only be used with multi-process loading (num_workers > 0), '
                   'but got num_workers={}'),
    'iterable_shuffle': _ITERABLE_LOADER + "shuffle option, but got shuffle={}",
    'iterable_sampler': _ITERABLE_LOADER + "sampler option, but got sampler={}",
    'iterable_batch_sampler': _ITERABLE_LOADER + "batch_sampler option, but got batch_sampler={}",
    'sampler_shuffle': 'sampler option is mutually exclusive with shuffle',
    'batch_sampler': 'batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last',
    'no_batch_drop': 'batch_size=None option disables auto-batching and is mutually exclusive with drop_last',
    'frozen': '{} attribute should not be set after {} is initialized',
}


def _fail(kind, key, *fill):
    raise kind(_MESSAGES[key].format(*fill))


def _require_positive_int(read, name, bool_ok):
    # read() gives the value; it is called as often as the reference evaluates it
    value = read()
    if isinstance(value, int) and (bool_ok or not isinstance(value, bool)) and read() > 0:
        return
    _fail(ValueError, 'positive_int', name, name, read())


def _require_bool(value, name, kind):
    if not isinstance(value, bool):
        _fail(kind, 'boolean', name, name, value)


# ---------------------------------------------------------------------------
# random numbers

def _call_with(generator, fn, *args, **kwargs):
    # 1.13 passes generator= only when there is one (None: the default generator)
    if generator is not None:
        kwargs['generator'] = generator
    return fn(*args, **kwargs)


class _MT19937:
    # ATen's at::mt19937 (CPUGeneratorImpl's engine); seed as manual_seed does.
    def __init__(self, seed):
        mt = [0] * 624
        mt[0] = seed & 0xffffffff
        for j in range(1, 624):
            prev = mt[j - 1]
            mt[j] = (1812433253 * (prev ^ (prev >> 30)) + j) & 0xffffffff
        self.mt = mt
        self.idx = 624

    def _twist(self):
        mt = self.mt
        for i in range(624):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff)
            v = mt[(i + 397) % 624] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908b0df
            mt[i] = v
        self.idx = 0

    def random(self):
        if self.idx >= 624:
            self._twist()
        y = self.mt[self.idx]
        self.idx += 1
        y ^= (y >> 11)
        y ^= (y << 7) & 0x9d2c5680
        y ^= (y << 15) & 0xefc60000
        y ^= (y >> 18)
        return y

    def random64(self):
        hi = self.random()
        lo = self.random()
        return (hi << 32) | lo


def _new_generator(seed):
    # torch.Generator(); generator.manual_seed(seed)
    if not hasattr(torch, 'Generator'):
        return _MT19937(seed)
    fresh = torch.Generator()
    fresh.manual_seed(seed)
    return fresh


def _randperm_list(n, generator):
    if not isinstance(generator, _MT19937):
        return _call_with(generator, torch.randperm, n).tolist()
    # ATen randperm_cpu: Fisher-Yates with random() % (n - i)
    order = list(range(n))
    for i in range(n - 1):
        j = generator.random() % (n - i) + i
        order[i], order[j] = order[j], order[i]
    return order


def _randint_list(high, size, generator):
    if not isinstance(generator, _MT19937):
        return _call_with(generator, torch.randint, high, (size,), dtype=torch.int64).tolist()
    # ATen random_from_to with from=0: random() % range (random64 if range >= 2**32)
    draw = generator.random64 if high >= 4294967296 else generator.random
    return [draw() % high for _ in range(size)]


def _draw_seed(generator=None):
    target = torch.empty((), dtype=torch.int64)
    return int(_call_with(generator, target.random_).item())


def _sample_block(n, count, generator, replacement):
    # `count` indices below n: independent draws, or the head of a permutation
    if replacement:
        return _randint_list(n, count, generator)
    return _randperm_list(n, generator)[:count]


# ---------------------------------------------------------------------------
# samplers

class Sampler:
    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        size = len(self.data_source)
        return iter(range(size))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        _require_bool(self.replacement, 'replacement', TypeError)
        _require_positive_int(lambda: self.num_samples, 'num_samples', True)

    @property
    def num_samples(self):
        if self._num_samples is not None:
            return self._num_samples
        return len(self.data_source)

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = _new_generator(_draw_seed())
        total = self.num_samples
        # with replacement: blocks of 32 draws; without: whole permutations
        block = 32 if self.replacement else n
        for _ in range(total // block):
            yield from _sample_block(n, block, generator, self.replacement)
        yield from _sample_block(n, total % block, generator, self.replacement)

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        order = _call_with(self.generator, torch.randperm, len(self.indices))
        for k in order:
            yield self.indices[k]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _require_positive_int(lambda: num_samples, 'num_samples', False)
        _require_bool(replacement, 'replacement', ValueError)
        as_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(as_tensor.shape) != 1:
            _fail(ValueError, 'weights_shape', tuple(as_tensor.shape))
        self.weights = as_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        picks = _call_with(self.generator, torch.multinomial, self.weights, self.num_samples, self.replacement)
        yield from iter(picks.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        _require_positive_int(lambda: batch_size, 'batch_size', False)
        _require_bool(drop_last, 'drop_last', ValueError)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        # indices are pulled one at a time as the batches are asked for; a short
        # last batch is dropped or yielded
        pending = []
        for index in self.sampler:
            pending.append(index)
            if len(pending) == self.batch_size:
                yield pending
                pending = []
        if pending and not self.drop_last:
            yield pending

    def __len__(self):
        size = len(self.sampler)
        if self.drop_last:
            return size // self.batch_size
        return (size + self.batch_size - 1) // self.batch_size


class _InfiniteConstantSampler(Sampler):
    def __init__(self):
        super().__init__(None)

    def __iter__(self):
        while True:
            yield None


# ---------------------------------------------------------------------------
# datasets

class Dataset:
    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        for tensor in tensors:
            if tensor.size(0) != tensors[0].size(0):
                _fail(AssertionError, 'tensor_sizes')
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple([t[index] for t in self.tensors])

    def __len__(self):
        return self.tensors[0].size(0)


def _bisect_right(a, x):
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


class ConcatDataset(Dataset):
    @staticmethod
    def cumsum(sequence):
        ends = []
        running = 0
        for part in sequence:
            running += len(part)
            ends.append(running)
        return ends

    def __init__(self, datasets):
        super().__init__()
        parts = list(datasets)
        self.datasets = parts
        if len(parts) == 0:
            _fail(AssertionError, 'concat_empty')
        for part in parts:
            if isinstance(part, IterableDataset):
                _fail(AssertionError, 'concat_iterable')
        self.cumulative_sizes = self.cumsum(parts)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                _fail(ValueError, 'concat_index')
            idx = len(self) + idx
        ends = self.cumulative_sizes
        part = _bisect_right(ends, idx)
        local = idx if part == 0 else idx - ends[part - 1]
        return self.datasets[part][local]

    @property
    def cummulative_sizes(self):
        return self.cumulative_sizes


def _require_iterable(part):
    if not isinstance(part, IterableDataset):
        _fail(AssertionError, 'chain_map')


class ChainDataset(IterableDataset):
    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for part in self.datasets:
            _require_iterable(part)
            for item in part:
                yield item

    def __len__(self):
        total = 0
        for part in self.datasets:
            _require_iterable(part)
            total += len(part)
        return total


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if not isinstance(idx, list):
            return self.dataset[self.indices[idx]]
        return self.dataset[[self.indices[k] for k in idx]]

    def __len__(self):
        return len(self.indices)


def _lengths_from_fractions(dataset, fractions):
    # floor(len * fraction) each, then the remainder handed out round-robin
    counts = []
    for pos, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            _fail(ValueError, 'fraction', pos)
        counts.append(int(math.floor(len(dataset) * fraction)))
    leftover = len(dataset) - sum(counts)
    for k in range(leftover):
        counts[k % len(counts)] += 1
    return counts


def random_split(dataset, lengths, generator=None):
    # generator=None stands for 1.13's default (torch.default_generator)
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        lengths = _lengths_from_fractions(dataset, lengths)
    if sum(lengths) != len(dataset):
        _fail(ValueError, 'split_sum')
    order = _randperm_list(sum(lengths), generator)
    parts = []
    end = 0
    for length in lengths:
        end += length
        parts.append(Subset(dataset, order[end - length: end]))
    return parts


# ---------------------------------------------------------------------------
# collation

_default_collate_err_msg_format = _MESSAGES['collate']

if isinstance(bytes, type):
    _string_classes = (str, bytes)
else:
    _string_classes = (str,)


def _is_namedtuple(x):
    # (Fuselab's namedtuple classes are not tuple subclasses)
    return hasattr(x, '_fields') and not isinstance(x, (list, dict, str))


def _is_sequence(x):
    return isinstance(x, (list, tuple, range)) or isinstance(x, _string_classes)


def _in_own_type(container_type, build):
    # container_type(build()); when that type cannot be built from a plain
    # dict / list (TypeError), build() again and keep the plain one
    try:
        return container_type(build())
    except TypeError:
        return build()


def default_convert(data):
    kind = type(data)
    if isinstance(data, torch.Tensor):
        return data
    if isinstance(data, dict):
        return _in_own_type(kind, lambda: {key: default_convert(data[key]) for key in data})
    if _is_namedtuple(data):
        return kind(*[default_convert(field) for field in data])
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if _is_sequence(data) and not isinstance(data, _string_classes):
        return _in_own_type(kind, lambda: [default_convert(item) for item in data])
    return data


def collate_tensor_fn(batch, collate_fn_map=None):
    return torch.stack(batch, 0)


def collate_float_fn(batch, collate_fn_map=None):
    return torch.tensor(batch, dtype=torch.double)


def collate_int_fn(batch, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, collate_fn_map=None):
    return batch


default_collate_fn_map = {torch.Tensor: collate_tensor_fn, float: collate_float_fn,
                          int: collate_int_fn, _string_classes: collate_str_fn}


def _mapped_collate(elem, batch, table):
    # [result] of the table's function for the element's exact type, else for
    # the first type (or tuple of types) it is an instance of; None if none
    if type(elem) in table:
        return [table[type(elem)](batch, collate_fn_map=table)]
    for key in table:
        if isinstance(elem, key):
            return [table[key](batch, collate_fn_map=table)]
    return None


def collate(batch, collate_fn_map=None):
    first = batch[0]
    kind = type(first)
    if collate_fn_map is not None:
        found = _mapped_collate(first, batch, collate_fn_map)
        if found is not None:
            return found[0]

    def columns():
        return [collate(column, collate_fn_map=collate_fn_map) for column in zip(*batch)]

    if isinstance(first, dict):
        return _in_own_type(kind, lambda: {key: collate([sample[key] for sample in batch],
                                                        collate_fn_map=collate_fn_map) for key in first})
    if _is_namedtuple(first):
        return kind(*columns())
    if _is_sequence(first):
        width = len(batch[0])
        for sample in batch[1:]:
            if len(sample) != width:
                _fail(RuntimeError, 'ragged')
        if isinstance(first, tuple):
            return columns()
        return _in_own_type(kind, columns)
    _fail(TypeError, 'collate', kind)


def default_collate(batch):
    return collate(batch, default_collate_fn_map)


def get_worker_info():
    return None


# ---------------------------------------------------------------------------
# DataLoader

class _DatasetKind:
    Map = 0
    Iterable = 1


class _Fetcher:
    # turns what the index sampler yields into one collated item
    def __init__(self, dataset, batched, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = batched
        self.collate_fn = collate_fn
        self.drop_last = drop_last


class _IterableDatasetFetcher(_Fetcher):
    def __init__(self, dataset, batched, collate_fn, drop_last):
        super().__init__(dataset, batched, collate_fn, drop_last)
        self.dataset_iter = iter(dataset)
        self.ended = False

    def _take(self, wanted):
        # up to len(wanted) items; the stream is marked ended when it runs dry
        items = []
        for _ in wanted:
            try:
                items.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        return items

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        items = self._take(possibly_batched_index)
        short = len(items) < len(possibly_batched_index)
        if len(items) == 0 or (self.drop_last and short):
            raise StopIteration
        return self.collate_fn(items)


class _MapDatasetFetcher(_Fetcher):
    def fetch(self, possibly_batched_index):
        source = self.dataset
        if not self.auto_collation:
            return self.collate_fn(source[possibly_batched_index])
        if hasattr(source, "__getitems__") and source.__getitems__:
            items = source.__getitems__(possibly_batched_index)
        else:
            items = [source[k] for k in possibly_batched_index]
        return self.collate_fn(items)


# What an iterator copies from its loader: (own attribute, loader attribute or
# None for a constant), in 1.13's order; '*sampler' and '*seed' mark where the
# sampler iterator is created and the base seed drawn (in that order).
_ITERATOR_FIELDS = [
    ('_dataset', 'dataset'), ('_dataset_kind', '_dataset_kind'),
    ('_IterableDataset_len_called', '_IterableDataset_len_called'), ('_auto_collation', '_auto_collation'),
    ('_drop_last', 'drop_last'), ('_index_sampler', '_index_sampler'), ('_num_workers', 'num_workers'),
    ('_prefetch_factor', 'prefetch_factor'), ('_pin_memory', False), ('_timeout', 'timeout'),
    ('_collate_fn', 'collate_fn'), ('_sampler_iter', '*sampler'), ('_base_seed', '*seed'),
    ('_persistent_workers', 'persistent_workers'), ('_num_yielded', 0), ('_worker_init_fn', 'worker_init_fn'),
    ('_workers_started', False),
]

# the fields a persistent iterator takes afresh for every epoch
_EPOCH_FIELDS = ('_sampler_iter', '_num_yielded', '_IterableDataset_len_called')


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._take_fields(loader, [own for own, _ in _ITERATOR_FIELDS])
        fetcher = _MapDatasetFetcher if self._dataset_kind == _DatasetKind.Map else _IterableDatasetFetcher
        self._dataset_fetcher = fetcher(self._dataset, self._auto_collation, self._collate_fn, self._drop_last)

    def __iter__(self):
        return self

    def _take_fields(self, loader, names):
        sources = dict(_ITERATOR_FIELDS)
        for own in names:
            source = sources[own]
            if source == '*sampler':
                value = iter(self._index_sampler)
            elif source == '*seed':
                value = _draw_seed(loader.generator)
            elif isinstance(source, str):
                value = getattr(loader, source)
            else:
                value = source
            setattr(self, own, value)

    def _reset(self, loader, first_iter=False):
        # a persistent iterator starting another epoch
        self._take_fields(loader, _EPOCH_FIELDS)

    def _next_index(self):
        return next(self._sampler_iter)

    def _start_workers(self):
        # in-process "workers": worker_init_fn runs once per worker id
        self._workers_started = True
        if self._num_workers > 0 and self._worker_init_fn is not None:
            for worker_id in range(self._num_workers):
                self._worker_init_fn(worker_id)

    def _next_data(self):
        if not self._workers_started:
            self._start_workers()
        return self._dataset_fetcher.fetch(self._next_index())

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        return data

    def __len__(self):
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    pass


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    pass


_DATALOADER_FROZEN = ('batch_size', 'batch_sampler', 'sampler', 'drop_last', 'dataset',
                      'persistent_workers')


def _assign(obj, pairs):
    for name, value in pairs:
        setattr(obj, name, value)


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers):
    if num_workers < 0:
        _fail(ValueError, 'num_workers')
    if timeout < 0:
        _fail(ValueError, 'timeout')
    if prefetch_factor != 2 and num_workers == 0:
        _fail(ValueError, 'prefetch')
    if not prefetch_factor > 0:
        raise AssertionError()
    if num_workers == 0 and persistent_workers:
        _fail(ValueError, 'persistent')


def _kind_and_shuffle(dataset, shuffle, sampler, batch_sampler):
    # an IterableDataset takes no shuffle / sampler / batch_sampler; a
    # map-style dataset gets shuffle as a bool
    if not isinstance(dataset, IterableDataset):
        return _DatasetKind.Map, bool(shuffle)
    if shuffle is not None and shuffle is not False:
        _fail(ValueError, 'iterable_shuffle', shuffle)
    if sampler is not None:
        _fail(ValueError, 'iterable_sampler', sampler)
    if batch_sampler is not None:
        _fail(ValueError, 'iterable_batch_sampler', batch_sampler)
    return _DatasetKind.Iterable, shuffle


def _batching(batch_size, shuffle, sampler, batch_sampler, drop_last):
    # (batch_size, drop_last) after the mutual-exclusion checks; a custom
    # batch_sampler leaves neither
    if sampler is not None and shuffle:
        _fail(ValueError, 'sampler_shuffle')
    if batch_sampler is not None:
        if sampler is not None or batch_size != 1 or shuffle or drop_last:
            _fail(ValueError, 'batch_sampler')
        return None, False
    if batch_size is None and drop_last:
        _fail(ValueError, 'no_batch_drop')
    return batch_size, drop_last


def _default_sampler(kind, dataset, shuffle, generator):
    if kind == _DatasetKind.Iterable:
        return _InfiniteConstantSampler()
    if shuffle:
        return RandomSampler(dataset, generator=generator)
    return SequentialSampler(dataset)


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False,
                 timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None,
                 *, prefetch_factor=2, persistent_workers=False, pin_memory_device=""):
        object.__setattr__(self, '_DataLoader__initialized', False)
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        options = [('dataset', dataset), ('num_workers', num_workers), ('prefetch_factor', prefetch_factor),
                   ('pin_memory', pin_memory), ('pin_memory_device', pin_memory_device), ('timeout', timeout),
                   ('worker_init_fn', worker_init_fn)]
        _assign(self, options)
        if multiprocessing_context is not None and num_workers == 0:
            _fail(ValueError, 'mp_context', num_workers)
        _assign(self, [('multiprocessing_context', multiprocessing_context)])

        kind, shuffle = _kind_and_shuffle(dataset, shuffle, sampler, batch_sampler)
        self._dataset_kind = kind
        batch_size, drop_last = _batching(batch_size, shuffle, sampler, batch_sampler, drop_last)
        if sampler is None:
            sampler = _default_sampler(kind, dataset, shuffle, generator)
        if batch_sampler is None and batch_size is not None:
            # auto-batching over the (given or default) sampler
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        _assign(self, [('batch_size', batch_size), ('drop_last', drop_last), ('sampler', sampler),
                       ('batch_sampler', batch_sampler), ('generator', generator)])
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        _assign(self, [('collate_fn', collate_fn), ('persistent_workers', persistent_workers)])
        object.__setattr__(self, '_DataLoader__initialized', True)
        self._IterableDataset_len_called = None
        self._iterator = None

    def __setattr__(self, attr, val):
        if attr in _DATALOADER_FROZEN and getattr(self, '_DataLoader__initialized', False):
            _fail(ValueError, 'frozen', attr, self.__class__.__name__)
        object.__setattr__(self, attr, val)

    def _get_iterator(self):
        single = self.num_workers == 0
        return (_SingleProcessDataLoaderIter if single else _MultiProcessingDataLoaderIter)(self)

    def __iter__(self):
        if not (self.persistent_workers and self.num_workers > 0):
            return self._get_iterator()
        # persistent workers: one iterator, reset for every epoch
        if self._iterator is None:
            self._iterator = self._get_iterator()
        else:
            self._iterator._reset(self)
        return self._iterator

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind != _DatasetKind.Iterable:
            return len(self._index_sampler)
        length = len(self.dataset)
        self._IterableDataset_len_called = length
        if self.batch_size is None:
            return length
        if self.drop_last:
            return length // self.batch_size
        return int(math.ceil(length / self.batch_size))

    def check_worker_number_rationality(self):
        pass
