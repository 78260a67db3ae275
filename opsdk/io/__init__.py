"""opsdk.io: Paddle's paddle.io for dygraph on the CPU: datasets, samplers, batch samplers and
the DataLoader that turns them into batches of Tensors.

Example:
    >>> ds = opsdk.io.TensorDataset([opsdk.arange(10).reshape([5, 2]), opsdk.arange(5)])
    >>> [list(x.shape) for x, y in opsdk.io.DataLoader(ds, batch_size=2)]
    [[2, 2], [2, 2], [1, 2]]
"""
from .batch_sampler import BatchSampler, DistributedBatchSampler
from .collate import default_collate_fn, default_convert_fn
from .dataloader import DataLoader
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset,
                      Subset, TensorDataset, random_split)
from .sampler import (RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,
                      WeightedRandomSampler)
from .worker import get_worker_info

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "BatchSampler", "DistributedBatchSampler", "DataLoader", "get_worker_info",
           "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "random_split", "Subset", "SubsetRandomSampler", "ConcatDataset"]
