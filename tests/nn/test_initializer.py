"""nn.initializer: values, fans computed as Paddle, seeding."""
import math

import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import initializer as I


def _param(shape, init, dtype="float32"):
    return paddle.create_parameter(shape, dtype, default_initializer=init)


def test_constant_fills_every_element():
    np.testing.assert_array_equal(_param([2, 2], I.Constant(3.5)).numpy(), np.full((2, 2), 3.5))


def test_normal_has_the_requested_mean_and_std():
    paddle.seed(1)
    v = _param([200, 200], I.Normal(mean=1.0, std=0.5), "float64").numpy()
    assert abs(v.mean() - 1.0) < 0.01 and abs(v.std() - 0.5) < 0.01


def test_uniform_stays_within_bounds():
    v = _param([1000], I.Uniform(low=-0.2, high=0.3)).numpy()
    assert v.min() >= -0.2 and v.max() <= 0.3 and v.max() - v.min() > 0.45


def test_truncated_normal_stays_within_two_std():
    v = _param([5000], I.TruncatedNormal(mean=0.0, std=1.0)).numpy()
    assert np.abs(v).max() <= 2.0


@pytest.mark.parametrize("shape,fans", [([], (1, 1)), ([7], (7, 7)), ([3, 5], (3, 5)),
                                        ([8, 4, 3, 3], (36, 72))])
def test_compute_fans_follows_paddle(shape, fans):
    assert I.compute_fans(shape) == fans


def test_xavier_uniform_limit_uses_fan_in_plus_fan_out():
    v = _param([30, 70], I.XavierUniform()).numpy()
    limit = math.sqrt(6.0 / 100)
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.9 * limit


def test_xavier_normal_std_uses_fan_in_plus_fan_out():
    paddle.seed(2)
    v = _param([300, 500], I.XavierNormal(), "float64").numpy()
    assert abs(v.std() - math.sqrt(2.0 / 800)) < 0.002


def test_xavier_accepts_explicit_fans_and_gain():
    v = _param([10, 10], I.XavierUniform(fan_in=1, fan_out=1, gain=2.0), "float64").numpy()
    assert np.abs(v).max() <= 2.0 * math.sqrt(3.0) and np.abs(v).max() > 2.0


def test_kaiming_normal_std_is_sqrt2_over_sqrt_fan_in_for_relu():
    paddle.seed(3)
    v = _param([400, 300], I.KaimingNormal(), "float64").numpy()
    assert abs(v.std() - math.sqrt(2.0 / 400)) < 0.002


def test_kaiming_uniform_limit_is_gain_sqrt3_over_sqrt_fan_in():
    v = _param([50, 2000], I.KaimingUniform(), "float64").numpy()
    limit = math.sqrt(2.0) * math.sqrt(3.0 / 50)
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.95 * limit


def test_kaiming_mode_fan_out_uses_the_parameters_fan_out_as_paddle():
    paddle.seed(5)
    v = _param([300, 500], I.KaimingNormal(mode="fan_out"), "float64").numpy()
    assert abs(v.std() - math.sqrt(2.0 / 500)) < 0.002
    u = _param([2000, 50], I.KaimingUniform(mode="fan_out"), "float64").numpy()
    limit = math.sqrt(2.0) * math.sqrt(3.0 / 50)
    assert np.abs(u).max() <= limit and np.abs(u).max() > 0.95 * limit


@pytest.mark.paddle
@pytest.mark.parametrize("kwargs", [{"mode": "fan_avg"}, {"mode": "fan_out", "fan_in": 10}])
def test_kaiming_refuses_a_bad_mode_as_paddle(kwargs):
    from helpers.frameworks import assert_raises_as_paddle
    for cls in ("KaimingNormal", "KaimingUniform"):
        err = assert_raises_as_paddle(lambda P: getattr(P.nn.initializer, cls)(**kwargs))
        assert cls in str(err)


def test_kaiming_on_a_conv_weight_uses_in_channels_times_kernel_size():
    paddle.seed(4)
    v = _param([64, 16, 3, 3], I.KaimingNormal(), "float64").numpy()
    assert abs(v.std() - math.sqrt(2.0 / (16 * 9))) < 0.005


def test_calculate_gain_values():
    assert I.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert I.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert I.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    with pytest.raises(OpArgumentError, match="nonlinearity"):
        I.calculate_gain("swishy")


@pytest.mark.parametrize("init", [I.Normal(), I.Uniform(), I.XavierUniform(), I.XavierNormal(),
                                  I.KaimingUniform(), I.KaimingNormal(), I.TruncatedNormal()])
def test_every_random_initializer_is_reproducible_under_opsdk_seed(init):
    paddle.seed(2026)
    a = _param([4, 5], init).numpy()
    paddle.seed(2026)
    b = _param([4, 5], init).numpy()
    np.testing.assert_array_equal(a, b)


def test_assign_copies_values():
    np.testing.assert_array_equal(_param([2], I.Assign([1.0, 2.0])).numpy(), [1.0, 2.0])


@pytest.mark.paddle
def test_assign_of_another_shape_gives_the_parameter_that_shape_as_paddle():
    # Paddle's own Assign docstring: Assign([2, 2]) on Linear(2, 2)'s weight, Assign([2]) on its
    # bias; the layer then runs with a [2] weight
    from helpers.frameworks import import_paddle

    def run(P):
        attr = lambda v: P.ParamAttr(initializer=P.nn.initializer.Assign(v))  # noqa: E731
        fc = P.nn.Linear(2, 2, weight_attr=attr(np.array([2, 2])), bias_attr=attr([3.0]))
        wide = P.nn.Linear(2, 3, weight_attr=attr(np.arange(6.0).reshape(3, 2)))
        out = fc(P.ones([1, 2]))
        return [(list(t.shape), str(t.dtype), t.numpy().tolist())
                for t in (fc.weight, fc.bias, out, wide.weight)]

    assert run(paddle) == run(import_paddle())


def test_initializing_bumps_the_version():
    w = _param([2], I.Constant(1.0))
    v = w._version
    I.Constant(2.0)(w)
    assert w._version == v + 1 and w.numpy().tolist() == [2.0, 2.0]
