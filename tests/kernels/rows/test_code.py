"""The C and CUDA sources written from a rows op's statements: lanes added as a tree, double accumulation, passes shared
by independent reductions, a shorthand kept in an output, NaN-propagating max, per-feature sums
from row parts (or a column pass), the block reduction; the CUDA source compiles with nvcc and
runs on the simulator."""
import shutil
import subprocess

import numpy
import pytest

from opsdk.kernels import CSource, Kernel
from opsdk.kernels.elementwise import C_FLAGS
from opsdk.kernels.rows import Rows
from opsdk.kernels.rows.code import BLOCK, parts
from opsdk.kernels.sources import SDK_INCLUDE_DIR

from .pack import module

RMS, LAYER, SOFTMAX, CE = module("rms_norm"), module("layer_norm"), module("softmax"), module("cross_entropy")


def test_c_reductions_keep_lanes_added_as_a_tree_and_sums_add_blocks_in_double():
    rms, softmax = RMS.OP.c_code(), SOFTMAX.OP.c_code()
    assert "double opsdk_a_ss = 0.0;" in rms and "for (int64_t j0 = 0; j0 < K; j0 += 1024) {" in rms
    assert "if (K <= 1024) {" in rms  # a row of one block: no blocks' bookkeeping
    assert "T opsdk_l_ss[OPSDK_ROW_LANES] = {0};" in rms and "opsdk_l_ss[opsdk_l] += (T)(x[o + j] * x[o + j]);" in rms
    assert "opsdk_s_ss = opsdk_lanes_sum(opsdk_l_ss);" in rms  # one block: its lanes' tree
    assert "opsdk_a_ss += (double)opsdk_lanes_sum(opsdk_l_ss);" in rms  # each block's sum, in double
    assert "reduction(" not in rms  # no omp simd reduction: its sum adds the lanes one after the other
    assert "opsdk_l_top[opsdk_l] = -INFINITY;" in softmax and "const T opsdk_a_top = opsdk_lanes_max(opsdk_l_top);" in softmax
    assert "h8[k] = l[k] + l[k + 8];" in rms and "h4[k] = l[k] + l[k + 4];" in rms  # float32: 16 lanes, float64: 8
    assert "h8 = h8 + u8;" in rms  # GCC and clang: the same tree in vector types
    assert "#define exp opsdk_exp_f32" in softmax and "#define sqrt" not in softmax
    # exp(-abs(u)): the argument is never positive, the float32 exp without an overflow side
    assert "#define opsdk_exp_nonpositive opsdk_exp_neg_f32" in softmax
    assert "opsdk_exp_nonpositive(-abs(x[o + j] - opsdk_v_top))" in softmax


