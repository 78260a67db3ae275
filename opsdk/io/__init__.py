"""opsdk.io: Paddle's paddle.io for dygraph on the CPU: datasets, samplers, batch samplers and
collate functions (in dataloader/, where Paddle keeps them) and the DataLoader (reader.py) that
turns them into batches of Tensors.

Example:
    >>> ds = opsdk.io.TensorDataset([opsdk.arange(10).reshape([5, 2]), opsdk.arange(5)])
    >>> [list(x.shape) for x, y in opsdk.io.DataLoader(ds, batch_size=2)]
    [[2, 2], [2, 2], [1, 2]]
"""
from .dataloader import (BatchSampler, ChainDataset, ComposeDataset, ConcatDataset, Dataset,
                         DistributedBatchSampler, IterableDataset, RandomSampler, Sampler,
                         SequenceSampler, Subset, SubsetRandomSampler, TensorDataset,
                         WeightedRandomSampler, get_worker_info, random_split)
from .reader import DataLoader

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "BatchSampler", "DistributedBatchSampler", "DataLoader", "get_worker_info",
           "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "random_split", "Subset", "SubsetRandomSampler", "ConcatDataset"]
