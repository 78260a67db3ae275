"""Formulas through the whole generator: the python maths against SymPy, C against python, CUDA through nvcc.

Each formula is written into one pack as `opsdk new-op --formula` writes it, then imported from
the pack's sources (no install needed to check the maths).
"""
import importlib
import math
import sys

import numpy
import pytest

sympy = pytest.importorskip("sympy")

from opsdk.kernels import compiler_info, find_nvcc  # noqa: E402
from opsdk.scaffold import op as scaffold_op, plan_op, plan_pack, write_plan  # noqa: E402
from opsdk.scaffold.formula import formula_context, parse_formula  # noqa: E402

# (formula, inputs, attributes): every supported function, one and two inputs, attributes
FORMULAS = [
    ("x * tanh(log(1 + exp(x)))", ("x",), {}),
    ("0.5*x*(1 + tanh(0.7978845608028654*(x + 0.044715*x**3)))", ("x",), {}),
    ("log(1 + exp(beta * x)) / beta", ("x",), {"beta": 1.5}),
    ("x * exp(-alpha * y * y)", ("x", "y"), {"alpha": 0.5}),
    ("0.5*x*(1 + erf(x / sqrt(2)))", ("x",), {}),
    ("x / (1 + exp(-x))", ("x",), {}),
    ("exp(x) - 1 + log(1 + x*x)", ("x",), {}),
    ("sin(x)*cos(2*x) + tan(x/3)", ("x",), {}),
    ("sqrt(1 + x*x) + cbrt(2 + x) + x**4 / (1 + x**2)**2", ("x",), {}),
    ("atan(x) + asinh(x) + sinh(x/2) + cosh(x/3) + erfc(x)", ("x",), {}),
    ("asin(x/4) + acos(x/5) + atanh(x/4) + acosh(x*x + 1.5)", ("x",), {}),
    ("x*y + y**3 / (1 + x*x) - sigmoid(x - y) * softplus(y)", ("x", "y"), {}),
    ("x**alpha + 1/x", ("x",), {"alpha": 2.5}),
    ("a * b * c + exp(-(a - c)**2)", ("a", "b", "c"), {}),
]
NAIVE = {"erf": numpy.vectorize(math.erf), "erfc": numpy.vectorize(math.erfc),
         "sigmoid": lambda u: 1 / (1 + numpy.exp(-u)), "softplus": lambda u: numpy.log1p(numpy.exp(u))}


# the first few run by default; the rest (each a C compile) with the slow tests
DEFAULT = 3
CASES = [pytest.param(i, marks=() if i < DEFAULT else pytest.mark.slow, id=f"f{i}") for i in range(len(FORMULAS))]


def _in_this_process(op, text, inputs, attrs, backends, domain, timeout):
    return formula_context(op, text, inputs, attrs, backends, domain)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """``generated[index]``: the op module of FORMULAS[index], written into one pack on first use."""
    root = tmp_path_factory.mktemp("formulas") / "fsweep"
    write_plan(plan_pack("fsweep", root))
    sys.path.insert(0, str(root / "src"))

    class Ops(dict):
        def __missing__(self, index):
            text, inputs, attrs = FORMULAS[index]
            formula = {"text": text, "inputs": list(inputs), "attrs": attrs}
            # derived here, not in new-op's child process: what is tested is the generated code,
            # and a child per formula would start Python and SymPy again each time
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(scaffold_op, "bounded_formula_context", _in_this_process)
                write_plan(plan_op(f"f{index}", root, ("python", "c", "cuda"), formula=formula))
            self[index] = importlib.import_module(f"fsweep.ops.f{index}")
            return self[index]

    try:
        yield Ops()
    finally:
        sys.path.remove(str(root / "src"))
        for name in [n for n in sys.modules if n == "fsweep" or n.startswith("fsweep.")]:
            del sys.modules[name]


def points(module, n_inputs, dtype="float64", n=200):
    low, high = _domain(module)
    rng = numpy.random.default_rng(7)
    return [rng.uniform(low, high, n).astype(dtype) for _ in range(n_inputs)]


def _domain(module):
    registered = []
    module.register_op(lambda function, **options: registered.append(options))
    return registered[0]["inputs"][0].domain


def exact_derivatives(text, inputs, attrs):
    """Callables for f, its gradient and its hessian, from SymPy on the formula as written."""
    formula = parse_formula(text, inputs, attrs)
    xs = [formula.symbols[n] for n in inputs]
    attrs = [formula.symbols[n] for n in formula.attrs]
    modules = [NAIVE, "numpy"]
    value = sympy.lambdify([*xs, *attrs], formula.expr, modules)
    grad = [sympy.lambdify([*xs, *attrs], sympy.diff(formula.expr, x), modules) for x in xs]
    hessian = [[sympy.lambdify([*xs, *attrs], sympy.diff(formula.expr, a, b), modules) for b in xs] for a in xs]
    return formula.attrs, value, grad, hessian


@pytest.mark.parametrize("index", CASES)
def test_python_maths_equal_sympys_derivatives_of_the_formula_as_written(generated, index):
    text, inputs, attrs = FORMULAS[index]
    module = generated[index]
    values, value, grad, hessian = exact_derivatives(text, inputs, attrs)
    xs = points(module, len(inputs))
    from opsdk.kernels.elementwise import maths_of

    maths, scalars = maths_of(xs[0]), list(values.values())
    close = dict(rtol=1e-10, atol=1e-10)
    numpy.testing.assert_allclose(module.value(maths, *xs, **values), value(*xs, *scalars), **close)
    got_grad = module.grad(maths, *xs, **values)
    slopes, curvatures = module.grad2(maths, *xs, **values)
    for i, g in enumerate(grad):
        want = numpy.broadcast_to(g(*xs, *scalars), xs[0].shape)
        numpy.testing.assert_allclose(numpy.broadcast_to(got_grad[i], xs[0].shape), want, **close)
        numpy.testing.assert_allclose(numpy.broadcast_to(slopes[i], xs[0].shape), want, **close)
        for j, h in enumerate(hessian[i]):
            numpy.testing.assert_allclose(numpy.broadcast_to(curvatures[i][j], xs[0].shape),
                                          numpy.broadcast_to(h(*xs, *scalars), xs[0].shape), **close)


