"""The cross_entropy kernels (a Rows op with a per-row loss and integer labels): C agrees with python
on many rows, with ignored rows."""
import numpy

from opsdk_nn.kernels.cross_entropy import CROSS_ENTROPY

from .agreement import assert_c_agrees, needs_c

pytestmark = needs_c
RNG = numpy.random.default_rng(0)


def test_cross_entropy_kernels_agree_on_many_rows(dtype):
    x = RNG.normal(0, 3, (600, 300)).astype(dtype)
    label = RNG.integers(0, 300, 600)
    label[::7] = -100
    fwd, bwd = CROSS_ENTROPY.kernels
    loss, rowmax, logsum = fwd.run("python", x, label, ignore_index=-100)
    assert not loss[::7].any()
    assert_c_agrees(fwd, x, label, dtype=dtype, ignore_index=-100)
    g = RNG.normal(0, 1, 600).astype(dtype)
    assert_c_agrees(bwd, x, label, rowmax, logsum, g, dtype=dtype, ignore_index=-100)