def _lanes_sum(v, lanes):
    """A row's sum as the written C adds it: element j into lane j % lanes in order, then the
    lanes as a tree (halves first); blocks of 1024 elements, their sums added in double."""
    t = v.dtype.type
    total = 0.0
    for j0 in range(0, len(v), 1024):
        lane = numpy.zeros(lanes, v.dtype)
        for j, e in enumerate(v[j0:j0 + 1024]):
            lane[j % lanes] = t(lane[j % lanes] + e)
        while len(lane) > 1:
            lane = lane[:len(lane) // 2] + lane[len(lane) // 2:]
        if len(v) <= 1024:
            return lane[0]
        total += float(lane[0])
    return t(total)


@pytest.mark.parametrize("dtype, lanes", [("float32", 16), ("float64", 8)])
@pytest.mark.parametrize("K", [5, 100, 2500])  # a last group of 5 lanes, groups and a tail, blocks
def test_a_sum_adds_its_lanes_in_an_order_the_vector_width_does_not_change(dtype, lanes, K):
    x = numpy.random.default_rng(K).standard_normal((3, K)).astype(dtype) * 1e3
    w = numpy.ones(K, dtype)
    _, mean, _ = LAYER.OP.forward_kernel.run("c", x, w, w, eps=1e-5)  # mean = s / K: no multiply to fuse
    want = [_lanes_sum(row, lanes) / numpy.dtype(dtype).type(K) for row in x]
    numpy.testing.assert_array_equal(mean, numpy.array(want, dtype))


def test_a_row_scalar_calls_libm_and_an_element_loop_the_vectorizable_maths():
    c = CE.OP.c_code()
    assert "#define opsdk_row_log logf" in c and "#define log opsdk_log_f32" in c
    assert "const T opsdk_v_logsum = (T)(opsdk_row_log(opsdk_v_s));" in c  # once a row: libm's logf
    assert "opsdk_row_exp" not in c.split("#define opsdk_exp_nonpositive")[1].split("#undef")[0]  # the loops'


def test_independent_reductions_share_one_pass():
    c = LAYER.OP.c_code()
    loops = [line for line in c.splitlines() if "opsdk_l_" in line and "+= (T)(" in line]
    assert any("opsdk_l_a[opsdk_l] +=" in line and "opsdk_l_b[opsdk_l] +=" in line for line in loops)  # backward
    # forward: the variance reads the mean, a pass of its own
    assert all("opsdk_l_s[" not in line for line in loops if "opsdk_l_v[opsdk_l] +=" in line)


def test_a_shorthand_calling_a_function_is_computed_once_and_kept_in_the_output():
    c = SOFTMAX.OP.c_code()
    # the sum's pass stores exp(x - top) in y; the last pass reads it back instead of a second exp
    e = "opsdk_exp_nonpositive(-abs(x[o + j] - opsdk_v_top))"
    assert f"y[o + j] = (T)({e}); opsdk_l_s[opsdk_l] += (T)(({e})); }}" in c
    assert "{ y[o + j] = (T)(y[o + j] * opsdk_v_inv); }" in c
    # both dtypes; the one-block loops and the blocks loops (lane groups, the last group) and the
    # panels (full, partial): the store and the sum's term (one exp to the compiler)
    assert c.count("exp_nonpositive(") == 24


def test_max_is_nan_where_the_row_holds_nan_as_numpy():
    x = numpy.random.default_rng(0).standard_normal((7, 9))
    x[1, 4], x[2, 0], x[3, 8] = numpy.nan, numpy.nan, numpy.nan
    x[4, 3], x[5, 2], x[6] = numpy.inf, -numpy.inf, -numpy.inf  # infinite, no NaN: the second look
    label = numpy.arange(7) % 9
    for backend in ("python", "c"):
        with numpy.errstate(invalid="ignore"):  # (inf - inf in the python maths' loss)
            _, rowmax, _ = CE.OP.forward_kernel.run(backend, x, label, ignore_index=-100)
        numpy.testing.assert_array_equal(rowmax, x.max(axis=1))
    c = CE.OP.c_code()
    # the flag: e * 0 summed (NaN for NaN or inf), then a loop for a NaN only where it is NaN
    assert "opsdk_f_top[opsdk_l] += opsdk_e_top * (T)0;" in c and "T opsdk_n_top = opsdk_lanes_sum(opsdk_f_top);" in c
    assert "if (opsdk_n_top != opsdk_n_top) { int opsdk_bad = 0;" in c


def test_c_feature_outputs_sum_row_parts_or_take_a_column_pass():
    c = LAYER.OP.c_code()
    # partials per row part, added in the rows' first pass
    assert "opsdk_p_dweight[j] += (double)(dy[o + j] * ((x[o + j] - mean[r]) * rstd[r]));" in c
    assert "opsdk_part[0 * K + j] += opsdk_part[(opsdk_c * 2 + 0) * K + j];" in c  # the parts added in order
    assert c.count("opsdk_rows_parts(rows, K, 2)") == 2  # backward, both dtypes
    assert "double opsdk_a_dweight[64] = {0.0};" in c  # the column pass, without room for partials
    assert "_cols_" not in SOFTMAX.OP.c_code() and "_part_" not in SOFTMAX.OP.c_code()


def test_the_parts_depend_on_the_sizes_alone():
    assert [parts(r, 1000, 2) for r in (0, 1, 32, 33, 10_000)] == [1, 1, 1, 2, 64]
    assert parts(10_000, 1 << 22, 2) == 1  # 32 MiB of partials at the most


@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-5)])
def test_without_room_for_the_partials_a_column_pass_sums_the_features(dtype, tol):
    stage = LAYER.OP.stages[1]
    head = '#include "opsdk/elementwise.h"\n'
    code = LAYER.OP.c_code().replace(head, head + "#define calloc(n, s) NULL  /* no memory */\n", 1)
    source = CSource(code=code, openmp=True, extra_compile_args=C_FLAGS, libraries=("m",))
    kernel = Kernel(f"tests.rows.no_room_{dtype}").c(source, stage.function, **LAYER.OP._layout(stage))
    rng = numpy.random.default_rng(3)
    x, dy = (rng.standard_normal((700, 130)).astype(dtype) for _ in range(2))  # threaded
    w = rng.uniform(0.5, 1.5, 130).astype(dtype)
    _, mean, rstd = LAYER.OP.forward_kernel.run("python", x, w, w, eps=1e-5)
    for got, want in zip(kernel(x, w, mean, rstd, dy), LAYER.OP.backward_kernel.run("c", x, w, mean, rstd, dy)):
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-6)])
def test_with_axis_rows_along_the_middle_axis_run_in_place_a_panel_of_lanes_at_a_time(dtype, tol):
    rng = numpy.random.default_rng(6)
    x = rng.standard_normal((3, 40, 70)).astype(dtype)  # 70 inner: a panel of 64 and one of 6
    x[1, 5, 66] = numpy.nan  # one lane's row: NaN there only
    x[2, :, 3] = numpy.inf  # an infinite row: the second look finds no NaN (inf - inf: NaN anyway)
    dy = rng.standard_normal(x.shape).astype(dtype)
    fwd, bwd = SOFTMAX.OP.kernels
    with numpy.errstate(invalid="ignore"):
        want = fwd.run("python", x)
        got = fwd.run("c", x)
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)
        numpy.testing.assert_allclose(bwd.run("c", want, dy), bwd.run("python", want, dy), rtol=tol, atol=tol)
    assert numpy.isnan(got[1, :, 66]).all() and numpy.isfinite(got[1, :, 65]).all()
    c = SOFTMAX.OP.c_code()
    assert "void softmax_forward_f32(const float *x, float *y, int64_t rows, int64_t K, int64_t opsdk_inner)" in c
    assert "for (int64_t j = 0; j < K; j++) { OPSDK_SIMD for (int64_t opsdk_k = 0; opsdk_k < opsdk_w; opsdk_k++)" in c
    # a full panel: a constant count of lanes (their arrays stay in registers), a partial one as wide as it is
    assert "if (opsdk_width == 64) {\n        const int64_t opsdk_w = 64;" in c
    assert "} else {\n        const int64_t opsdk_w = opsdk_width;" in c


