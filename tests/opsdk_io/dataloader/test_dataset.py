"""opsdk.io's datasets as Paddle's: lengths, samples, and the errors of an unfinished one."""
import warnings

import numpy as np
import pytest

import opsdk

from ..structure import same_as_paddle
from helpers.frameworks import assert_raises_as_paddle

pytestmark = pytest.mark.paddle


def squares(P):
    class Squares(P.io.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return np.array([i * i], "int64"), float(i)
    return Squares()


def stream(P, n):
    class Stream(P.io.IterableDataset):
        def __iter__(self):
            yield from range(n)
    return Stream()


def test_tensor_dataset_rows():
    def fn(P):
        ds = P.io.TensorDataset([P.arange(6).reshape([3, 2]).astype("float32"), P.arange(3)])
        return [len(ds), ds[1]]
    same_as_paddle(fn)


def test_compose_concat_subset():
    def fn(P):
        comp = P.io.ComposeDataset([squares(P), squares(P)])
        cat = P.io.ConcatDataset([squares(P), squares(P)])
        sub = P.io.Subset(squares(P), [3, 1])
        return [len(comp), comp[2], len(cat), cat[5], cat[-1], len(sub), sub[0]]
    same_as_paddle(fn)


def test_chain_dataset():
    same_as_paddle(lambda P: [x for x in P.io.ChainDataset([stream(P, 2), stream(P, 3)])])


def test_random_split_lengths_and_cover():
    def fn(P):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parts = P.io.random_split(squares(P), [0.5, 0.5])
            three = P.io.random_split(list(range(10)), [0.3, 0.3, 0.4])
        return [[len(p) for p in parts], sorted(parts[0].indices + parts[1].indices),
                [len(p) for p in three]]
    same_as_paddle(fn)


def test_random_split_follows_the_seed():
    opsdk.seed(3)
    a = [p.indices for p in opsdk.io.random_split(list(range(8)), [5, 3])]
    opsdk.seed(3)
    assert a == [p.indices for p in opsdk.io.random_split(list(range(8)), [5, 3])]


def test_random_split_wants_the_lengths_to_add_up():
    assert_raises_as_paddle(lambda P: P.io.random_split(list(range(5)), [2, 2]), ValueError)


def test_unfinished_datasets_raise_as_paddle():
    assert_raises_as_paddle(lambda P: P.io.Dataset()[0], NotImplementedError)
    assert_raises_as_paddle(lambda P: len(P.io.Dataset()), NotImplementedError)
    assert_raises_as_paddle(lambda P: iter(P.io.IterableDataset()), NotImplementedError)
    assert_raises_as_paddle(lambda P: stream(P, 2)[0], RuntimeError)
    assert_raises_as_paddle(lambda P: len(stream(P, 2)), RuntimeError)


def test_mismatched_datasets_are_refused_as_paddle():
    assert_raises_as_paddle(lambda P: P.io.TensorDataset([P.zeros([2]), P.zeros([3])]),
                            AssertionError)
    assert_raises_as_paddle(lambda P: P.io.ChainDataset([squares(P)]), AssertionError)
    assert_raises_as_paddle(lambda P: P.io.ComposeDataset([stream(P, 2)]), AssertionError)


def test_concat_of_an_iterable_dataset_says_so_in_paddles_words():
    # Paddle's own test (test_multiprocess_dataloader_dataset) looks for these words
    for build in (lambda P: [squares(P), stream(P, 2)], lambda P: [stream(P, 2)]):
        err = assert_raises_as_paddle(lambda P: P.io.ConcatDataset(build(P)), AssertionError)
        assert "does not support IterableDataset" in str(err)
