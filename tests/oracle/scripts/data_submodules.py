# The submodules of torch.utils.data that model code imports from.
import torch
from torch.utils.data.dataloader import default_collate, DataLoader
from torch.utils.data.dataset import Dataset, TensorDataset, random_split
from torch.utils.data.sampler import RandomSampler, SequentialSampler, BatchSampler
from torch.utils.data._utils.collate import default_collate as dc2
import torch.utils.data.dataset as ds
import torch.utils.data as data
print(ds.Dataset is Dataset, Dataset is data.Dataset, dc2 is default_collate, DataLoader is data.DataLoader)
print(data.dataloader.DataLoader is DataLoader, data.sampler.RandomSampler is RandomSampler)
print(default_collate([(torch.tensor([1.0]), 2), (torch.tensor([3.0]), 4)]))
ds2 = TensorDataset(torch.arange(6.0).view(3, 2))
print(list(BatchSampler(SequentialSampler(ds2), 2, False)))
print([b for b in DataLoader(ds2, batch_size=2)])