@pytest.mark.skipif(not compiler_info().available, reason="no C compiler")
@pytest.mark.parametrize("dtype, tolerance", [("float64", 1e-12), ("float32", 2e-5)])
@pytest.mark.parametrize("index", CASES)
def test_c_kernels_equal_the_python_kernels(generated, index, dtype, tolerance):
    text, inputs, attrs = FORMULAS[index]
    op = generated[index].OP
    attrs = dict(parse_formula(text, inputs, attrs).attrs)
    xs = points(generated[index], len(inputs), dtype)
    dy, gg = numpy.cos(xs[0]), [numpy.sin(x) for x in xs]
    for kernel, args in zip(op.kernels, (xs, [*xs, dy], [*xs, dy, *gg])):
        got, want = kernel.run("c", *args, **attrs), kernel.run("python", *args, **attrs)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert g.dtype == numpy.dtype(dtype)
            scale = float(numpy.abs(w.astype(numpy.float64)).max()) or 1.0
            numpy.testing.assert_allclose(g, w, rtol=tolerance * 10, atol=tolerance * scale, err_msg=kernel.name)


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not found")
@pytest.mark.parametrize("index", CASES)
def test_cuda_sources_pass_nvcc(generated, index):
    result = generated[index].OP.value_kernel.check_cuda()
    assert result.checked
    for stage in ("value", "grad", "grad2"):
        for suffix in ("f32", "f64"):
            assert f".entry f{index}_{stage}_{suffix}(" in result.ptx


def test_a_pole_at_zero_moves_the_domain_off_it(generated):
    assert _domain(generated[12]) == (0.1, 3.0)


@pytest.mark.parametrize("index", [0, 1, 2, 3])  # mish, gelu (tanh form), softplus, the gaussian
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_where_the_forward_is_finite_so_are_the_derivatives(generated, index, dtype):
    """The verifier's special points, and far beyond the domain: the stable forms keep large
    inputs finite (up to |x| = 1e4: past 1e13, gelu's x**3 overflows float32 as its formula says)."""
    text, inputs, attrs = FORMULAS[index]
    op = generated[index].OP
    attrs = dict(parse_formula(text, inputs, attrs).attrs)
    x = numpy.array([0.0, -0.0, 1.0, -1.0, 30.0, -30.0, 88.5, -88.5, 200.0, -200.0, 1e4, -1e4], dtype)
    xs = [x] + [x[::-1].copy() for _ in inputs[1:]]
    ones = numpy.ones_like(x)
    backends = [b for b in ("python", "c") if b in op.value_kernel.available_backends("cpu")]
    for backend in backends:
        with numpy.errstate(all="ignore"):
            y = op.value_kernel.run(backend, *xs, **attrs)
            grads = op.grad_kernel.run(backend, *xs, ones, **attrs)
            second = op.grad2_kernel.run(backend, *xs, ones, *([ones] * len(xs)), **attrs)
        finite = numpy.isfinite(y)
        assert finite.all(), (backend, x[~finite], y[~finite])
        for out in (grads if isinstance(grads, tuple) else (grads,)) + tuple(second):
            assert numpy.isfinite(out[finite]).all(), (backend, x[finite], out[finite])


@pytest.mark.skipif(not compiler_info().available, reason="no C compiler")
@pytest.mark.parametrize("index", CASES)
def test_generated_c_compiles_without_a_warning(generated, index, tmp_path):
    import subprocess

    source = generated[index].OP.value_kernel.sources["c"]
    path = tmp_path / f"f{index}.c"  # the C c_bodies wrote
    path.write_text(source.read())
    command = [*compiler_info().command, "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-fopenmp",
               *source.extra_compile_args, *(f"-I{d}" for d in source.include_dirs), str(path)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def simulated_cupy():
    """opsdk's CPU CUDA simulator as cupy, for these tests only."""
    from helpers.simulator import simulated_cupy as simulator

    with simulator() as cupy:
        yield cupy


@pytest.mark.parametrize("index", CASES)
def test_cuda_kernels_equal_the_python_kernels_on_the_simulator(generated, simulated_cupy, index):
    """Every generated CUDA kernel, run by the simulator (bounds, races, unwritten outputs checked)."""
    text, inputs, attrs = FORMULAS[index]
    op = generated[index].OP
    attrs = dict(parse_formula(text, inputs, attrs).attrs)
    for dtype, tolerance in (("float32", 2e-5), ("float64", 1e-12)):
        for size in (1, 257, 4099):
            xs = [simulated_cupy.asarray(a) for a in points(generated[index], len(inputs), dtype, size)]
            dy, gg = simulated_cupy.cos(xs[0]), [simulated_cupy.sin(x) for x in xs]
            for kernel, args in zip(op.kernels, (xs, [*xs, dy], [*xs, dy, *gg])):
                got, want = kernel.run("cuda", *args, **attrs), kernel.run("python", *args, **attrs)
                for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                    g, w = simulated_cupy.asnumpy(g), simulated_cupy.asnumpy(w)
                    scale = float(numpy.abs(w.astype(numpy.float64)).max()) or 1.0
                    numpy.testing.assert_allclose(g, w, rtol=tolerance * 10, atol=tolerance * scale,
                                                  err_msg=f"{kernel.name} {dtype} size {size}")
