"""crop and histogramdd: against Paddle 3.3.1 where
installed, gradients to second order, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ShapeError
from helpers.frameworks import import_paddle, paddle_cases
from helpers.samples import signed

test_values_and_gradients_match_paddle = paddle_cases({
    "crop": (lambda P, x: P.crop(x, shape=[2, -1], offsets=[1, 1]), [signed(3, 4)]),
    "crop_default_offsets": (lambda P, x: P.crop(x, shape=[2, 2]), [signed(3, 4)]),
    "crop_whole": (lambda P, x: P.crop(x), [signed(3, 4)]),
})


POINTS = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.5, 2.5]])


@pytest.mark.paddle
@pytest.mark.parametrize("kwargs", [
    dict(bins=[3, 3], ranges=[0.0, 3.0, 0.0, 3.0]),
    dict(bins=2),
    dict(bins=2, density=True, weights=[1.0, 2.0, 1.0, 1.0, 0.5]),
    dict(bins=[2, 4], density=True),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histogramdd_matches_paddle(kwargs, dtype):
    paddle = import_paddle()
    results = []
    for P in (opsdk, paddle):
        kw = dict(kwargs)
        if "weights" in kw:
            kw["weights"] = P.to_tensor(kw["weights"], dtype=dtype)
        hist, edges = P.histogramdd(P.to_tensor(POINTS, dtype=dtype), **kw)
        results.append((hist, edges))
    (h, e), (wh, we) = results
    assert str(h.dtype) == str(wh.dtype) and len(e) == len(we)
    np.testing.assert_allclose(h.numpy(), wh.numpy(), rtol=1e-6)
    for a, b in zip(e, we):
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_histogramdd_is_numpys_and_a_method():
    hist, edges = opsdk.to_tensor(POINTS).histogramdd(bins=3)
    want, want_edges = np.histogramdd(POINTS, bins=3)
    np.testing.assert_allclose(hist.numpy(), want)
    np.testing.assert_allclose(edges[1].numpy(), want_edges[1], rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda: opsdk.crop(opsdk.ones([3, 4]), shape=[2]),
    lambda: opsdk.histogramdd(opsdk.ones([4])),
    lambda: opsdk.histogramdd(opsdk.ones([4, 2]), ranges=[0.0, 1.0]),
])
def test_bad_arguments_are_clear_errors(call):
    with pytest.raises(ValueError):
        call()


def test_crop_out_of_bounds_is_a_shape_error():
    with pytest.raises(ShapeError):
        opsdk.crop(opsdk.ones([3, 4]), shape=[3, 4], offsets=[1, 0])
