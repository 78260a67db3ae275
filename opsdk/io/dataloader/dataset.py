"""paddle.io's datasets: the map-style Dataset (``__getitem__``/``__len__``), the
IterableDataset (``__iter__``), and the ones built from others (TensorDataset, ComposeDataset,
ChainDataset, ConcatDataset, Subset, random_split)."""
import bisect
import math
import warnings

from ...errors import (AssertedArgumentError, DatasetAccessError, DatasetNotImplementedError,
                      OpArgumentError)


class Dataset:
    """A map-style dataset: subclasses define ``__getitem__(idx)`` and ``__len__()``."""

    def __init__(self):
        pass

    def __getitem__(self, idx):
        raise DatasetNotImplementedError(
            f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self):
        raise DatasetNotImplementedError(
            f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset):
    """A stream of samples: subclasses define ``__iter__()``; indexing and len() refuse."""

    def __init__(self):
        pass

    def __iter__(self):
        raise DatasetNotImplementedError(
            f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx):
        raise DatasetAccessError(f"'__getitem__' should not be called for IterableDataset "
                                 f"{type(self).__name__}; iterate over it instead")

    def __len__(self):
        raise DatasetAccessError(f"'__len__' should not be called for IterableDataset "
                                 f"{type(self).__name__}; it has no length")


def _check(ok, message):
    if not ok:
        raise AssertedArgumentError(message)


class TensorDataset(Dataset):
    """Sample i is the tuple of every tensor's row i (the tensors share their first axis)."""

    def __init__(self, tensors):
        _check(all(t.shape[0] == tensors[0].shape[0] for t in tensors),
               f"TensorDataset: tensors: expected: one length of the first axis; got: "
               f"{[t.shape[0] for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


def _as_fields(sample):
    return list(sample) if isinstance(sample, (list, tuple)) else [sample]


class ComposeDataset(Dataset):
    """Sample i is the fields of every dataset's sample i, joined into one tuple."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        _check(self.datasets, "ComposeDataset: datasets: expected: at least one; got: none")
        for i, d in enumerate(self.datasets):
            _check(isinstance(d, Dataset) and not isinstance(d, IterableDataset),
                   f"ComposeDataset: datasets[{i}]: expected: a map-style opsdk.io.Dataset; "
                   f"got: {type(d).__name__}")
            if i:
                _check(len(d) == len(self.datasets[i - 1]),
                       f"ComposeDataset: datasets: expected: one length; got: "
                       f"{len(self.datasets[i - 1])} and {len(d)}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        return tuple(f for d in self.datasets for f in _as_fields(d[idx]))


class ChainDataset(IterableDataset):
    """The samples of several IterableDatasets, one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        _check(self.datasets, "ChainDataset: datasets: expected: at least one; got: none")
        for i, d in enumerate(self.datasets):
            _check(isinstance(d, IterableDataset),
                   f"ChainDataset: datasets[{i}]: expected: an opsdk.io.IterableDataset; got: "
                   f"{type(d).__name__}")

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """The samples of several map-style datasets, one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        _check(self.datasets, "ConcatDataset: datasets: expected: at least one; got: none")
        for d in self.datasets:
            _check(not isinstance(d, IterableDataset),
                   "ConcatDataset: datasets: expected: map-style datasets (ConcatDataset "
                   "does not support IterableDataset); got: an IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    @staticmethod
    def cumsum(sequence):
        ends, total = [], 0
        for d in sequence:
            total += len(d)
            ends.append(total)
        return ends

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise OpArgumentError(f"ConcatDataset: index: expected: within "
                                      f"[-{len(self)}, {len(self)}); got: {idx}")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def _lengths_of_fractions(n, fractions):
    lengths = []
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise OpArgumentError(f"random_split: lengths[{i}]: expected: a fraction in "
                                  f"[0, 1]; got: {frac}")
        lengths.append(int(math.floor(n * frac)))
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"random_split: split {i} is empty", stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions summing to 1) over a random permutation of
    the dataset's indices (drawn by opsdk.randperm, so opsdk.seed repeats it)."""
    from ...functional.creation import randperm

    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise OpArgumentError(f"random_split: lengths: expected: summing to the dataset's "
                              f"length {len(dataset)}; got: {list(lengths)}")
    order = randperm(sum(lengths)).tolist()
    splits, end = [], 0
    for length in lengths:
        splits.append(Subset(dataset, order[end:end + length]))
        end += length
    return splits
