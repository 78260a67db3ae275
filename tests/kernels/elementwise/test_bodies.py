"""Elementwise.c_bodies: the C and CUDA kernels the SDK writes from one scalar C body per
derivative agree with the op's python kernels, in both dtypes, with several inputs and
attributes, on the CPU and on the CUDA simulator; the CUDA source compiles with nvcc."""
import inspect
import re
import shutil
import subprocess

import numpy
import pytest

import opsdk
from opsdk.autograd import gradcheck, gradgradcheck
from opsdk.errors import OpArgumentError
from opsdk.kernels import use_backend
from opsdk.kernels.elementwise import Elementwise
from opsdk.kernels.elementwise.bodies import statements
from opsdk.kernels.sources import SDK_INCLUDE_DIR


def value(m, x, y, *, alpha):
    return x * m.sigmoid(alpha * y) + 0.5 * x * x


def grad(m, x, y, *, alpha):
    s = m.sigmoid(alpha * y)
    return s + x, alpha * x * s * (1 - s)


def grad2(m, x, y, *, alpha):
    s = m.sigmoid(alpha * y)
    ds = alpha * s * (1 - s)
    return grad(m, x, y, alpha=alpha), ((1.0, ds), (ds, alpha * alpha * x * s * (1 - s) * (1 - 2 * s)))


def make(name="tests.bodies_gate", cuda=True):
    # each derivative once, in C; T is float in the float32 kernels, double in the float64 ones
    return Elementwise(name, value, grad, grad2, inputs=("x", "y")).c_bodies(
        "x * sigmoid(alpha * y) + 0.5 * x * x",
        ["sigmoid(alpha * y) + x", "T s = sigmoid(alpha * y); return alpha * x * s * (1 - s);"],
        [["1", "T s = sigmoid(alpha * y); return alpha * s * (1 - s);"],
         ["T s = sigmoid(alpha * y); return alpha * s * (1 - s);",
          "T s = sigmoid(alpha * y); return alpha * alpha * x * s * (1 - s) * (1 - 2 * s);"]],
        cuda=cuda)


OP = make()


def arrays(dtype, n=70_001):
    # above OPSDK_OMP_MIN, so the threaded loop runs too; an odd size leaves a vector tail
    rng = numpy.random.default_rng(3)
    return [rng.uniform(-4, 4, n).astype(dtype) for _ in range(4)]


def _tuple(out):
    return out if isinstance(out, tuple) else (out,)


def _stages(x, y, dy, g):
    return ((OP.value_kernel, (x, y)), (OP.grad_kernel, (x, y, dy)),
            (OP.grad2_kernel, (x, y, dy, g, 0.5 * g)))


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-5), ("float64", 1e-13)])
def test_the_written_c_kernels_equal_the_python_ones(cache, dtype, rtol):
    x, y, dy, g = arrays(dtype)
    for kernel, args in _stages(x, y, dy, g):
        for c, p in zip(_tuple(kernel.run("c", *args, alpha=1.25)),
                        _tuple(kernel.run("python", *args, alpha=1.25))):
            assert c.dtype == numpy.dtype(dtype)
            numpy.testing.assert_allclose(c, p, rtol=rtol, atol=rtol, err_msg=kernel.name)


MISH = Elementwise("tests.bodies_mish", lambda m, x: x * m.tanh_softplus(x),
                   lambda m, x: (m.tanh_softplus(x) + x * m.sigmoid(x) * m.sech2_softplus(x),),
                   lambda m, x: ((m.tanh_softplus(x),), ((m.sigmoid(x),),))).c_bodies(
    "x * tanh_softplus(x)", "tanh_softplus(x) + x * sigmoid(x) * sech2_softplus(x)", "sigmoid(x)", cuda=False)


@pytest.mark.parametrize("n", [15, 70_001])
def test_an_element_gets_the_same_bits_wherever_the_arrays_start(cache, n):
    # a loop's scalar remainder and its vector body need not round alike (mish's derivative is
    # 1 ulp apart): which elements take which must depend on n alone, not on the addresses, or
    # a backward gives other bits for the same inputs in another array (opsdk check's
    # determinism and isolation checks)
    lib, ffi = MISH.grad_kernel.build_c()
    x = numpy.random.default_rng(5).uniform(-6, 6, n).astype(numpy.float32)
    results = []
    for offset in range(17):
        buffers = [numpy.zeros(n + 32, numpy.float32) for _ in range(3)]
        xa, dya, out = (b[offset:offset + n] for b in buffers)
        xa[:], dya[:] = x, 1.0
        lib.bodies_mish_grad_f32(*(ffi.cast("float *", a.ctypes.data) for a in (xa, dya, out)), n)
        results.append(out.copy())
    for offset, got in enumerate(results[1:], 1):
        assert numpy.array_equal(got.view(numpy.uint32), results[0].view(numpy.uint32)), f"offset {offset}"


def test_the_op_on_c_kernels_has_right_gradients_to_second_order(cache):
    class Gate(opsdk.Function):
        _opsdk_qualname = "tests.bodies_gate"

        @staticmethod
        def forward(ctx, x, y, alpha=1.0):
            return OP.forward(ctx, x, y, alpha=alpha)

        @staticmethod
        def backward(ctx, dy):
            return OP.backward(ctx, dy)

    rng = numpy.random.default_rng(0)
    x, y = (opsdk.to_tensor(rng.uniform(-2, 2, s), dtype="float64", stop_gradient=False)
            for s in ((3, 4), (4,)))
    with use_backend("c"):
        assert gradcheck(lambda a, b: Gate.apply(a, b, 0.8), (x, y))
        assert gradgradcheck(lambda a, b: Gate.apply(a, b, 0.8), (x, y))


