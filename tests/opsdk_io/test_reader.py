"""opsdk.io.DataLoader as Paddle's: the batches (Tensors, dtypes, nesting), len(), drop_last,
batch_size=None, batch_sampler, collate_fn, IterableDataset, num_workers."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle

from .structure import same_as_paddle

pytestmark = pytest.mark.paddle


def samples(P, fn, n=5):
    class Samples(P.io.Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            return fn(i)
    return Samples()


def stream(P, n=5):
    class Stream(P.io.IterableDataset):
        def __iter__(self):
            for i in range(n):
                yield np.array([i], "float32")
    return Stream()


SAMPLES = {
    "arrays": lambda i: (np.full([3], i, "float32"), np.array([i], "int64")),
    "numbers": lambda i: (float(i), i, True),
    "dict": lambda i: {"x": np.float64(i), "y": [i, i + 1], "s": "ab"},
    "float16": lambda i: np.full([2], i, "float16"),
    "0-d": lambda i: (np.array(i),),
}


# with batch_size=None Paddle stops at a sample without arrays (opsdk hands it out)
@pytest.mark.parametrize("name, batch_size, drop_last", [
    (name, size, drop) for name in SAMPLES for size, drop in ((2, False), (2, True), (None, False))
    if size or name not in ("numbers", "dict")])
def test_batches_match_paddle(name, batch_size, drop_last):
    def fn(P):
        dl = P.io.DataLoader(samples(P, SAMPLES[name]), batch_size=batch_size,
                             drop_last=drop_last)
        return [len(dl), list(dl)]
    same_as_paddle(fn)


def test_tensor_samples_and_tensor_dataset():
    def fn(P):
        ds = P.io.TensorDataset([P.arange(6).reshape([3, 2]).astype("float32"), P.arange(3)])
        a = list(P.io.DataLoader(ds, batch_size=2))
        b = list(P.io.DataLoader(samples(P, lambda i: P.full([2], i, "float64")), batch_size=3))
        return [a, b]
    same_as_paddle(fn)


@pytest.mark.parametrize("batch_size", [2, None])
def test_batches_are_detached_as_paddle(batch_size):
    def fn(P):
        x = P.arange(6, dtype="float32").reshape([3, 2])
        x.stop_gradient = False
        b = next(iter(P.io.DataLoader(P.io.TensorDataset([x]), batch_size=batch_size)))[0]
        return [b.stop_gradient, b.is_leaf]
    assert same_as_paddle(fn) == ("list", [True, True])


def test_batch_sampler_collate_fn_and_workers():
    def fn(P):
        ds = samples(P, lambda i: np.array([i, -i], "int32"), n=7)
        bs = P.io.BatchSampler(dataset=ds, batch_size=3, drop_last=True)
        a = list(P.io.DataLoader(ds, batch_sampler=bs))
        b = list(P.io.DataLoader(ds, batch_size=4, collate_fn=lambda xs: np.stack(xs)[:, :1]))
        c = list(P.io.DataLoader(ds, batch_size=2, num_workers=2))
        return [a, b, c]
    same_as_paddle(fn)


def test_iterable_dataset_batches():
    # (list() would ask len(), which a loader over a stream refuses, in Paddle too)
    same_as_paddle(lambda P: [[b for b in P.io.DataLoader(stream(P), batch_size=2)],
                              [b for b in P.io.DataLoader(stream(P), batch_size=2,
                                                          drop_last=True)],
                              [b for b in P.io.DataLoader(stream(P, 2), batch_size=None)]])


def test_samples_without_arrays_come_out_as_they_are():
    dl = opsdk.io.DataLoader(samples(opsdk, SAMPLES["numbers"], n=2), batch_size=None)
    assert [b for b in dl] == [[0.0, 0, True], [1.0, 1, True]]


def test_shuffle_covers_every_sample_once():
    opsdk.seed(0)
    np.random.seed(0)
    dl = opsdk.io.DataLoader(samples(opsdk, lambda i: i, n=9), batch_size=4, shuffle=True)
    batches = [b.numpy().tolist() for b in dl]
    assert [len(b) for b in batches] == [4, 4, 1]
    assert sorted(sum(batches, [])) == list(range(9))


def test_worker_info_is_none_outside_workers():
    assert opsdk.io.get_worker_info() is None


@pytest.mark.parametrize("make, family", [
    (lambda P: len(P.io.DataLoader(stream(P), batch_size=2)), ValueError),
    (lambda P: P.io.DataLoader(stream(P), shuffle=True), ValueError),
    (lambda P: P.io.DataLoader(samples(P, int), batch_size=0), AssertionError),
    (lambda P: P.io.DataLoader(samples(P, int), num_workers=-1), AssertionError),
    (lambda P: P.io.DataLoader(samples(P, int), batch_size=2,
                               batch_sampler=P.io.BatchSampler(range(3))), AssertionError),
])
def test_bad_loaders_raise_as_paddle(make, family):
    assert_raises_as_paddle(make, family)


def test_docstring_example_runs():
    import doctest
    result = doctest.testmod(opsdk.io, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0
