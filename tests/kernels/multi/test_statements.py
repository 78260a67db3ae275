"""The statements of one element: read, checked before any compile (errors name the op, the
statement, what was expected and what was found), rewritten to C; the written CUDA compiles
with nvcc and agrees with python on the simulator."""
import re

import numpy
import pytest

from opsdk.errors import OpArgumentError
from opsdk.kernels import CudaSource, check_cuda_source
from opsdk.kernels.multi.statements import Program

from .ops import CELL, PAIR

READS = ("a", "b", "dplus")
WRITES = ("da", "db")


def program(body):
    return Program("tests.multi", "backward", body, READS, ("alpha",), WRITES)


def test_locals_and_outputs_are_read_in_order_and_stored_after_every_value():
    p = program("T s = a * b; da = dplus * s  # a comment\n\ndb = da + alpha")
    assert p.steps == [("s", "a * b"), ("da", "dplus * s"), ("db", "da + alpha")]
    assert p.body() == ("const T opsdk_v_s = (T)(a[opsdk_k] * b[opsdk_k]); "
                        "const T opsdk_v_da = (T)(dplus[opsdk_k] * opsdk_v_s); "
                        "const T opsdk_v_db = (T)(opsdk_v_da + alpha); "
                        "da[opsdk_k] = opsdk_v_da; db[opsdk_k] = opsdk_v_db;")


def test_the_rewrite_indexes_arrays_and_types_decimal_literals_only():
    p = program("da = a\ndb = b")
    assert p.rewrite("0.5 * sigmoid(a) + 2 * b + 1e-3 + 2.0f + alpha") == (
        "((T)0.5) * sigmoid(a[opsdk_k]) + 2 * b[opsdk_k] + ((T)1e-3) + 2.0f + alpha")


@pytest.mark.parametrize("body, says", [
    ("da = sigmod(a)\ndb = b", "expected: one of the functions"),
    ("da = a * alfa\ndb = b", "'alfa' read"),
    ("da = a\nda = b\ndb = b", "'da' assigned again"),
    ("da = a", "none for db"),
    ("y = a\nda = a\ndb = b", "'y' assigned"),
    ("T a = dplus\nda = a\ndb = b", "'a' assigned again"),
    ("T s = a; T s = b\nda = s\ndb = s", "'s' assigned again"),
    ("da == a", "a statement of another form"),
    ("T s = db\nda = a\ndb = b", "'db' read"),
    ("T T = a\nda = a\ndb = b", "'T' assigned again"),
])
def test_a_wrong_statement_is_refused_by_name(body, says):
    with pytest.raises(OpArgumentError, match=re.escape(says)) as info:
        program(body)
    assert str(info.value).startswith("tests.multi: ")


def test_statements_must_be_a_string():
    with pytest.raises(OpArgumentError, match="the backward statements must be a string"):
        program(["da = a", "db = b"])


def test_locals_take_any_name_but_t_as_the_loop_renames_them():
    p = program("T n = a; T int = b; T exp = n * int\nda = exp(exp)\ndb = n")
    assert "const T opsdk_v_exp = (T)(opsdk_v_n * opsdk_v_int);" in p.body()
    assert "const T opsdk_v_da = (T)(exp(opsdk_v_exp));" in p.body()


def test_c_calls_the_vocabulary_of_each_dtype_and_marks_every_parameter_used():
    c = CELL.c_code()
    assert "#define sigmoid opsdk_sigmoid_f32" in c and "#define tanh opsdk_tanh_f64" in c and "#define exp" not in c
    assert "(void)gate_i; (void)gate_o; (void)gate_c; (void)new_cell; (void)dnew_h; (void)dnew_cell;" in c
    assert "OPSDK_PARALLEL(n, lo, hi, opsdk_multi_pair_forward_f64(a, b, plus, prod, lo, hi, alpha));" \
        in PAIR.c_code()


@pytest.mark.parametrize("op", [CELL, PAIR], ids=["cell", "pair"])
def test_the_written_cuda_source_compiles_without_warnings_to_its_four_kernels(op):
    source = op.forward_kernel.sources["cuda"]
    result = check_cuda_source(CudaSource(code=op.cuda_code(), options=(*source.options, "-Werror", "all-warnings")),
                               arch="sm_80")
    if not result.checked:
        pytest.skip(result.reason)
    for stage in ("forward", "backward"):
        for sfx in ("f32", "f64"):
            assert f".entry {op.short_name}_{stage}_{sfx}(" in result.ptx


@pytest.mark.slow
@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-6)])
def test_the_cuda_kernels_agree_with_python_on_the_simulator(dtype, tol):
    from helpers.simulator import simulated_cupy

    arrays = [numpy.random.default_rng(k).uniform(-2, 2, 1000).astype(dtype) for k in range(4)]
    new_h, new_cell = CELL.forward_kernel.run("python", *arrays)
    calls = [(PAIR.forward_kernel, arrays[:2], {"alpha": 0.5}), (PAIR.backward_kernel, arrays, {"alpha": 0.5}),
             (CELL.forward_kernel, arrays, {}), (CELL.backward_kernel, [*arrays[:3], new_cell, *arrays[:2]], {})]
    with simulated_cupy() as cupy:
        for kernel, args, attrs in calls:
            want = kernel.run("python", *args, **attrs)
            for g, w in zip(kernel.run("cuda", *map(cupy.asarray, args), **attrs), want):
                numpy.testing.assert_allclose(cupy.asnumpy(g), w, rtol=tol, atol=tol, err_msg=kernel.name)
