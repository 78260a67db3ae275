"""The forward-mode protocol of a PyLayer: its own jvp(ctx, *tangents) with ctx.save_for_forward,
used by forward mode (also behind a first-order backward), composed with reverse mode, and the
clear error for an op with neither a jvp nor a differentiable backward."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import once_differentiable
from opsdk.errors import DoubleBackwardError, ForwardModeError, PyLayerError


class KernelCube(opsdk.autograd.PyLayer):
    """s * x**3 in raw arrays: a first-order backward and a first-order jvp (kernels)."""

    @staticmethod
    def forward(ctx, x, s=1.0):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.s = s
        return opsdk.to_tensor(s * x.numpy() ** 3)

    @staticmethod
    @once_differentiable
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.to_tensor(3 * ctx.s * x.numpy() ** 2 * dy.numpy())

    @staticmethod
    def jvp(ctx, x_t, s_t=None):
        assert s_t is None  # a non-Tensor argument gets None, as in torch
        (x,) = ctx.saved_for_forward()
        return opsdk.to_tensor(3 * ctx.s * x.numpy() ** 2 * x_t.numpy())


class OpsCube(opsdk.autograd.PyLayer):
    """s * x**3 with opsdk ops in backward and jvp: differentiable to any order."""

    @staticmethod
    def forward(ctx, x, s=1.0):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.s = s
        return x * x * x * s

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 3 * ctx.s * x * x * dy

    @staticmethod
    def jvp(ctx, x_t, s_t=None):
        (x,) = ctx.saved_for_forward()
        ctx.jvp_calls = getattr(ctx, "jvp_calls", 0) + 1
        return 3 * ctx.s * x * x * x_t


class NoJvp(opsdk.autograd.PyLayer):
    forward = staticmethod(KernelCube.forward)
    backward = staticmethod(KernelCube.backward)


X = np.array([1.0, 2.0])
V = np.array([1.0, -1.0])


def _t(a, grad=False):
    return opsdk.to_tensor(np.asarray(a, dtype="float64"), stop_gradient=not grad)


@pytest.mark.parametrize("cls", [KernelCube, OpsCube])
def test_own_jvp_gives_forward_mode_through_a_composition(cls):
    _, jv = opsdk.autograd.jvp(lambda a: opsdk.sin(cls.apply(a, 2.0)), _t(X), _t(V))
    np.testing.assert_allclose(jv.numpy(), np.cos(2 * X ** 3) * 6 * X ** 2 * V)


def test_the_engine_calls_the_ops_own_jvp():
    seen = []

    class Spy(OpsCube):
        @staticmethod
        def jvp(ctx, x_t, s_t=None):
            seen.append(x_t.numpy().copy())
            return OpsCube.jvp(ctx, x_t, s_t)

    opsdk.autograd.jvp(lambda a: Spy.apply(a), _t(X), _t(V))
    np.testing.assert_allclose(seen[0], V)


def test_jvp_of_jvp_through_an_op_written_with_ops():
    v = _t(V)
    first = lambda a: opsdk.autograd.jvp(lambda b: OpsCube.apply(b), a, v)[1]  # noqa: E731
    _, second = opsdk.autograd.jvp(first, _t(X), v)
    np.testing.assert_allclose(second.numpy(), 6 * X * V ** 2)


def test_reverse_over_forward_differentiates_the_ops_jvp():
    x = _t(X, grad=True)
    _, jv = opsdk.autograd.jvp(lambda a: OpsCube.apply(a), x, _t(V))
    (g,) = opsdk.grad(jv.sum(), x)
    np.testing.assert_allclose(g.numpy(), 6 * X * V)


def test_hessian_through_a_kernel_op_refuses_naming_it():
    x = _t(X, grad=True)
    with pytest.raises(DoubleBackwardError, match="KernelCube"):
        opsdk.autograd.hessian(KernelCube.apply(x).sum(), x)[:]


def test_an_op_without_jvp_or_differentiable_backward_gets_the_clear_error():
    with pytest.raises(ForwardModeError, match="forward mode \\(jvp\\) through 'NoJvp': the op "
                                               "has no jvp and its backward is first-order"):
        opsdk.autograd.jvp(lambda a: NoJvp.apply(a), _t(X))


def test_a_jvp_returning_the_wrong_shape_is_named():
    class BadShape(OpsCube):
        @staticmethod
        def jvp(ctx, x_t, s_t=None):
            return x_t.sum()

    with pytest.raises(PyLayerError, match=r"BadShape.jvp returned the tangent of output 0 with "
                                           r"the wrong shape; expected: \[2\]; got: \[\]"):
        opsdk.autograd.jvp(lambda a: BadShape.apply(a), _t(X))


def test_first_order_backward_still_works_and_never_calls_jvp():
    x = _t(X, grad=True)
    KernelCube.apply(x, 2.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * X ** 2)


class ProductExp(opsdk.autograd.PyLayer):
    """x * w * exp(x): both gradients share exp(x), so a linear node that sent None down one of
    them would leave exp's node waiting and drop its term (a bug this guards against)."""

    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w * opsdk.exp(x)

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        e = opsdk.exp(x)
        return dy * w * (1 + x) * e, dy * x * e

    @staticmethod
    def jvp(ctx, x_t, w_t):
        x, w = ctx.saved_tensor()
        e = opsdk.exp(x)
        return x_t * w * (1 + x) * e + w_t * x * e


def test_second_derivative_is_right_when_the_incoming_gradient_needs_one():
    x, w = _t([0.5, 1.0], grad=True), _t([2.0, -1.0], grad=True)
    dy = _t([1.0, 1.0], grad=True)  # as gradgradcheck has it: the gradient is differentiated too
    gx, _ = opsdk.grad(ProductExp.apply(x, w), [x, w], dy, create_graph=True)
    (h,) = opsdk.grad(gx.sum(), [x])
    xa, wa = x.numpy(), w.numpy()
    np.testing.assert_allclose(h.numpy(), wa * (2 + xa) * np.exp(xa))
