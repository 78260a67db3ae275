"""opsdk.io.dataloader: where Paddle keeps paddle.io's datasets, samplers, batch samplers,
collate functions and worker info (``from paddle.io.dataloader.collate import
default_collate_fn`` works here too)."""
from .batch_sampler import BatchSampler, DistributedBatchSampler
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset,
                      Subset, TensorDataset, random_split)
from .sampler import (RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,
                      WeightedRandomSampler)
from .worker import get_worker_info
