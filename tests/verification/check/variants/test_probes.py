import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.samples import CaseSample, TensorSlot
from opsdk.verification.check.variants.probes import domain_of, probe_variants, special_points


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


def test_beyond_the_domain_is_past_where_exp_overflows_in_each_dtype():
    from opsdk.verification.check.variants.probes import beyond_magnitude

    assert round(beyond_magnitude(np.float32), 1) == 110.9
    assert round(beyond_magnitude(np.float64), 1) == 887.2
    for dtype in (np.float32, np.float64):
        with np.errstate(over="ignore"):
            assert np.isinf(np.exp(dtype(beyond_magnitude(dtype))))


def test_beyond_samples_fill_one_input_outside_its_domain_where_float64_is_finite(pack):
    import opsdk
    from opsdk.verification.check import select_ops
    from opsdk.verification.check.drawing import draw

    class Log(opsdk.PyLayer):
        @staticmethod
        def forward(ctx, x):
            with np.errstate(all="ignore"):
                return opsdk.to_tensor(np.log(x.numpy()))

        @staticmethod
        def backward(ctx, dy):
            return dy

    pack("beyondpack", lambda register: register(
        Log, name="log", inputs=[TensorSpec(shape=(2, 3), domain=(0.1, 3.0))]))
    (op,), _ = select_ops(["beyondpack.log"])
    beyond = [s for s in draw(op, "float64").samples if s.kind == "beyond"]
    # log(-887) is NaN in float64: that side is the domain's true restriction, not probed
    assert [s.label for s in beyond] == [
        "sample 0, x = 887.2 everywhere (beyond its domain [0.1, 3])"]
    assert np.allclose(beyond[0].args[0].values, 887.2, rtol=1e-4)


def test_no_beyond_sample_where_the_op_guards_its_domain_with_a_constant(pack):
    # x log x as 0 below 0: flat there, its gradient (log x + 1) is the domain's restriction
    from opsdk.verification.check import select_ops
    from opsdk.verification.check.drawing import draw

    from ..adversarial_outsider.pack import module as outsider

    pack("beyondpack", lambda register: register(
        outsider("good").XLogX, name="xlogx", inputs=[TensorSpec(shape=(2, 3), domain=(0.0, 3.0))]))
    (op,), _ = select_ops(["beyondpack.xlogx"])
    assert [s.label for s in draw(op, "float32").samples if s.kind == "beyond"] == [
        "sample 0, x = 110.9 everywhere (beyond its domain [0, 3])"]
