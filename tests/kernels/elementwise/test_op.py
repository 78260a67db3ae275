"""Elementwise: an op from value / grad / grad2 maths, broadcasting, dispatch, every order."""

import numpy
import pytest

import opsdk
from opsdk.autograd import gradcheck, gradgradcheck
from opsdk.errors import DTypeError, OpArgumentError
from opsdk.kernels import CSource, use_backend
from opsdk.kernels.elementwise import Elementwise


def value(m, x, y, *, alpha):
    return x * m.exp(-alpha * y * y)


def grad(m, x, y, *, alpha):
    e = m.exp(-alpha * y * y)
    return e, -2 * alpha * x * y * e


def grad2(m, x, y, *, alpha):
    e = m.exp(-alpha * y * y)
    cross = -2 * alpha * y * e
    return (e, -2 * alpha * x * y * e), ((0.0, cross), (cross, 2 * alpha * x * e * (2 * alpha * y * y - 1)))


OP = Elementwise("tests.gauss", value, grad, grad2, inputs=("x", "y"))


class Gauss(opsdk.Function):
    _opsdk_qualname = "tests.gauss"

    @staticmethod
    def forward(ctx, x, y, alpha=0.5):
        return OP.forward(ctx, x, y, alpha=alpha)

    @staticmethod
    def backward(ctx, dy):
        return OP.backward(ctx, dy)


def tensors(*shapes, dtype="float64"):
    rng = numpy.random.default_rng(0)
    return [opsdk.to_tensor(rng.uniform(-2, 2, shape), dtype=dtype, stop_gradient=False) for shape in shapes]


def exact(x, y, alpha):
    return x * numpy.exp(-alpha * y * y)


def test_three_kernels_named_after_the_op():
    assert [k.name for k in OP.kernels] == ["tests.gauss_value", "tests.gauss_grad", "tests.gauss_grad2"]


@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (5,)), ((2, 3, 4), (3, 1))])
def test_inputs_broadcast_and_gradients_come_back_in_their_shapes(shapes):
    x, y = tensors(*shapes)
    out = Gauss.apply(x, y, 0.7)
    numpy.testing.assert_allclose(out.numpy(), exact(x.numpy(), y.numpy(), 0.7), rtol=1e-14)
    assert gradcheck(lambda a, b: Gauss.apply(a, b, 0.7), (x, y))
    assert gradgradcheck(lambda a, b: Gauss.apply(a, b, 0.7), (x, y))


def test_third_order_comes_from_grad2_on_tensors():
    x, y = tensors((4,), (4,))
    out = Gauss.apply(x, y, 0.7)
    (gy,) = opsdk.grad(out.sum(), [y], create_graph=True)
    (gyy,) = opsdk.grad(gy.sum(), [y], create_graph=True)
    (gyyy,) = opsdk.grad(gyy.sum(), [y])
    a, xs, ys = 0.7, x.numpy(), y.numpy()
    e = numpy.exp(-a * ys * ys)
    want = 2 * a * xs * e * (4 * a * ys - 2 * a * ys * (2 * a * ys * ys - 1))
    numpy.testing.assert_allclose(gyyy.numpy(), want, rtol=1e-12)


def test_second_order_without_create_graph_runs_the_grad2_kernel():
    calls = []
    original = OP.grad2_kernel._impls["python"]
    OP.grad2_kernel.python(lambda *a, **k: calls.append(1) or original(*a, **k))
    try:
        x, y = tensors((3,), (3,))
        (gx, gy) = opsdk.grad(Gauss.apply(x, y).sum(), [x, y], create_graph=True)
        opsdk.grad((gx * gy).sum(), [x, y])
    finally:
        OP.grad2_kernel.python(original)
    assert calls == [1]


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_dtypes_are_kept(dtype):
    x, y = tensors((3,), (3,), dtype=dtype)
    out = Gauss.apply(x, y)
    out.sum().backward()
    assert out.numpy().dtype == numpy.dtype(dtype) and x.grad.numpy().dtype == numpy.dtype(dtype)


