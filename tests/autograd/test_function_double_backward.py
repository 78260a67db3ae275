"""Higher-order gradients through PyLayers: right when backward uses opsdk ops, an error naming
the op when backward left the graph, never a silent zero."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.autograd.function import once_differentiable
from opsdk.errors import DoubleBackwardError


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def second_derivative(op, x):
    (dx,) = opsdk.grad(op(x).sum(), x, create_graph=True)
    (d2x,) = opsdk.grad(dx.sum(), x)
    return dx.numpy(), d2x.numpy()


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 3 * x * x * dy


class RawCube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return opsdk.to_tensor(3 * x.numpy() ** 2 * dy.numpy())


class Exp(PyLayer):
    """Backward reads the saved output: its second derivative goes through the output."""

    @staticmethod
    def forward(ctx, x):
        y = opsdk.exp(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * y


class CubeGrad(PyLayer):
    """3 x^2 dy in NumPy, with its own backward: a differentiable backward for RawKernelCube."""

    @staticmethod
    def forward(ctx, x, dy):
        ctx.save_for_backward(x, dy)
        return opsdk.to_tensor(3 * x.numpy() ** 2 * dy.numpy())

    @staticmethod
    def backward(ctx, g):
        x, dy = ctx.saved_tensor()
        return 6 * x * dy * g, 3 * x * x * g


class RawKernelCube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.to_tensor(x.numpy() ** 3)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return CubeGrad.apply(x, dy)


def test_backward_written_with_opsdk_ops_is_differentiable_again():
    dx, d2x = second_derivative(Cube.apply, leaf([1.0, -2.0]))
    np.testing.assert_allclose(dx, [3.0, 12.0])
    np.testing.assert_allclose(d2x, [6.0, -12.0])


def test_second_derivative_through_a_saved_output_is_right():
    x = leaf([0.0, 1.0])
    _, d2x = second_derivative(Exp.apply, x)
    np.testing.assert_allclose(d2x, np.exp([0.0, 1.0]))


def test_third_derivative_through_a_pylayer():
    x = leaf([2.0])
    (d1,) = opsdk.grad(Cube.apply(x).sum(), x, create_graph=True)
    (d2,) = opsdk.grad(d1.sum(), x, create_graph=True)
    (d3,) = opsdk.grad(d2.sum(), x)
    np.testing.assert_allclose(d3.numpy(), [6.0])


def test_first_order_through_a_raw_backward_still_works():
    x = leaf([1.0, 2.0])
    RawCube.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


def test_second_order_through_a_raw_backward_raises_naming_the_op():
    x = leaf([1.0, 2.0])
    (dx,) = opsdk.grad(RawCube.apply(x).sum(), x, create_graph=True)
    with pytest.raises(DoubleBackwardError, match="'RawCube' is first-order only"):
        opsdk.grad(dx.sum(), x)


def test_second_order_error_shows_where_forward_was_called():
    x = leaf([1.0])
    (dx,) = opsdk.grad(RawCube.apply(x).sum(), x, create_graph=True)
    with pytest.raises(DoubleBackwardError, match=r"forward called at .*test_function_double"):
        dx.sum().backward()


def test_raw_backward_with_a_differentiable_backward_op_gives_second_order():
    dx, d2x = second_derivative(RawKernelCube.apply, leaf([1.0, -2.0]))
    np.testing.assert_allclose(dx, [3.0, 12.0])
    np.testing.assert_allclose(d2x, [6.0, -12.0])


def test_raw_backward_of_a_linear_op_still_cuts_the_path_through_the_incoming_grad():
    # the op's grad_output depends on x here, so d(dx)/dx needs d(backward)/d(grad_output)
    class RawDouble(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return opsdk.to_tensor(dy.numpy() * 2)

    x = leaf([1.0])
    (dx,) = opsdk.grad(RawDouble.apply(x).sum() * x.sum(), x, create_graph=True)
    with pytest.raises(DoubleBackwardError, match="RawDouble"):
        opsdk.grad(dx.sum(), x)


def test_backward_returning_zeros_is_right_to_any_order():
    class Step(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return opsdk.to_tensor((x.numpy() > 0).astype(x.numpy().dtype))

        @staticmethod
        def backward(ctx, dy):
            return opsdk.zeros_like(dy)

    x = leaf([1.0, -1.0])
    (dx,) = opsdk.grad((Step.apply(x) * x).sum(), x, create_graph=True)
    (d2x,) = opsdk.grad(dx.sum(), x)
    np.testing.assert_allclose(d2x.numpy(), [0.0, 0.0])


def test_once_differentiable_decorator_makes_second_order_an_error():
    class Marked(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @once_differentiable
        def backward(ctx, dy):
            (x,) = ctx.saved_tensor()
            return 3 * x * x * dy

    x = leaf([1.0])
    (dx,) = opsdk.grad(Marked.apply(x).sum(), x, create_graph=True)
    with pytest.raises(DoubleBackwardError, match="Marked"):
        opsdk.grad(dx.sum(), x)


def test_once_differentiable_class_attribute_makes_second_order_an_error():
    class Marked(Cube):
        once_differentiable = True

    x = leaf([1.0])
    (dx,) = opsdk.grad(Marked.apply(x).sum(), x, create_graph=True)
    with pytest.raises(DoubleBackwardError, match="Marked"):
        opsdk.grad(dx.sum(), x)


def test_once_differentiable_backward_runs_without_recording():
    seen = {}

    class Marked(Cube):
        once_differentiable = True

        @staticmethod
        def backward(ctx, dy):
            seen["enabled"] = opsdk.is_grad_enabled()
            return Cube.backward(ctx, dy)

    x = leaf([1.0])
    opsdk.grad(Marked.apply(x).sum(), x, create_graph=True)
    assert seen["enabled"] is False


def test_second_order_w_r_t_the_incoming_grad_is_right():
    x = leaf([1.0, 2.0])
    v = leaf([1.0, 1.0])
    (dx,) = opsdk.grad(Cube.apply(x), x, grad_outputs=v, create_graph=True)
    (dv,) = opsdk.grad(dx.sum(), v)
    np.testing.assert_allclose(dv.numpy(), [3.0, 12.0])
