"""The layer_norm and rms_norm kernels (Rows ops): C agrees with python on many rows, reproducibly."""
import numpy

from opsdk_nn.kernels.norms import LAYER_NORM, RMS_NORM

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


def _rows(dtype):
    x, dy = (RNG.normal(0, 2, (2000, 70)).astype(dtype) for _ in range(2))
    return x, dy, RNG.uniform(0.5, 1.5, 70).astype(dtype), RNG.normal(0, 1, 70).astype(dtype)


def test_layer_norm_kernels_agree_on_many_rows(dtype):
    x, dy, w, b = _rows(dtype)
    fwd, bwd = LAYER_NORM.kernels
    _, mean, rstd = fwd.run("python", x, w, b, eps=1e-5)
    assert_c_agrees(fwd, x, w, b, dtype=dtype, eps=1e-5)
    assert_c_agrees(bwd, x, w, mean.astype(dtype), rstd.astype(dtype), dy, dtype=dtype)


def test_rms_norm_kernels_agree_on_many_rows(dtype):
    x, dy, w, _ = _rows(dtype)
    fwd, bwd = RMS_NORM.kernels
    _, rstd = fwd.run("python", x, w, eps=1e-6)
    assert_c_agrees(fwd, x, w, dtype=dtype, eps=1e-6)
    assert_c_agrees(bwd, x, w, rstd.astype(dtype), dy, dtype=dtype)


def test_weight_gradients_are_reproducible_run_to_run():
    x, dy = (RNG.normal(0, 2, (3000, 50)).astype("float32") for _ in range(2))
    w = numpy.ones(50, numpy.float32)
    fwd, bwd = LAYER_NORM.kernels
    _, mean, rstd = fwd.run("c", x, w, w, eps=1e-5)
    first = bwd.run("c", x, w, mean, rstd, dy)
    for _ in range(3):
        again = bwd.run("c", x, w, mean, rstd, dy)
        for a, b in zip(first, again):
            numpy.testing.assert_array_equal(a, b)
