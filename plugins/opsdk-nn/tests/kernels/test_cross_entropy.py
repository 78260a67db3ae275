"""The cross_entropy kernels: C agrees with python on many rows, with ignored rows."""
import numpy
import pytest

from opsdk_nn.kernels import cross_entropy

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


@pytest.mark.parametrize("g_rows", [1, 600])
def test_cross_entropy_kernels_agree_on_many_rows(g_rows, dtype):
    x = RNG.normal(0, 3, (600, 300)).astype(dtype)
    label = RNG.integers(0, 300, 600)
    label[::7] = -100
    loss, rowmax, logsum = cross_entropy.cross_entropy_fwd.run("python", x, label, ignore_index=-100)
    assert_c_agrees(cross_entropy.cross_entropy_fwd, x, label, dtype=dtype, ignore_index=-100)
    g = RNG.normal(0, 1, g_rows).astype(dtype)
    assert_c_agrees(cross_entropy.cross_entropy_bwd, x, label, rowmax, logsum, g, dtype=dtype, ignore_index=-100)
