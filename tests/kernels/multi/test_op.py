"""Multi: the python maths, the written C kernels and the Function's forward and backward of
LLTM's cell and a pair with an attribute, against each other and numbers computed here; the
declaration's mistakes refused by name."""
import re

import numpy
import pytest

import opsdk
from opsdk.autograd import gradcheck, gradgradcheck
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from opsdk.kernels import use_backend
from opsdk.kernels.multi import Multi

from .ops import CELL, PAIR, Cell, Pair, cell_backward, cell_forward, pair_forward


def sigmoid(z):
    return 1 / (1 + numpy.exp(-z))


def inputs(dtype, count=4, shape=(3, 70), seed=1):
    rng = numpy.random.default_rng(seed)
    return [rng.uniform(-2, 2, shape).astype(dtype) for _ in range(count)]


def run(function, backend, *arrays, **attrs):
    """The outputs and the inputs' gradients on ``backend``, for fixed weights of the outputs."""
    with use_backend(backend):
        ts = [opsdk.to_tensor(a, stop_gradient=False) for a in arrays]
        outs = function.apply(*ts, **attrs)
        (outs[0].sum() + 2 * (outs[1] * outs[1]).sum()).backward()
        return [o.numpy() for o in outs] + [t.grad.numpy() for t in ts]


@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-5)])
@pytest.mark.parametrize("function, count, attrs", [(Cell, 4, {}), (Pair, 2, {"alpha": 0.75})])
@pytest.mark.parametrize("shape", [(3, 70), (600, 130)])  # the second above OPSDK_OMP_MIN: threaded
def test_the_written_c_kernels_agree_with_the_python_maths(function, count, attrs, dtype, tol, shape):
    arrays = inputs(dtype, count, shape)
    for got, want in zip(run(function, "c", *arrays, **attrs), run(function, "python", *arrays, **attrs)):
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_the_cell_is_the_formula():
    gate_i, gate_o, gate_c, old_cell = arrays = inputs("float64")
    new_h, new_cell, *grads = run(Cell, "c", *arrays)
    want_cell = old_cell + sigmoid(gate_i) * numpy.tanh(gate_c)
    numpy.testing.assert_allclose(new_cell, want_cell, rtol=1e-12)
    numpy.testing.assert_allclose(new_h, numpy.tanh(want_cell) * sigmoid(gate_o), rtol=1e-12)
    # d/d old_cell of sum(new_h) + 2 sum(new_cell^2): through new_h and directly
    t = numpy.tanh(want_cell)
    numpy.testing.assert_allclose(grads[3], sigmoid(gate_o) * (1 - t * t) + 4 * want_cell, rtol=1e-12)


@pytest.mark.parametrize("backend", ["python", "c"])
def test_second_order_comes_from_the_forward_on_tensors(backend):
    cell = [opsdk.to_tensor(a, stop_gradient=False) for a in inputs("float64", shape=(2, 3))]
    pair = [opsdk.to_tensor(a, stop_gradient=False) for a in inputs("float64", 2, shape=(2, 3))]
    with use_backend(backend):
        assert gradcheck(Cell.apply, cell) and gradgradcheck(Cell.apply, cell)
        assert gradcheck(lambda a, b: Pair.apply(a, b, 1.5), pair)
        assert gradgradcheck(lambda a, b: Pair.apply(a, b, 1.5), pair)


@pytest.mark.parametrize("backend", ["python", "c"])
def test_inputs_broadcast_and_their_gradients_sum_to_their_shapes(backend):
    a, b = inputs("float64", 2, shape=(4, 5))
    b = b[:1]
    plus, prod, da, db = run(Pair, backend, a, b, alpha=2.0)
    numpy.testing.assert_allclose(plus, a + 2 * b, rtol=1e-12)
    assert da.shape == (4, 5) and db.shape == (1, 5)
    numpy.testing.assert_allclose(db, (2 + 4 * prod * a).sum(axis=0, keepdims=True), rtol=1e-12)


def test_an_unused_output_gets_a_zero_gradient():
    arrays = inputs("float64", shape=(2, 3))
    for backend in ("python", "c"):
        ts = [opsdk.to_tensor(a, stop_gradient=False) for a in arrays]
        with use_backend(backend):
            new_h, _ = Cell.apply(*ts)
            new_h.sum().backward()
        i, o, c = sigmoid(arrays[0]), sigmoid(arrays[1]), numpy.tanh(arrays[2])
        t = numpy.tanh(arrays[3] + i * c)
        numpy.testing.assert_allclose(ts[3].grad.numpy(), o * (1 - t * t), rtol=1e-12)


def test_the_reference_is_forward_on_tensors():
    a, b = (opsdk.to_tensor(x) for x in inputs("float64", 2, shape=(2, 3)))
    plus, prod = PAIR.reference(a, b, alpha=3.0)
    numpy.testing.assert_allclose(plus.numpy(), a.numpy() + 3 * b.numpy(), rtol=1e-12)
    numpy.testing.assert_allclose(prod.numpy(), a.numpy() * b.numpy(), rtol=1e-12)


