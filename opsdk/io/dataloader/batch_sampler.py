"""paddle.io's batch samplers: lists of indices, one list a batch. DistributedBatchSampler
behaves as on one process (rank 0 of 1) unless num_replicas and rank are given."""
import math
from collections.abc import Iterable

import numpy as np

from ...errors import AssertedArgumentError
from .dataset import IterableDataset
from .sampler import RandomSampler, Sampler, SequenceSampler


def _assert(ok, op, message):
    if not ok:
        raise AssertedArgumentError(f"{op}: {message}")


def _batches(indices, size, drop_last):
    batch = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


def _count(samples, size, drop_last):
    return (samples + (0 if drop_last else size - 1)) // size


class BatchSampler(Sampler):
    """Batches of batch_size indices from ``sampler``, or from a dataset's indices (in order,
    or shuffled); the last shorter batch is kept unless drop_last."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1,
                 drop_last=False):
        op = "BatchSampler"
        if dataset is None:
            _assert(sampler is not None, op, "expected: dataset or sampler; got: neither")
            _assert(isinstance(sampler, (Sampler, Iterable)), op,
                    f"sampler: expected: an opsdk.io.Sampler or an iterable; got: "
                    f"{type(sampler).__name__}")
            _assert(not shuffle, op, "shuffle: expected: False when sampler is given; got: True")
            self.sampler = sampler
        else:
            _assert(not isinstance(dataset, IterableDataset), op,
                    "dataset: expected: a map-style dataset; got: an IterableDataset")
            _assert(sampler is None, op, "expected: dataset or sampler; got: both")
            _assert(isinstance(shuffle, bool), op,
                    f"shuffle: expected: a bool; got: {type(shuffle).__name__}")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        _assert(isinstance(batch_size, int) and batch_size > 0, op,
                f"batch_size: expected: a positive int; got: {batch_size!r}")
        _assert(isinstance(drop_last, bool), op,
                f"drop_last: expected: a bool; got: {type(drop_last).__name__}")
        self.batch_size, self.shuffle, self.drop_last = batch_size, shuffle, drop_last

    def __iter__(self):
        return _batches(self.sampler, self.batch_size, self.drop_last)

    def __len__(self):
        return _count(len(self.sampler), self.batch_size, self.drop_last)


class DistributedBatchSampler(BatchSampler):
    """The batches of one replica (``rank`` of ``num_replicas``; by default rank 0 of 1, since
    opsdk runs one process): indices are padded by repeating the first ones to a multiple of
    num_replicas, shuffled by ``np.random.RandomState(epoch)`` when shuffle (as Paddle, so
    the order is Paddle's), and dealt out batch by batch."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        op = "DistributedBatchSampler"
        _assert(isinstance(batch_size, int) and batch_size > 0, op,
                f"batch_size: expected: a positive int; got: {batch_size!r}")
        _assert(isinstance(shuffle, bool), op, f"shuffle: expected: a bool; got: {shuffle!r}")
        _assert(isinstance(drop_last, bool), op,
                f"drop_last: expected: a bool; got: {drop_last!r}")
        if num_replicas is not None:
            _assert(isinstance(num_replicas, int) and num_replicas > 0, op,
                    f"num_replicas: expected: a positive int; got: {num_replicas!r}")
        if rank is not None:
            _assert(isinstance(rank, int) and rank >= 0, op,
                    f"rank: expected: a non-negative int; got: {rank!r}")
        self.dataset, self.batch_size, self.shuffle, self.drop_last = (dataset, batch_size,
                                                                       shuffle, drop_last)
        self.nranks = 1 if num_replicas is None else num_replicas
        self.local_rank = 0 if rank is None else rank
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def _padded(self):
        indices = list(range(len(self.dataset)))
        pad = self.total_size - len(indices)
        if indices:
            indices += (indices * math.ceil(pad / len(indices)))[:pad]
        return indices

    def _mine(self, indices):
        # whole rounds of nranks batches, then this rank's share of the last partial round
        step = self.batch_size * self.nranks
        tail = self.total_size % step
        mine = []
        for start in range(self.local_rank * self.batch_size, len(indices) - tail, step):
            mine.extend(indices[start:start + self.batch_size])
        share = tail // self.nranks
        rest = indices[len(indices) - tail:]
        mine.extend(rest[self.local_rank * share:(self.local_rank + 1) * share])
        return mine

    def __iter__(self):
        indices = self._padded()
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._mine(indices)
        return _batches(indices, self.batch_size, self.drop_last)

    def __len__(self):
        return _count(self.num_samples, self.batch_size, self.drop_last)

    def set_epoch(self, epoch):
        """The epoch that seeds the shuffle (the same epoch gives the same order)."""
        self.epoch = epoch