def test_cuda_reduces_per_block_and_sums_features_in_row_parts():
    cuda = LAYER.OP.cuda_code()
    assert "__shared__ double red[33];" in cuda and "rows_reduce(opsdk_a_s, 0, red)" in cuda
    assert "t < rows + (K + 31) / 32 * opsdk_parts" in cuda  # backward: the feature blocks
    assert "atomicAdd(&opsdk_count[opsdk_g], 1u) == opsdk_parts - 1" in cuda  # the last block adds the parts
    assert "__shared__ double red[256];" in cuda  # the feature blocks' lanes
    assert "t < rows;" in cuda  # forward: rows only


def _fwd(m, g, w, *, c):
    per = m.row_sum(g * w) * c
    return g * per, per


def _bwd(m, g, w, per, dq, *, c):
    return dq * per + c * w * m.row_sum(dq * g), m.col_sum(c * g * dq)


# the user's names are the written code's own short ones: every one of those is opsdk_-prefixed
NAMES = Rows("tests.rows_names", _fwd, _bwd, features=("w",), outputs=("q",), saved=("per",)).c_bodies(
    forward="sum part = g * w\nper = part * c\nq = g * per",
    backward="sum first = dq * g\nT last = c * first\ndg = dq * per + last * w\ndw = c * g * dq")


