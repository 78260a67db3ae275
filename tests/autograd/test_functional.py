"""opsdk.autograd.jvp / vjp / jacobian / hessian and opsdk.incubate.autograd: stated values,
central differences, and forward mode through core and pack ops (tests/paddle_compat holds the
comparisons with Paddle itself)."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import TangentError


def _t(values, grad=False):
    return opsdk.to_tensor(np.asarray(values, dtype="float64"), stop_gradient=not grad)


def _central(f, x, v, eps=1e-6):
    """(f(x + eps v) - f(x - eps v)) / 2 eps on arrays."""
    return (f(x + eps * v) - f(x - eps * v)) / (2 * eps)


def test_jvp_of_a_cube_is_three_x_squared_times_v():
    ys, jv = opsdk.autograd.jvp(lambda x: x * x * x, _t([1.0, 2.0]), _t([1.0, -0.5]))
    np.testing.assert_allclose(ys.numpy(), [1.0, 8.0])
    np.testing.assert_allclose(jv.numpy(), [3.0, -6.0])
    assert not jv.stop_gradient  # in the graph, as Paddle's: it can be differentiated again


def test_jvp_without_v_uses_ones():
    _, jv = opsdk.autograd.jvp(lambda x: x * x, _t([1.5, -2.0]))
    np.testing.assert_allclose(jv.numpy(), [3.0, -4.0])


def test_vjp_of_two_inputs_returns_a_tuple():
    ys, (ga, gb) = opsdk.autograd.vjp(lambda a, b: a * b, [_t([2.0]), _t([3.0])], _t([10.0]))
    np.testing.assert_allclose([ga.numpy(), gb.numpy()], [[30.0], [20.0]])


@pytest.mark.parametrize("name", ["tanh", "sin", "exp", "sigmoid", "sqrt", "log"])
def test_jvp_through_core_ops_matches_central_differences(name):
    x = np.array([0.3, 0.8, 1.7])
    v = np.array([1.0, -2.0, 0.5])
    op, ref = getattr(opsdk, name), getattr(np, name, None) or (lambda a: 1 / (1 + np.exp(-a)))
    _, jv = opsdk.autograd.jvp(lambda t: op(t) * t.sum(), _t(x), _t(v))
    np.testing.assert_allclose(jv.numpy(), _central(lambda a: ref(a) * a.sum(), x, v),
                               rtol=1e-7, atol=1e-8)


def test_jvp_of_matmul_and_reductions_matches_central_differences():
    rng = np.random.default_rng(1)
    a, w, va = rng.standard_normal((3, 4)), rng.standard_normal((4, 2)), rng.standard_normal((3, 4))
    f = lambda x: opsdk.tanh(opsdk.matmul(x, _t(w))).mean(axis=0)  # noqa: E731
    _, jv = opsdk.autograd.jvp(f, _t(a), _t(va))
    np.testing.assert_allclose(jv.numpy(), _central(lambda x: np.tanh(x @ w).mean(0), a, va),
                               rtol=1e-7)


@pytest.mark.slow  # loads the example pack (its kernels)
def test_jvp_through_the_example_pack_swish_matches_central_differences():
    x, v = np.array([-1.0, 0.2, 2.0]), np.array([0.5, 1.0, -1.0])
    swish = opsdk.ops.example.swish
    _, jv = opsdk.autograd.jvp(lambda t: swish(t, beta=1.5), _t(x), _t(v))
    ref = lambda a: a / (1 + np.exp(-1.5 * a))  # noqa: E731
    np.testing.assert_allclose(jv.numpy(), _central(ref, x, v), rtol=1e-7)


def test_jvp_of_jvp_is_the_second_directional_derivative():
    v = _t([1.0, 2.0])

    def first(x):
        return opsdk.autograd.jvp(lambda s: s * s * s, x, v)[1]

    _, second = opsdk.autograd.jvp(first, _t([0.5, -1.0]), v)
    np.testing.assert_allclose(second.numpy(), [6 * 0.5 * 1.0, 6 * -1.0 * 4.0])


def test_jacobian_rows_are_evaluated_lazily_and_cached():
    x = _t([1.0, 2.0, 3.0], grad=True)
    J = opsdk.autograd.jacobian(x * x, x)
    assert J.shape == [3, 3] and J._lazy._cache == {}
    np.testing.assert_allclose(J[1].numpy(), [0.0, 4.0, 0.0])
    assert list(J._lazy._cache) == [1]
    np.testing.assert_allclose(J[:].numpy(), np.diag([2.0, 4.0, 6.0]))
    np.testing.assert_allclose((J * 2).numpy(), np.diag([4.0, 8.0, 12.0]))


def test_batched_jacobian_has_the_batch_axis_first():
    x = _t(np.arange(6.0).reshape(3, 2), grad=True)
    J = opsdk.autograd.jacobian(x * x, x, batch_axis=0)
    assert J.shape == [3, 2, 2]
    np.testing.assert_allclose(J[:].numpy()[2], np.diag([8.0, 10.0]))
    with pytest.raises(ValueError, match="batch_axis should be None or 0"):
        opsdk.autograd.jacobian(x * x, x, batch_axis=1)


def test_hessian_of_a_cubic_and_of_two_inputs():
    x = _t([1.0, 2.0], grad=True)
    y = _t([3.0], grad=True)
    H = opsdk.autograd.hessian((x * x * x).sum(), x)
    assert type(H).__name__ == "Hessian"
    np.testing.assert_allclose(H[:].numpy(), np.diag([6.0, 12.0]))
    H2 = opsdk.autograd.hessian((x * y).sum(), (x, y))
    np.testing.assert_allclose(H2[0][1][:].numpy(), [[1.0], [1.0]])
    np.testing.assert_allclose(H2[0][0][:].numpy(), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="numel"):
        opsdk.autograd.hessian(x * x, x)


def test_incubate_namespace_is_paddles():
    import opsdk as paddle

    x = _t([0.5, 1.0])
    J = paddle.incubate.autograd.Jacobian(lambda t: t * t, x)
    H = paddle.incubate.autograd.Hessian(lambda t: (t * t * t).sum(), x)
    assert J.shape == (2, 2) and H.shape == (2, 2)
    np.testing.assert_allclose(H[:].numpy(), np.diag([3.0, 6.0]))
    from opsdk.incubate.autograd import jvp, vjp  # the module path works too
    assert jvp is opsdk.autograd.jvp and vjp is opsdk.autograd.vjp


def test_v_of_the_wrong_shape_is_refused_naming_it():
    with pytest.raises(TangentError, match=r"v\[0\] must have the shape of input 0; "
                                           r"expected: \[2\]; got: \[3\]"):
        opsdk.autograd.jvp(lambda t: t * 2, _t([1.0, 2.0]), _t([1.0, 2.0, 3.0]))
