"""The activation kernels (fwd, bwd, bwd2): C agrees with python on a large array."""
import numpy
import pytest

from opsdk_nn.kernels import activations

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


@pytest.mark.parametrize("act", sorted(activations.KERNELS))
def test_activation_kernels_agree_on_a_large_array(act, dtype):
    x = RNG.normal(0, 4, 150_001).astype(dtype)
    dy, g = (RNG.normal(0, 1, x.size).astype(dtype) for _ in range(2))
    kernels = activations.KERNELS[act]
    params = {"p0": 2.0, "p1": 3.0}
    assert_c_agrees(kernels.fwd, x, dtype=dtype, **params)
    assert_c_agrees(kernels.bwd, x, dy, dtype=dtype, **params)
    assert_c_agrees(kernels.bwd2, x, dy, g, dtype=dtype, **params)
