"""The softmax and log_softmax kernels (Rows ops over the last axis): C agrees with python on a
large array, and a row holding NaN is NaN throughout, as NumPy's max makes it."""
import numpy
import pytest

from opsdk_nn.kernels.softmax import LOG_SOFTMAX, SOFTMAX

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


@pytest.mark.parametrize("shape", [(300, 400), (2000, 30)])
@pytest.mark.parametrize("op", [SOFTMAX, LOG_SOFTMAX], ids=["softmax", "log_softmax"])
def test_softmax_kernels_agree_on_a_large_array(shape, op, dtype):
    x = RNG.normal(0, 3, shape).astype(dtype)
    fwd, bwd = op.kernels
    y = fwd.run("python", x)
    assert_c_agrees(fwd, x, dtype=dtype)
    assert_c_agrees(bwd, y, RNG.normal(0, 1, shape).astype(dtype), dtype=dtype)


@pytest.mark.parametrize("op", [SOFTMAX, LOG_SOFTMAX], ids=["softmax", "log_softmax"])
def test_a_row_holding_nan_is_nan_throughout(op, dtype):
    x = RNG.normal(0, 3, (3, 50)).astype(dtype)
    x[1, 20] = numpy.nan
    for backend in ("python", "c"):
        y = op.forward_kernel.run(backend, x)
        assert numpy.isnan(y[1]).all() and numpy.isfinite(y[[0, 2]]).all()
