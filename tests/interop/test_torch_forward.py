"""Forward mode of exported ops in PyTorch: torch.func.jvp, jacfwd, hessian and vmap of them,
through an op's double backward (example.swish) and through an op's own jvp (a kernel op)."""
import pytest

import opsdk

torch = pytest.importorskip("torch", reason="the torch interop needs PyTorch")
pytestmark = pytest.mark.torch


def _swish():
    return opsdk.interop.torch.op("example.swish")


def _ref(t):
    return t * torch.sigmoid(1.5 * t)


@pytest.mark.slow  # the first torch.func transform of the op defines its custom ops (seconds)
def test_jvp_and_jacfwd_equal_the_native_maths():
    swish, x, v = _swish(), torch.randn(5, dtype=torch.float64), torch.randn(5, dtype=torch.float64)
    out, jv = torch.func.jvp(lambda t: swish(t, beta=1.5), (x,), (v,))
    torch.testing.assert_close(jv, torch.func.jvp(_ref, (x,), (v,))[1], rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(torch.func.jacfwd(lambda t: swish(t, beta=1.5))(x),
                               torch.func.jacfwd(_ref)(x), rtol=1e-12, atol=1e-14)


def test_hessian_of_a_loss_equals_the_native_one_to_float64_precision():
    swish, w = _swish(), torch.randn(3, 4, dtype=torch.float64)

    def loss(f):
        return lambda t: (f(t @ w) ** 2).sum()

    x = torch.randn(3, dtype=torch.float64)
    torch.testing.assert_close(torch.func.hessian(loss(lambda a: swish(a, beta=1.5)))(x),
                               torch.func.hessian(loss(_ref))(x), rtol=1e-12, atol=1e-13)


def test_vmap_of_hessian_and_of_jvp():
    swish, xs = _swish(), torch.randn(2, 3, dtype=torch.float64)
    hess = torch.vmap(torch.func.hessian(lambda t: swish(t, beta=1.5).sum()))
    torch.testing.assert_close(hess(xs), torch.vmap(torch.func.hessian(lambda t: _ref(t).sum()))(xs))
    jv = torch.vmap(lambda a, b: torch.func.jvp(lambda t: swish(t, beta=1.5), (a,), (b,))[1])
    torch.testing.assert_close(jv(xs, xs), torch.vmap(
        lambda a, b: torch.func.jvp(_ref, (a,), (b,))[1])(xs, xs))


def test_a_kernel_ops_own_jvp_gives_jvp_and_jacfwd():
    cube = opsdk.interop.torch.op("interoptest.kernel_cube")
    x, v = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
    _, jv = torch.func.jvp(lambda t: cube(t, scale=2.0), (x,), (v,))
    torch.testing.assert_close(jv, 6.0 * x ** 2 * v)
    torch.testing.assert_close(torch.func.jacfwd(lambda t: cube(t, scale=2.0))(x),
                               torch.diag(6.0 * x ** 2))


def test_forward_over_forward_is_refused_naming_the_op_never_zero():
    from opsdk.errors import InteropError

    swish, x = _swish(), torch.randn(3, dtype=torch.float64)
    with pytest.raises(InteropError, match="forward mode over forward mode through "
                                           "'example.swish'"):
        torch.func.jacfwd(torch.func.jacfwd(lambda t: swish(t, beta=1.5)))(x)
