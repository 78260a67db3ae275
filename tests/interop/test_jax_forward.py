"""Forward mode of exported ops in JAX: jax.jvp, jacfwd and hessian (forward over reverse) under
jit and vmap, through an op's double backward (example.swish) and an op's own jvp (a kernel op),
equal to the native maths in float64."""
import numpy as np
import pytest

import opsdk

jax = pytest.importorskip("jax", reason="jax is not installed (pip install opsdk[jax])")
# JAX traces and compiles each transform and calls the host per element: seconds a test
pytestmark = [pytest.mark.jax, pytest.mark.slow]


@pytest.fixture(autouse=True)
def float64():
    from opsdk.verification.frameworks.jax_checks import float64_enabled

    with float64_enabled(jax):
        yield


def _swish(t):
    return opsdk.interop.jax.op("example.swish")(t, beta=1.5)


def _ref(t):
    return t * jax.nn.sigmoid(1.5 * t)


def test_jvp_and_jacfwd_under_jit_equal_the_native_maths():
    x, v = jax.numpy.linspace(-2.0, 2.0, 5), jax.numpy.arange(5.0)
    np.testing.assert_allclose(jax.jit(lambda a, b: jax.jvp(_swish, (a,), (b,))[1])(x, v),
                               jax.jvp(_ref, (x,), (v,))[1], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(jax.jit(jax.jacfwd(_swish))(x), jax.jacfwd(_ref)(x),
                               rtol=1e-13, atol=1e-15)


def test_hessian_of_a_loss_equals_the_native_one_to_float64_precision():
    w = jax.numpy.asarray(np.random.default_rng(0).standard_normal((3, 4)))

    def loss(f):
        return lambda t: (f(t @ w) ** 2).sum()

    x = jax.numpy.asarray([0.3, -0.8, 1.1])
    np.testing.assert_allclose(jax.jit(jax.hessian(loss(_swish)))(x), jax.hessian(loss(_ref))(x),
                               rtol=1e-12, atol=1e-13)


def test_vmap_of_hessian_and_grad_still_agree():
    xs = jax.numpy.asarray(np.random.default_rng(1).standard_normal((2, 3)))
    hess = jax.vmap(jax.hessian(lambda t: _swish(t).sum()))
    np.testing.assert_allclose(hess(xs), jax.vmap(jax.hessian(lambda t: _ref(t).sum()))(xs),
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(jax.grad(lambda t: _swish(t).sum())(xs[0]),
                               jax.grad(lambda t: _ref(t).sum())(xs[0]), rtol=1e-13)


def test_a_kernel_ops_own_jvp_gives_jvp_jacfwd_and_grad():
    cube = opsdk.interop.jax.op("interoptest.kernel_cube")
    x, v = jax.numpy.asarray([0.5, -1.0, 2.0, 1.5]), jax.numpy.asarray([1.0, 2.0, -1.0, 0.5])
    _, jv = jax.jvp(lambda t: cube(t, scale=2.0), (x,), (v,))
    np.testing.assert_allclose(jv, 6.0 * x ** 2 * v)
    np.testing.assert_allclose(jax.jit(jax.jacfwd(lambda t: cube(t, scale=2.0)))(x),
                               np.diag(6.0 * x ** 2))
    np.testing.assert_allclose(jax.grad(lambda t: cube(t, scale=2.0).sum())(x), 6.0 * x ** 2)


@pytest.mark.parametrize("order", ["jacfwd(jacfwd)", "jit(jacrev(jacfwd))",
                                   "jacfwd(jacrev(jacfwd))", "vmap(jacfwd(jacfwd))"])
def test_derivatives_of_forward_mode_equal_the_native_maths(order):
    # the tangent primitive's own jvp and transpose are the next derivatives of the level
    make = {"jacfwd(jacfwd)": lambda f: jax.jacfwd(jax.jacfwd(f)),
            "jit(jacrev(jacfwd))": lambda f: jax.jit(jax.jacrev(jax.jacfwd(f))),
            "jacfwd(jacrev(jacfwd))": lambda f: jax.jacfwd(jax.jacrev(jax.jacfwd(f))),
            "vmap(jacfwd(jacfwd))": lambda f: jax.vmap(jax.jacfwd(jax.jacfwd(f)))}[order]
    x = jax.numpy.asarray([0.3, -0.8, 1.1])
    if order.startswith("vmap"):
        x = jax.numpy.stack([x, -2.0 * x])
    np.testing.assert_allclose(make(_swish)(x), make(_ref)(x), rtol=1e-12, atol=1e-14)


def test_vmap_of_jvp_and_jacfwd_under_jit():
    xs = jax.numpy.asarray(np.random.default_rng(2).standard_normal((2, 3)))
    jv = jax.jit(jax.vmap(lambda a, b: jax.jvp(_swish, (a,), (b,))[1]))
    np.testing.assert_allclose(jv(xs, xs[::-1]), jax.vmap(
        lambda a, b: jax.jvp(_ref, (a,), (b,))[1])(xs, xs[::-1]), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(jax.jit(jax.vmap(jax.jacfwd(_swish)))(xs),
                               jax.vmap(jax.jacfwd(_ref))(xs), rtol=1e-13, atol=1e-15)


def test_forward_over_forward_of_a_first_order_jvp_is_refused_naming_the_op():
    # kernel_cube's jvp and backward are raw kernels: its second derivative is unknown (the
    # error crosses JAX's host callback, which wraps it)
    cube = opsdk.interop.jax.op("interoptest.kernel_cube")
    with pytest.raises(Exception, match="'KernelCube' has a first-order jvp"):
        jax.jacfwd(jax.jacfwd(lambda t: cube(t, scale=2.0)))(jax.numpy.ones(4))