def test_inputs_of_two_dtypes_are_refused_by_name():
    x, = tensors((3,))
    y, = tensors((3,), dtype="float32")
    with pytest.raises(DTypeError, match="tests.gauss: argument 'y'.*float64"):
        Gauss.apply(x, y)


def test_integer_inputs_are_refused():
    x, = tensors((3,))
    with pytest.raises(DTypeError, match="argument 'y' must be a float tensor"):
        Gauss.apply(x, opsdk.to_tensor([1, 2, 3]))


def test_a_non_number_attribute_is_refused():
    x, y = tensors((3,), (3,))
    with pytest.raises(OpArgumentError, match="attribute 'alpha' must be a number"):
        Gauss.apply(x, y, "wide")


def test_the_c_kernels_follow_the_same_convention(cache):
    code = """
    #include <math.h>
    #include <stdint.h>
    void square_value_f64(const double *x, double *out, int64_t n) { for (int64_t i = 0; i < n; i++) out[i] = x[i] * x[i]; }
    void square_grad_f64(const double *x, const double *grad_out, double *grad_x, int64_t n)
    { for (int64_t i = 0; i < n; i++) grad_x[i] = 2 * x[i] * grad_out[i]; }
    void square_grad2_f64(const double *x, const double *grad_out, const double *gg_x, double *grad_x,
                          double *grad_grad_out, int64_t n)
    { for (int64_t i = 0; i < n; i++) { grad_x[i] = 2 * grad_out[i] * gg_x[i]; grad_grad_out[i] = 2 * x[i] * gg_x[i]; } }
    """
    op = Elementwise("tests.square", lambda m, x: x * x, lambda m, x: (2 * x,), lambda m, x: ((2 * x,), ((2.0,),)),
                     dtypes=("float64",)).c(CSource(code=code))
    x = numpy.linspace(-1, 1, 7)
    dy, gg = numpy.cos(x), numpy.sin(x)
    for kernel, args in zip(op.kernels, ((x,), (x, dy), (x, dy, gg))):
        got, want = kernel.run("c", *args), kernel.run("python", *args)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            numpy.testing.assert_allclose(g, w, rtol=1e-15)


def test_constant_derivatives_still_give_arrays():
    op = Elementwise("tests.affine", lambda m, x: 3 * x + 1, lambda m, x: (3,), lambda m, x: ((3,), ((0,),)))
    x = numpy.ones((2, 2), numpy.float32)
    assert op.grad_kernel.run("python", x, x).dtype == numpy.float32
    gx, gdy = op.grad2_kernel.run("python", x, x, x)
    assert gx.shape == (2, 2) and not gx.any() and (gdy == 3).all()


def test_forcing_python_runs_the_maths():
    x, y = tensors((3,), (3,))
    with use_backend("python"):
        numpy.testing.assert_allclose(Gauss.apply(x, y).numpy(), exact(x.numpy(), y.numpy(), 0.5))


def test_an_identity_formula_still_returns_a_new_array():
    op = Elementwise("tests.identity", lambda m, x: x, lambda m, x: (1,), lambda m, x: ((1,), ((0,),)))
    x = numpy.ones(3)
    assert op.value_kernel.run("python", x) is not x


def test_the_reference_is_value_on_tensors_and_broadcasts():
    x, y = tensors((3, 4), (4,))
    got = OP.reference(x, y, alpha=0.7)
    numpy.testing.assert_allclose(got.numpy(), exact(x.numpy(), y.numpy(), 0.7), rtol=1e-14)
    (gy,) = opsdk.grad(got.sum(), [y])  # through m's Tensor functions, not the grad maths
    e = numpy.exp(-0.7 * y.numpy() ** 2)
    numpy.testing.assert_allclose(gy.numpy(), (-1.4 * x.numpy() * y.numpy() * e).sum(0), rtol=1e-12)
