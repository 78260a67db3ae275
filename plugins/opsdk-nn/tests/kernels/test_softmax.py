"""The softmax kernels: C agrees with python on large arrays, along every kind of axis."""
import numpy
import pytest

from opsdk_nn.kernels import softmax

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


@pytest.mark.parametrize("shape, axis", [((300, 400), -1), ((400, 300), 0), ((20, 50, 90), 1)])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_kernels_agree_on_a_large_array(shape, axis, log, dtype):
    x = RNG.normal(0, 3, shape).astype(dtype)
    y = softmax.softmax_fwd.run("python", x, axis=axis, log=log)
    assert_c_agrees(softmax.softmax_fwd, x, dtype=dtype, axis=axis, log=log)
    assert_c_agrees(softmax.softmax_bwd, y, RNG.normal(0, 1, shape).astype(dtype), dtype=dtype, axis=axis, log=log)
