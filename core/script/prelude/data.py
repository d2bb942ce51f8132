# Fuselab prelude: torch.utils.data
#
# Executed at interpreter start-up; this file's globals become
# `torch.utils.data`.  Names provided by the loader: torch, math.
# Written in the model-script Python subset (no import statements).
#
# Follows PyTorch 1.13's torch/utils/data (dataset.py, sampler.py,
# dataloader.py, _utils/collate.py, _utils/fetch.py) so that, for the same
# seed, the same indices / batches come out in the same order and the same
# random numbers are drawn from the default generator:
#  - DataLoader.__iter__ draws the iterator's base seed
#    (torch.empty((), dtype=torch.int64).random_(generator=loader.generator))
#    before the sampler is first advanced;
#  - RandomSampler with generator=None draws a 63-bit seed from the default
#    generator at the start of each epoch and seeds a fresh generator with it;
#  - random_split and SubsetRandomSampler use the default generator directly.
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

__all__ = ['BatchSampler', 'ChainDataset', 'ConcatDataset', 'DataLoader', 'Dataset',
           'IterableDataset', 'RandomSampler', 'Sampler', 'SequentialSampler', 'Subset',
           'SubsetRandomSampler', 'TensorDataset', 'WeightedRandomSampler',
           'default_collate', 'default_convert', 'get_worker_info', 'random_split']


# ---------------------------------------------------------------------------
# random numbers

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
    if hasattr(torch, 'Generator'):
        g = torch.Generator()
        g.manual_seed(seed)
        return g
    return _MT19937(seed)


def _randperm_list(n, generator):
    if isinstance(generator, _MT19937):
        # ATen randperm_cpu: Fisher-Yates with random() % (n - i)
        r = list(range(n))
        for i in range(n - 1):
            z = generator.random() % (n - i) + i
            t = r[i]
            r[i] = r[z]
            r[z] = t
        return r
    if generator is None:
        return torch.randperm(n).tolist()
    return torch.randperm(n, generator=generator).tolist()


def _randint_list(high, size, generator):
    if isinstance(generator, _MT19937):
        # ATen random_from_to with from=0: random() % range (random64 if range >= 2**32)
        out = []
        for _ in range(size):
            if high >= 4294967296:
                out.append(generator.random64() % high)
            else:
                out.append(generator.random() % high)
        return out
    if generator is None:
        return torch.randint(high, (size,), dtype=torch.int64).tolist()
    return torch.randint(high, (size,), dtype=torch.int64, generator=generator).tolist()


