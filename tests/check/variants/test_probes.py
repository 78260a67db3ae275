import numpy as np

from opsdk import TensorSpec
from opsdk.check.samples import CaseSample, TensorSlot
from opsdk.check.variants.probes import domain_of, probe_variants, special_points


class _Op:
    sample_fn = None
    inputs = (TensorSpec(shape=(2, 3), domain=(-3.0, 3.0)),)

    class function:
        @staticmethod
        def forward(ctx, x):
            return x


def test_points_are_zero_the_ends_and_the_dtype_s_extremes_inside_the_domain():
    points = special_points(np.float32, -3.0, 3.0)
    tiny = float(np.finfo(np.float32).tiny)
    assert points[:3] == [0.0, -3.0, 3.0] and tiny in points and -tiny in points
    assert float(np.finfo(np.float32).max) not in points
    assert special_points(np.float64, 0.5, 2.0) == [0.5, 2.0]


def test_the_domain_is_the_declared_one_else_the_sample_s_range():
    sample = CaseSample("s", (TensorSlot(np.array([[0.1, 0.4]]), True),), {}, [0])
    assert domain_of(_Op, sample, 0, sample.args[0].values) == (-3.0, 3.0)

    class Free(_Op):
        sample_fn = staticmethod(lambda rng, dtype: [])
    assert domain_of(Free, sample, 0, sample.args[0].values) == (0.1, 0.4)


def test_every_point_appears_cycled_and_filled():
    sample = CaseSample("sample 0", (TensorSlot(np.zeros((2, 3)), True),), {}, [0])
    variants = probe_variants(_Op, sample, filled=True, accepts=lambda s: True)
    cycled = variants[0].args[0].values
    assert {0.0, -3.0, 3.0} <= set(cycled.ravel()) and cycled.shape == (2, 3)
    assert [v.label for v in variants[1:4]] == ["sample 0, x = 0 everywhere",
                                               "sample 0, x = -3 everywhere",
                                               "sample 0, x = 3 everywhere"]
