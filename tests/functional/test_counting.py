"""unique, histogram, bincount, numel, shape, increment, isclose, equal_all: values and dtypes
(NumPy; Paddle where installed) and clear errors for bad arguments."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import import_paddle


def test_unique_and_its_extras_match_numpy():
    x = opsdk.to_tensor([[3, 1], [3, 2]])
    values, index, inverse, counts = opsdk.unique(x, True, True, True)
    assert values.numpy().tolist() == [1, 2, 3] and index.numpy().tolist() == [1, 3, 0]
    assert inverse.numpy().tolist() == [2, 0, 2, 1] and counts.numpy().tolist() == [1, 1, 2]
    rows = opsdk.unique(opsdk.to_tensor([[1, 2], [0, 5], [1, 2]]), axis=0)
    assert rows.numpy().tolist() == [[0, 5], [1, 2]]
    assert opsdk.unique(x, return_counts=True, dtype="int32")[1].dtype == np.int32
    with pytest.raises(DTypeError, match="unique: argument 'dtype'"):
        opsdk.unique(x, dtype="float32")


def test_histogram_over_the_data_range_and_a_given_one():
    x = opsdk.to_tensor([1.0, 2.0, 1.0, 4.0])
    h = opsdk.histogram(x, bins=3)
    assert h.dtype == np.int64 and h.numpy().tolist() == [2, 1, 1]
    assert opsdk.histogram(x, bins=4, min=0, max=4).numpy().tolist() == [0, 2, 1, 1]
    assert opsdk.histogram(opsdk.to_tensor([2.0, 2.0]), bins=2).numpy().tolist() == [0, 2]
    with pytest.raises(OpArgumentError, match="'bins' must be >= 1"):
        opsdk.histogram(x, bins=0)


def test_bincount_with_and_without_weights():
    x = opsdk.to_tensor([1, 1, 3])
    assert opsdk.bincount(x).numpy().tolist() == [0, 2, 0, 1]
    w = opsdk.bincount(x, weights=opsdk.to_tensor([0.5, 1.0, 2.0]), minlength=6)
    assert w.dtype == np.float32 and w.numpy().tolist() == [0, 1.5, 0, 2, 0, 0]
    with pytest.raises(OpArgumentError, match="non-negative"):
        opsdk.bincount(opsdk.to_tensor([1, -1]))
    with pytest.raises(DTypeError, match="integer tensor"):
        opsdk.bincount(opsdk.to_tensor([1.0]))
    with pytest.raises(ShapeError, match="'weights' must have x's shape"):
        opsdk.bincount(x, weights=opsdk.to_tensor([1.0]))


def test_numel_shape_and_increment():
    z = opsdk.zeros([2, 0, 3])
    assert int(opsdk.numel(z)) == 0 and opsdk.numel(z).dtype == np.int64
    assert opsdk.shape(z).numpy().tolist() == [2, 0, 3]
    c = opsdk.to_tensor([1.0])
    assert opsdk.increment(c, 2.0) is c and c.numpy().tolist() == [3.0]
    with pytest.raises(ShapeError, match="exactly one element"):
        opsdk.increment(opsdk.ones([2]))


def test_isclose_and_equal_all():
    a, b = opsdk.to_tensor([1.0, 2.0, np.nan]), opsdk.to_tensor([1.0, 2.1, np.nan])
    assert opsdk.isclose(a, b).numpy().tolist() == [True, False, False]
    assert opsdk.isclose(a, b, equal_nan=True).numpy().tolist()[2]
    assert bool(opsdk.equal_all(a[:2], a[:2])) and not bool(opsdk.equal_all(a, a[:2]))
    with pytest.raises(ShapeError, match="isclose"):
        opsdk.isclose(opsdk.ones([2]), opsdk.ones([3]))


@pytest.mark.paddle
def test_same_as_paddle():
    paddle = import_paddle()

    def both(fn):
        return [[np.asarray(t.numpy()).tolist() if hasattr(t, "numpy") else t
                 for t in (r if isinstance(r, tuple) else (r,))]
                for r in (fn(paddle), fn(opsdk))]

    programs = [
        lambda P: P.unique(P.to_tensor([3, 1, 3, 2]), True, True, True),
        lambda P: P.histogram(P.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=3),
        lambda P: P.histogram(P.to_tensor([1.0, 2.0, 5.0]), bins=2, min=1, max=3),
        lambda P: P.bincount(P.to_tensor([1, 1, 3]), minlength=6),
        lambda P: P.numel(P.zeros([2, 3])),
        lambda P: P.shape(P.zeros([2, 3])),
        lambda P: P.isclose(P.to_tensor([1.0, 2.0]), P.to_tensor([1.0, 2.1])),
        lambda P: P.equal_all(P.to_tensor([1.0, 2.0]), P.to_tensor([1.0, 2.0])),
        lambda P: P.increment(P.to_tensor([1.0]), 2.0),
    ]
    for k, fn in enumerate(programs):
        want, got = both(fn)
        assert got == want, f"program {k}: opsdk {got}, Paddle {want}"


def test_rank_and_numel_are_0d_tensors_as_in_paddle():
    x = opsdk.zeros([2, 3, 4])
    r, n = opsdk.rank(x), x.numel()
    assert r.shape == [] and r.dtype == opsdk.int32 and int(r) == 3 and x.rank().item() == 3
    assert n.shape == [] and n.dtype == opsdk.int64 and int(n) == 24 and x.size == 24