def _draw_seed(generator=None):
    if generator is None:
        return int(torch.empty((), dtype=torch.int64).random_().item())
    return int(torch.empty((), dtype=torch.int64).random_(generator=generator).item())


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
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError("replacement should be a boolean value, but got "
                            "replacement={}".format(self.replacement))
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer "
                             "value, but got num_samples={}".format(self.num_samples))

    @property
    def num_samples(self):
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.generator is None:
            generator = _new_generator(_draw_seed())
        else:
            generator = self.generator
        num_samples = self.num_samples
        if self.replacement:
            for _ in range(num_samples // 32):
                yield from _randint_list(n, 32, generator)
            yield from _randint_list(n, num_samples % 32, generator)
        else:
            for _ in range(num_samples // n):
                yield from _randperm_list(n, generator)
            yield from _randperm_list(n, generator)[:num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        if self.generator is None:
            perm = torch.randperm(len(self.indices))
        else:
            perm = torch.randperm(len(self.indices), generator=self.generator)
        for i in perm:
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or \
                num_samples <= 0:
            raise ValueError("num_samples should be a positive integer "
                             "value, but got num_samples={}".format(num_samples))
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             "replacement={}".format(replacement))
        weights_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given "
                             "weights have shape {}".format(tuple(weights_tensor.shape)))
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        if self.generator is None:
            rand_tensor = torch.multinomial(self.weights, self.num_samples, self.replacement)
        else:
            rand_tensor = torch.multinomial(self.weights, self.num_samples, self.replacement,
                                            generator=self.generator)
        yield from iter(rand_tensor.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or \
                batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, "
                             "but got batch_size={}".format(batch_size))
        if not isinstance(drop_last, bool):
            raise ValueError("drop_last should be a boolean value, but got "
                             "drop_last={}".format(drop_last))
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        if self.drop_last:
            sampler_iter = iter(self.sampler)
            while True:
                batch = []
                try:
                    for _ in range(self.batch_size):
                        batch.append(next(sampler_iter))
                except StopIteration:
                    break
                yield batch
        else:
            batch = [0] * self.batch_size
            idx_in_batch = 0
            for idx in self.sampler:
                batch[idx_in_batch] = idx
                idx_in_batch += 1
                if idx_in_batch == self.batch_size:
                    yield batch
                    idx_in_batch = 0
                    batch = [0] * self.batch_size
            if idx_in_batch > 0:
                yield batch[:idx_in_batch]

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


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
            if tensors[0].size(0) != tensor.size(0):
                raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple([tensor[index] for tensor in self.tensors])

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
        r = []
        s = 0
        for e in sequence:
            l = len(e)
            r.append(l + s)
            s += l
        return r

    def __init__(self, datasets):
        super().__init__()
        self.datasets = list(datasets)
        if not len(self.datasets) > 0:
            raise AssertionError('datasets should not be an empty iterable')
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        dataset_idx = _bisect_right(self.cumulative_sizes, idx)
        if dataset_idx == 0:
            sample_idx = idx
        else:
            sample_idx = idx - self.cumulative_sizes[dataset_idx - 1]
        return self.datasets[dataset_idx][sample_idx]

    @property
    def cummulative_sizes(self):
        return self.cumulative_sizes


class ChainDataset(IterableDataset):
    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            for x in d:
                yield x

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    # generator=None stands for 1.13's default (torch.default_generator)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        subset_lengths = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            n_items_in_split = int(math.floor(len(dataset) * frac))
            subset_lengths.append(n_items_in_split)
        remainder = len(dataset) - sum(subset_lengths)
        for i in range(remainder):
            idx_to_add_at = i % len(subset_lengths)
            subset_lengths[idx_to_add_at] += 1
        lengths = subset_lengths
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = _randperm_list(sum(lengths), generator)
    out = []
    offset = 0
    for length in lengths:
        offset += length
        out.append(Subset(dataset, indices[offset - length: offset]))
    return out


# ---------------------------------------------------------------------------
# collation

_default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}")

if isinstance(bytes, type):
    _string_classes = (str, bytes)
else:
    _string_classes = (str,)


def _is_namedtuple(x):
    # (Fuselab's namedtuple classes are not tuple subclasses)
    return hasattr(x, '_fields') and not isinstance(x, (list, dict, str))


def _is_sequence(x):
    return isinstance(x, (list, tuple, range)) or isinstance(x, _string_classes)


def default_convert(data):
    elem_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    elif isinstance(data, dict):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    elif _is_namedtuple(data):
        return elem_type(*[default_convert(d) for d in data])
    elif isinstance(data, tuple):
        return [default_convert(d) for d in data]
    elif _is_sequence(data) and not isinstance(data, _string_classes):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    else:
        return data


def collate_tensor_fn(batch, collate_fn_map=None):
    return torch.stack(batch, 0)


def collate_float_fn(batch, collate_fn_map=None):
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, collate_fn_map=None):
    return batch


default_collate_fn_map = {torch.Tensor: collate_tensor_fn, float: collate_float_fn,
                          int: collate_int_fn, _string_classes: collate_str_fn}


