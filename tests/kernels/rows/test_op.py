"""Rows: the python maths, the written C kernels and the Function's forward and backward of
RMSNorm, LayerNorm, softmax and a per-row cross entropy (the test pack's), against each other and
numbers computed here; the declaration's mistakes refused by name."""
import re

import numpy
import pytest

import opsdk
from opsdk.autograd import gradcheck, gradgradcheck
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from opsdk.kernels import use_backend
from opsdk.kernels.rows import Rows

from .pack import module

RMS = module("rms_norm")
LAYER = module("layer_norm")
SOFTMAX = module("softmax")
CE = module("cross_entropy")


def run(op_module, backend, *arrays, attrs=None):
    """The op's output and gradients on ``backend``, for a fixed upstream gradient."""
    fn = {"rms_norm": RMS.RMSNorm, "layer_norm": LAYER.LayerNorm, "softmax": SOFTMAX.Softmax}[op_module]
    with use_backend(backend):
        ts = [opsdk.to_tensor(a, stop_gradient=False) for a in arrays]
        y = fn.apply(*ts, **(attrs or {}))
        dy = numpy.cos(numpy.arange(y.size)).reshape(y.shape).astype(arrays[0].dtype)
        (y * opsdk.to_tensor(dy)).sum().backward()
        return [y.numpy()] + [t.grad.numpy() for t in ts]


def inputs(dtype, shape=(3, 5, 70), features=1):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    return [x] + [rng.uniform(0.5, 1.5, shape[-1]).astype(dtype) for _ in range(features)]


@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-5)])
@pytest.mark.parametrize("name, features, attrs", [
    ("rms_norm", 1, {"eps": 1e-6}), ("layer_norm", 2, {"eps": 1e-5}), ("softmax", 0, {})])
def test_the_written_c_kernels_agree_with_the_python_maths(name, features, attrs, dtype, tol):
    arrays = inputs(dtype, features=features)
    for got, want in zip(run(name, "c", *arrays, attrs=attrs), run(name, "python", *arrays, attrs=attrs)):
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_the_python_kernels_outputs_are_arrays_of_their_own():
    x = numpy.ones((2, 3))  # softmax of a constant row: a broadcast of 1/3, made an array
    y = SOFTMAX.OP.forward_kernel.run("python", x)
    loss, rowmax, logsum = CE.OP.forward_kernel.run("python", x, numpy.array([0, 2]), ignore_index=-100)
    for a in (y, loss, rowmax, logsum):
        a *= 2.0  # writable: an in-place op on the output works
    numpy.testing.assert_allclose(y, 2 / 3)


def _bump(m, x, label):
    return x + (m.row_index(x) == label)


BUMP = Rows("tests.rows_bump", _bump, lambda m, x, label, dy: dy, per_row=("label",), integers=("label",)).c_bodies(
    forward="y = x\ny[label] += 1", backward="dx = dy", cuda=False)