def test_the_written_code_takes_any_name_the_statements_allow():
    rng = numpy.random.default_rng(5)
    g, dq = (rng.standard_normal((70, 33)) for _ in range(2))
    w = rng.standard_normal(33)
    for kernel, args in ((NAMES.forward_kernel, (g, w)), (NAMES.backward_kernel, (g, w, g[:, 0], dq))):
        for got, want in zip(kernel.run("c", *args, c=0.5), kernel.run("python", *args, c=0.5)):
            numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("name", ["rms_norm", "layer_norm", "softmax", "cross_entropy", "names"])
def test_the_written_cuda_source_compiles_with_nvcc_to_its_four_kernels(tmp_path, name):
    source = tmp_path / f"{name}.cu"
    op = NAMES if name == "names" else module(name).OP
    source.write_text(op.cuda_code())
    name = op.short_name
    cubin = tmp_path / f"{name}.cubin"
    subprocess.run(["nvcc", "-cubin", "-arch=sm_80", "-Werror", "all-warnings", f"-I{SDK_INCLUDE_DIR}", str(source),
                    "-o", str(cubin)], check=True, capture_output=True, timeout=300)
    symbols = cubin.read_bytes()
    for stage in ("forward", "backward"):
        for sfx in ("f32", "f64"):
            assert f".text.{name}_{stage}_{sfx}".encode() in symbols


@pytest.mark.slow
@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 2e-6)])
@pytest.mark.parametrize("rows", [3, 70])  # 70 rows: 3 parts of the feature sums, 2 feature groups
def test_the_cuda_kernels_agree_with_python_on_the_simulator(dtype, tol, rows, monkeypatch):
    from opsdk.kernels import cudasim

    monkeypatch.setenv("OPSDK_CUDA_SIM", "1")
    cudasim.install_unless_a_gpu()
    import cupy

    rng = numpy.random.default_rng(2)
    K = BLOCK + 45 if rows == 3 else 45  # a row longer than a block, a partial warp
    x = rng.standard_normal((rows, K)).astype(dtype)
    w, b = (rng.uniform(0.5, 1.5, x.shape[1]).astype(dtype) for _ in range(2))
    dy = rng.standard_normal(x.shape).astype(dtype)
    fwd, bwd = LAYER.OP.kernels
    want = fwd.run("python", x, w, b, eps=1e-5)
    got = fwd.run("cuda", *map(cupy.asarray, (x, w, b)), eps=1e-5)
    grads = bwd.run("python", x, w, want[1], want[2], dy)
    got_grads = bwd.run("cuda", *map(cupy.asarray, (x, w, want[1], want[2], dy)))
    for g, e in zip((*got, *got_grads), (*want, *grads)):
        numpy.testing.assert_allclose(cupy.asnumpy(g), e, rtol=tol, atol=tol)
    x3 = x[:, :40].reshape(rows, 8, 5)  # softmax along the middle axis: a thread a row
    with numpy.errstate(invalid="ignore"):
        numpy.testing.assert_allclose(cupy.asnumpy(SOFTMAX.OP.forward_kernel.run("cuda", cupy.asarray(x3))),
                                      SOFTMAX.OP.forward_kernel.run("python", x3), rtol=tol, atol=tol)
    x[1, 7] = numpy.nan  # the row max: NaN in one thread's partial wins the block's max
    label = numpy.arange(rows) % K
    rowmax = CE.OP.forward_kernel.run("cuda", cupy.asarray(x), cupy.asarray(label), ignore_index=-100)[1]
    numpy.testing.assert_array_equal(cupy.asnumpy(rowmax), x.max(axis=1))