def collate(batch, collate_fn_map=None):
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, dict):
        try:
            return elem_type({key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                              for key in elem})
        except TypeError:
            return {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
    elif _is_namedtuple(elem):
        return elem_type(*[collate(samples, collate_fn_map=collate_fn_map)
                           for samples in zip(*batch)])
    elif _is_sequence(elem):
        elem_size = len(batch[0])
        for e in batch[1:]:
            if len(e) != elem_size:
                raise RuntimeError('each element in list of batch should be of equal size')
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        else:
            try:
                return elem_type([collate(samples, collate_fn_map=collate_fn_map)
                                  for samples in transposed])
            except TypeError:
                return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
    raise TypeError(_default_collate_err_msg_format.format(elem_type))


def default_collate(batch):
    return collate(batch, collate_fn_map=default_collate_fn_map)


def get_worker_info():
    return None


# ---------------------------------------------------------------------------
# DataLoader

class _DatasetKind:
    Map = 0
    Iterable = 1


class _IterableDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


class _MapDatasetFetcher:
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            if hasattr(self.dataset, "__getitems__") and self.dataset.__getitems__:
                data = self.dataset.__getitems__(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._pin_memory = False
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = _draw_seed(loader.generator)
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._worker_init_fn = loader.worker_init_fn
        self._workers_started = False
        if self._dataset_kind == _DatasetKind.Map:
            self._dataset_fetcher = _MapDatasetFetcher(self._dataset, self._auto_collation,
                                                       self._collate_fn, self._drop_last)
        else:
            self._dataset_fetcher = _IterableDatasetFetcher(self._dataset, self._auto_collation,
                                                            self._collate_fn, self._drop_last)

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        if not self._workers_started:
            self._workers_started = True
            if self._num_workers > 0 and self._worker_init_fn is not None:
                for worker_id in range(self._num_workers):
                    self._worker_init_fn(worker_id)
        index = self._next_index()
        return self._dataset_fetcher.fetch(index)

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


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False,
                 timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None,
                 *, prefetch_factor=2, persistent_workers=False, pin_memory_device=""):
        object.__setattr__(self, '_DataLoader__initialized', False)
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; '
                             'use num_workers=0 to disable multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError('prefetch_factor option could only be specified in multiprocessing.'
                             'let num_workers > 0 to enable multiprocessing.')
        if not prefetch_factor > 0:
            raise AssertionError()
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError(('multiprocessing_context can only be used with '
                              'multi-process loading (num_workers > 0), but got '
                              'num_workers={}').format(num_workers))
        self.multiprocessing_context = multiprocessing_context

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle is not None and shuffle is not False:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified "
                    "shuffle option, but got shuffle={}".format(shuffle))
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified "
                    "sampler option, but got sampler={}".format(sampler))
            elif batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified "
                    "batch_sampler option, but got batch_sampler={}".format(batch_sampler))
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with '
                             'shuffle')

        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive '
                                 'with batch_size, shuffle, sampler, and '
                                 'drop_last')
            batch_size = None
            drop_last = False
        elif batch_size is None:
            if drop_last:
                raise ValueError('batch_size=None option disables auto-batching '
                                 'and is mutually exclusive with drop_last')

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            else:
                if shuffle:
                    sampler = RandomSampler(dataset, generator=generator)
                else:
                    sampler = SequentialSampler(dataset)

        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator

        if collate_fn is None:
            if self._auto_collation:
                collate_fn = default_collate
            else:
                collate_fn = default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        object.__setattr__(self, '_DataLoader__initialized', True)
        self._IterableDataset_len_called = None
        self._iterator = None

    def __setattr__(self, attr, val):
        if getattr(self, '_DataLoader__initialized', False) and attr in _DATALOADER_FROZEN:
            raise ValueError('{} attribute should not be set after {} is '
                             'initialized'.format(attr, self.__class__.__name__))
        object.__setattr__(self, attr, val)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        if self._auto_collation:
            return self.batch_sampler
        return self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = len(self.dataset)
            self._IterableDataset_len_called = length
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = int(math.ceil(length / self.batch_size))
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        pass