def test_an_indexed_update_writes_one_element_in_the_row_and_none_outside():
    x = numpy.zeros((3, 4))
    label = numpy.array([2, -100, 4])  # the last two outside the row: nothing written
    want = [[0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    for backend in ("python", "c"):
        numpy.testing.assert_array_equal(BUMP.forward_kernel.run(backend, x, label), want)


def test_rms_norm_is_the_formula():
    x, w = inputs("float64")
    y, dx, dw = run("rms_norm", "c", x, w, attrs={"eps": 1e-6})
    numpy.testing.assert_allclose(y, x / numpy.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w, rtol=1e-12)
    assert dw.shape == (70,) and dx.shape == x.shape


def test_c_sums_lose_at_most_a_lane_of_one_block_for_float32():
    # 1e8 + 1 is 1e8 in float32: in one float accumulator the 100000 ones after 1e8 would vanish
    # from mean(x**2) (rstd 5e-4 off); in blocks of 1024 added in double only the ones sharing
    # 1e8's vector lane in the first block do (64 at the most)
    x = numpy.ones((2, 100_001), numpy.float32)
    x[:, 0] = 1e4
    w = numpy.ones(x.shape[1], numpy.float32)
    _, rstd = RMS.OP.forward_kernel.run("c", x, w, eps=0.0)
    exact = 1 / numpy.sqrt((1e8 + 1e5) / x.shape[1])
    numpy.testing.assert_allclose(rstd, exact, rtol=5e-7)


def test_feature_gradients_sum_over_many_rows_and_threads():
    x, w, b = inputs("float64", shape=(600, 130), features=2)  # above OPSDK_OMP_MIN: threaded
    for got, want in zip(run("layer_norm", "c", x, w, b, attrs={"eps": 1e-5}),
                         run("layer_norm", "python", x, w, b, attrs={"eps": 1e-5})):
        numpy.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_second_order_comes_from_the_forward_on_tensors():
    x, w = (opsdk.to_tensor(a, stop_gradient=False) for a in inputs("float64", shape=(2, 3, 4)))
    assert gradcheck(lambda a, b: RMS.RMSNorm.apply(a, b, 1e-6), (x, w))
    assert gradgradcheck(lambda a, b: RMS.RMSNorm.apply(a, b, 1e-6), (x, w))
    s = opsdk.to_tensor(inputs("float64", shape=(2, 5))[0], stop_gradient=False)
    assert gradgradcheck(SOFTMAX.Softmax.apply, (s,))


def test_float16_runs_the_python_maths_in_float32():
    x, w = inputs("float16", shape=(2, 8))
    y = RMS.RMSNorm.apply(opsdk.to_tensor(x), opsdk.to_tensor(w))
    assert y.dtype == opsdk.float16 and list(y.shape) == [2, 8]
    wide = RMS.RMSNorm.apply(opsdk.to_tensor(x.astype("float32")), opsdk.to_tensor(w.astype("float32")))
    numpy.testing.assert_array_equal(y.numpy(), wide.numpy().astype("float16"))


@pytest.mark.parametrize("backend", ["python", "c"])
def test_per_row_outputs_and_integer_inputs_through_the_function(backend):
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((2, 3, 7))
    label = numpy.array([[0, 6, -100], [3, -100, 2]])
    with use_backend(backend):
        xt = opsdk.to_tensor(x, stop_gradient=False)
        loss = CE.CrossEntropy.apply(xt, opsdk.to_tensor(label))
        assert list(loss.shape) == [2, 3]
        loss.sum().backward()
    logp = x - numpy.log(numpy.exp(x).sum(-1, keepdims=True))
    kept = label != -100
    picked = numpy.take_along_axis(logp, numpy.where(kept, label, 0)[..., None], -1)[..., 0]
    numpy.testing.assert_allclose(loss.numpy(), numpy.where(kept, -picked, 0.0), rtol=1e-12)
    want = numpy.where(kept[..., None], numpy.exp(logp) - (numpy.arange(7) == label[..., None]), 0.0)
    numpy.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-12, atol=1e-15)


def test_gradients_of_an_op_with_an_integer_input_to_second_order():
    x = opsdk.to_tensor(inputs("float64", shape=(3, 5))[0], stop_gradient=False)
    label = opsdk.to_tensor(numpy.array([4, 0, 2]))
    assert gradcheck(lambda a: CE.CrossEntropy.apply(a, label), (x,))
    assert gradgradcheck(lambda a: CE.CrossEntropy.apply(a, label), (x,))


def test_the_reference_is_forward_on_tensors():
    x = opsdk.to_tensor(inputs("float64", shape=(2, 6))[0])
    want = numpy.exp(x.numpy()) / numpy.exp(x.numpy()).sum(-1, keepdims=True)
    numpy.testing.assert_allclose(SOFTMAX.OP.reference(x).numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("args, error, says", [
    ((numpy.ones((2, 4)), numpy.ones(3)), ShapeError, "argument 'weight' must have one value per feature; "
                                                      "expected: shape [4]; got: shape [3]"),
    ((numpy.ones((2, 4)), numpy.ones(4, numpy.float32)), DTypeError, "argument 'weight' must have the dtype of 'x'"),
    ((numpy.ones((2, 4), numpy.int64), numpy.ones(4)), DTypeError, "argument 'x' must be a float tensor"),
    ((numpy.float64(2.0), numpy.ones(4)), ShapeError, "argument 'x' must have a last axis"),
])
def test_bad_inputs_are_refused_by_name(args, error, says):
    with pytest.raises(error, match=re.escape(f"nn.rms_norm: {says}")):
        RMS.RMSNorm.apply(*(opsdk.to_tensor(a) for a in args))


@pytest.mark.parametrize("label, error, says", [
    (numpy.array([0.0, 1.0]), DTypeError, "argument 'label' must be an integer tensor; expected: int64 or int32"),
    (numpy.array([0, 1, 2]), ShapeError, "argument 'label' must have one value per row of 'x'; expected: shape [2]"),
])
def test_bad_per_row_integer_inputs_are_refused_by_name(label, error, says):
    with pytest.raises(error, match=re.escape(f"rows.cross_entropy: {says}")):
        CE.CrossEntropy.apply(opsdk.to_tensor(numpy.ones((2, 4))), opsdk.to_tensor(label))


def test_an_integer_attribute_must_be_an_integer():
    x, label = opsdk.to_tensor(numpy.ones((2, 4))), opsdk.to_tensor(numpy.array([0, 1]))
    with pytest.raises(OpArgumentError, match="attribute 'ignore_index' must be an integer; expected: an int; got: float"):
        CE.CrossEntropy.apply(x, label, -1.5)


def test_unknown_and_non_number_attributes_are_refused():
    x, w = (opsdk.to_tensor(a) for a in inputs("float64", shape=(2, 4)))
    with pytest.raises(OpArgumentError, match="unknown attribute"):
        RMS.OP.forward(type("Ctx", (), {})(), x, w, eps=1e-6, beta=2.0)
    with pytest.raises(OpArgumentError, match="attribute 'eps' must be a number"):
        RMS.RMSNorm.apply(x, w, "small")


def _fwd(m, x, w, *, eps):
    return x * w


def _bwd(m, x, w, dy):
    return dy * w, m.col_sum(dy * x)


@pytest.mark.parametrize("kwargs, backward, says", [
    ({"features": ("bias",)}, _bwd, "features must name inputs of forward"),
    ({"features": ("x", "w")}, _bwd, "features must name inputs of forward, leaving one [..., K] input"),
    ({"features": ("w",), "outputs": ("dw",)}, _bwd, "need names of their own; expected: distinct names; got: dw"),
    ({"features": ("w",)}, lambda m, x, w, grad: (x, w), "backward reads arrays by name; expected: some of"),
    ({"features": ("w",)}, lambda m, x, dy, *, alpha: (x, x), "keyword-only parameters must be attributes"),
    ({"features": ("w",), "outputs": ("out", "int")}, _bwd, "output name 'int' cannot be used"),
    ({"features": ("w",), "per_row": ("rstd",)}, _bwd, "per_row must name inputs or outputs of forward"),
    ({"features": ("w",), "integers": ("w",)}, _bwd, "integers must name inputs or attributes of forward (not "),
    ({"features": ("w",), "axis": True}, _bwd, "axis=True (rows along the middle axis of [outer, K, inner]) takes no"),
])
def test_a_wrong_declaration_is_refused_by_name(kwargs, backward, says):
    with pytest.raises(OpArgumentError, match=re.escape(says)):
        Rows("tests.bad_rows", _fwd, backward, **kwargs)


def test_the_written_functions_have_the_declared_parameters():
    c = LAYER.OP.c_code()
    assert ("void layer_norm_forward_f32(const float *x, const float *weight, const float *bias, float *y, "
            "float *mean, float *rstd, int64_t rows, int64_t K, float eps)") in c
    assert ("void layer_norm_backward_f64(const double *x, const double *weight, const double *mean, "
            "const double *rstd, const double *dy, double *dx, double *dweight, double *dbias, int64_t rows, "
            "int64_t K)") in c
    cuda = LAYER.OP.cuda_code()
    assert 'extern "C" __global__ void layer_norm_backward_f32(' in cuda and "rows_reduce(" in cuda