def test_decimal_literals_take_the_kernels_float_type():
    assert statements("0.5 * x + 1e-3 + 2.") == "return (((T)0.5) * x + ((T)1e-3) + ((T)2.));"
    assert statements("x1 + 3 * x") == "return (x1 + 3 * x);"  # names and integers untouched
    assert statements("T s = x; return s") == "T s = x; return s;"


@pytest.mark.parametrize("inputs, attrs, why", [
    (("exp",), (), "maths function"), (("x",), ("n",), "loops use"), (("grad_x",), (), "loops use"),
    (("x", "y"), ("opsdk_k",), "loops use"), (("int",), (), "keyword of C"),
    # C++ (CUDA) keywords, gcc's predefined macros, CUDA built-ins: compiler errors far from here
    (("this",), (), "keyword of C\\+\\+"), (("linux",), (), "macro"), (("x",), ("threadIdx",), "built-in"),
    (("int32_t",), (), "type name"), (("expf",), (), "maths function")])
def test_names_a_c_body_cannot_use_are_refused_naming_them(inputs, attrs, why):
    def f(m, *xs, **kw):
        return xs[0]

    # the attributes' names come from value's keyword-only parameters
    P = inspect.Parameter
    f.__signature__ = inspect.Signature(
        [P("m", P.POSITIONAL_OR_KEYWORD)] + [P(a, P.POSITIONAL_OR_KEYWORD) for a in inputs]
        + [P(a, P.KEYWORD_ONLY) for a in attrs])
    op = Elementwise("tests.bad", f, f, f, inputs=inputs)
    k = len(inputs)
    with pytest.raises(OpArgumentError, match=f"cannot be a C parameter.*{why}"):
        op.c_bodies("1", ["1"] * k, [["0"] * k] * k)


def test_a_hessian_of_the_wrong_size_is_refused():
    op = Elementwise("tests.bad_hessian", value, grad, grad2, inputs=("x", "y"))
    with pytest.raises(OpArgumentError, match="2 x 2 hessian"):
        op.c_bodies("x", ["1", "0"], "0")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_the_written_cuda_source_compiles_with_nvcc_to_the_six_kernels(tmp_path):
    source = tmp_path / "gate.cu"
    source.write_text(OP.bodies.cuda_code())
    cubin = tmp_path / "gate.cubin"
    subprocess.run(["nvcc", "-cubin", "-arch=sm_80", f"-I{SDK_INCLUDE_DIR}", str(source), "-o",
                    str(cubin)], check=True, capture_output=True, timeout=300)
    symbols = cubin.read_bytes()
    for stage in ("value", "grad", "grad2"):
        for sfx in ("f32", "f64"):
            assert f".text.bodies_gate_{stage}_{sfx}".encode() in symbols


@pytest.mark.parametrize("body, says", [
    ("x * sigmod(alpha * y)", "value body calls 'sigmod'; expected: one of the functions"),
    ("x * alfa", "value body reads 'alfa'; expected: an input, an attribute (x, y, alpha)"),
])
def test_a_body_with_an_unknown_function_or_name_is_refused_before_any_compile(body, says):
    op = Elementwise("tests.bad_body", value, grad, grad2, inputs=("x", "y"))
    with pytest.raises(OpArgumentError, match=re.escape(says)):
        op.c_bodies(body, ["1", "0"], [["0", "0"], ["0", "0"]])


def test_locals_numbers_and_ternaries_are_accepted():
    op = Elementwise("tests.good_body", value, grad, grad2, inputs=("x", "y"))
    op.c_bodies("T s = sigmoid(alpha * y); T big = 1.5e3; return y > 0 ? x * s : big * 2.;",
                ["1", "0"], [["0", "0"], ["0", "0"]])


@pytest.mark.parametrize("body, cheap", [
    ("exp(-abs(0.5 * x * x))", True), ("exp( - abs(x * (x + 1)) )", True),
    ("exp(-abs(x) + 1)", False), ("exp(-abs(x) * 2)", False), ("expm1(-abs(x))", False), ("exp(x)", False)])
def test_exp_of_minus_abs_calls_the_exp_without_an_overflow_side_only_for_that_whole_argument(body, cheap):
    code = Elementwise("tests.bodies_expnabs", lambda m, x: x, lambda m, x: (x,), lambda m, x: ((x,), ((x,),)),
                       ).c_bodies(body, "1", "0", cuda=False).bodies.c_code()
    assert ("opsdk_exp_nonpositive(" in code) is cheap
    assert "#define opsdk_exp_nonpositive opsdk_exp_neg_f32" in code


def test_exp_of_minus_abs_gives_the_python_kernels_values(cache):
    op = Elementwise("tests.bodies_gauss", lambda m, x: m.exp(-(0.5 * x * x)), lambda m, x: (-x * m.exp(-(0.5 * x * x)),),
                     lambda m, x: ((-x * m.exp(-(0.5 * x * x)),), (((x * x - 1) * m.exp(-(0.5 * x * x)),),)),
                     ).c_bodies("exp(-abs(0.5 * x * x))", "-x * exp(-abs(0.5 * x * x))",
                                "(x * x - 1) * exp(-abs(0.5 * x * x))", cuda=False)
    x = numpy.array([0.0, -0.0, 1.5, -3.0, 13.5, -14.0, 20.0, numpy.inf, -numpy.inf, numpy.nan], numpy.float32)
    for kernel, args in ((op.value_kernel, (x,)), (op.grad_kernel, (x, numpy.ones_like(x)))):
        with numpy.errstate(invalid="ignore"):
            want = kernel.run("python", *(a.astype(numpy.float64) for a in args))
        numpy.testing.assert_allclose(kernel.run("c", *args), want, rtol=1e-6, atol=1e-44)
