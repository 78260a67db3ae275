"""paddle.io's samplers: which dataset indices to read, in which order. RandomSampler and
WeightedRandomSampler draw from NumPy's global generator and SubsetRandomSampler from
opsdk.randperm, as Paddle's do (so np.random.seed / opsdk.seed repeat them)."""
import numpy as np

from ...errors import ArgumentTypeError, AssertedArgumentError, OpArgumentError


class Sampler:
    """Base: subclasses define ``__iter__`` (indices) and usually ``__len__``."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError


class SequenceSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of the indices (num_samples of them; with replacement, repeats allowed);
    ``generator``, when given, is an iterator that yields the indices itself."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise ArgumentTypeError(f"RandomSampler: replacement: expected: a bool; got: "
                                    f"{replacement!r}")
        if not replacement and self.num_samples > len(data_source):
            raise OpArgumentError(f"RandomSampler: num_samples: expected: at most the "
                                  f"{len(data_source)} samples without replacement; got: "
                                  f"{self.num_samples}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise OpArgumentError(f"RandomSampler: num_samples: expected: a positive int; "
                                  f"got: {self.num_samples!r}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        n = len(self.data_source)
        yield from np.random.choice(np.arange(n), self.num_samples,
                                    replace=self.replacement).tolist()

    def __len__(self):
        return self.num_samples


def _weights_array(weights):
    w = weights.numpy() if hasattr(weights, "numpy") else np.asarray(weights)
    _assert(w.ndim in (1, 2), f"weights: expected: a 1-D or 2-D array; got: {w.ndim}-D")
    return w.reshape((-1, w.shape[-1]))


def _assert(ok, message):
    if not ok:
        raise AssertedArgumentError(f"WeightedRandomSampler: {message}")


class WeightedRandomSampler(Sampler):
    """num_samples indices drawn with probabilities proportional to ``weights`` (a 2-D
    weights draws num_samples per row, one row after another)."""

    def __init__(self, weights, num_samples, replacement=True):
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise OpArgumentError(f"WeightedRandomSampler: num_samples: expected: a positive "
                                  f"int; got: {num_samples!r}")
        if not isinstance(replacement, bool):
            raise OpArgumentError(f"WeightedRandomSampler: replacement: expected: a bool; got: "
                                  f"{replacement!r}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self):
        w = _weights_array(self.weights)
        _assert(np.all(w >= 0.0), "weights: expected: no negative value")
        _assert(np.all(np.isfinite(w)), "weights: expected: finite values")
        positive = np.sum(w > 0.0, axis=1)
        _assert(np.all(positive > 0), "weights: expected: a positive value in every row")
        if not self.replacement:
            _assert(np.all(positive >= self.num_samples),
                    f"weights: expected: at least num_samples={self.num_samples} positive "
                    f"values per row without replacement; got: {positive.min()}")
        w = w / w.sum(axis=1)
        rows = [np.random.choice(w.shape[1], self.num_samples, self.replacement, row)
                for row in w]
        return iter(np.array(rows).reshape(-1).tolist())

    def __len__(self):
        return self.num_samples * _weights_array(self.weights).shape[0]


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise OpArgumentError("SubsetRandomSampler: indices: expected: at least one; "
                                  "got: none")
        self.indices = indices

    def __iter__(self):
        from ...functional.creation import randperm

        for i in randperm(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)