def test_float16_runs_the_python_maths():
    new_h, new_cell = Cell.apply(*(opsdk.to_tensor(a) for a in inputs("float16", shape=(2, 8))))
    assert new_h.dtype == opsdk.float16 and list(new_cell.shape) == [2, 8]


@pytest.mark.parametrize("args, error, says", [
    ((numpy.ones((2, 4)), numpy.ones(3)), ShapeError,
     "the inputs must broadcast against each other; expected: shapes that broadcast (equal, or 1, in each "
     "trailing axis); got: a [2, 4], b [3]"),
    ((numpy.ones((2, 4)), numpy.ones(4, numpy.float32)), DTypeError, "argument 'b' must have the dtype of 'a'"),
    ((numpy.ones((2, 4), numpy.int64), numpy.ones(4)), DTypeError, "argument 'a' must be a float tensor"),
])
def test_bad_inputs_are_refused_by_name(args, error, says):
    with pytest.raises(error, match=re.escape(f"tests.pair: {says}")):
        Pair.apply(*(opsdk.to_tensor(a) for a in args))


def test_missing_unknown_and_non_number_attributes_are_refused():
    a, b = (opsdk.to_tensor(x) for x in inputs("float64", 2, shape=(2, 4)))
    ctx = type("Ctx", (), {})()
    with pytest.raises(OpArgumentError, match=re.escape("tests.pair: attributes; expected: alpha; got: alpha, beta")):
        PAIR.forward(ctx, a, b, alpha=1.0, beta=2.0)
    with pytest.raises(OpArgumentError, match=re.escape("expected: alpha; got: none")):
        PAIR.forward(ctx, a, b)
    with pytest.raises(OpArgumentError, match="attribute 'alpha' must be a number"):
        Pair.apply(a, b, "large")


def test_maths_returning_too_few_values_are_refused_by_name():
    op = Multi("tests.short", lambda m, x, w: x, lambda m, x, w, dy, dz: dy, outputs=("y", "z"))
    with pytest.raises(OpArgumentError, match=re.escape("tests.short: forward returns one value per output; "
                                                        "expected: 2 (y, z); got: 1")):
        op.forward_kernel(numpy.ones(3), numpy.ones(3))
    with pytest.raises(OpArgumentError, match=re.escape("tests.short: backward returns one value per input; "
                                                        "expected: 2 (dx, dw); got: 1")):
        op.backward_kernel(*(numpy.ones(3) for _ in range(4)))


@pytest.mark.parametrize("forward, backward, outputs, says", [
    (pair_forward, lambda m, a, b, grad: (a, b), ("plus", "prod"),
     "backward(m, ...) reads arrays by name, then attributes of forward after *; expected: arrays among a, b, "
     "plus, prod, dplus, dprod; attributes among alpha; got: grad"),
    (pair_forward, lambda m, dplus, *, beta: (dplus, dplus), ("plus", "prod"), "attributes among alpha; got: *, beta"),
    (pair_forward, lambda m, dplus: (dplus, dplus), ("plus", "da"), "da twice"),
    (pair_forward, lambda m, *, alpha: (1, 1), ("plus", "prod"), "backward must take m, then its arrays"),
    (pair_forward, lambda m, dplus: dplus, (), "one output at least; expected: distinct names; got: no outputs"),
    (pair_forward, cell_backward, ("plus", "int"), "output name 'int' cannot be a C parameter of a scalar body: it "
                                                   "is a keyword of C"),
    (lambda m, x, *, n: x, lambda m, dy: dy, ("y",), "attribute name 'n' cannot be a C parameter"),
    (lambda m, lo: lo, lambda m, dy: dy, ("y",), "input name 'lo' cannot be a C parameter"),
    (lambda m, x: x, lambda m, dy: dy, ("opsdk_y",), "output name 'opsdk_y' cannot be a C parameter"),
    (lambda x: x, lambda m, dy: dy, ("y",), "forward must take m, then its arrays; expected: forward(m, x, ..., "
                                            "*, attrs); got: forward(x)"),
])
def test_a_wrong_declaration_is_refused_by_name(forward, backward, outputs, says):
    with pytest.raises(OpArgumentError, match=re.escape(says)):
        Multi("tests.bad_multi", forward, backward, outputs=outputs)


def test_the_written_functions_have_the_declared_parameters():
    c = PAIR.c_code()
    assert ("void pair_forward_f32(const float *a, const float *b, float *plus, float *prod, int64_t n, "
            "float alpha)") in c
    assert "void pair_backward_f64(const double *a, const double *b, const double *dplus, const double *dprod, " \
           "double *da, double *db, int64_t n, double alpha)" in c
    assert CELL.backward_kernel.sources["c"] is CELL.forward_kernel.sources["c"]  # one source, one build
    cuda = CELL.cuda_code()
    assert 'extern "C" __global__ void cell_backward_f32(const float *gate_i' in cuda
    assert cell_forward and "namespace opsdk { namespace multi_cell {" in cuda
