"""What the outsider's packs found in the simulator, one behaviour per test (data/outsider_probe.cu):
__syncwarp() without a mask, __syncwarp as the only warp-level memory order, atomics racing with
plain accesses, misaligned vector loads, out-of-range float-to-int conversions, uninitialised
locals, double-to-half rounding, schedules, failed builds, the differential's float32 allowance."""
import os

import numpy
import pytest

from opsdk.errors import CudaSimulatorError, OpsdkError
from opsdk.verification.check import cuda_cases
from opsdk.kernels.cudasim import differential, launch, loader
from opsdk.kernels.cudasim.toolchain import toolchain

from .conftest import DATA, requires_hooks, run_uninstrumented


@pytest.fixture(scope="module")
def outsider(simulator):
    path = os.path.join(DATA, "outsider_probe.cu")
    with open(path, encoding="utf-8") as f:
        return simulator.RawModule(code=f'#line 1 "{path}"\n' + f.read())


def _run(module, name, grid, block, args, **kw):
    module.get_function(name)(grid, block, args, **kw)


def test_syncwarp_without_a_mask_compiles_and_orders_a_warp_reduction(cp, outsider):
    x = cp.arange(64, dtype=cp.float32)
    y = cp.zeros(1, cp.float32)
    _run(outsider, "syncwarp_sum", (1,), (32,), (x, y))
    assert float(y[0]) == sum(range(64))


@requires_hooks
def test_a_shuffle_between_a_store_and_another_lanes_load_is_a_race(cp, outsider):
    with pytest.raises(CudaSimulatorError, match=r"(?s)shared memory race.*which thread \(\d+,0,0\) wrote"):
        _run(outsider, "shuffle_is_no_fence", (1,), (32,), (cp.zeros(32, cp.float32),))


@requires_hooks
def test_an_atomic_after_another_threads_unsynchronised_store_is_a_race(cp, outsider):
    x, y = cp.ones(64, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"(?s)atomic on byte 0 of __shared__ 'total'.*thread \(0,0,0\) "
                                                 r"stored to \(a plain store\)"):
        _run(outsider, "shared_total", (1,), (64,), (x, y, numpy.int32(0)))


@requires_hooks
def test_a_load_of_a_total_other_threads_update_atomically_needs_a_barrier(cp, outsider):
    x, y = cp.ones(64, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"(?s)shared memory race.*'total'"):
        _run(outsider, "shared_total", (1,), (64,), (x, y, numpy.int32(1)))


def test_atomics_between_barriers_are_right(cp, outsider):
    x, y = cp.ones(64, cp.float32), cp.zeros(1, cp.float32)
    _run(outsider, "shared_total", (1,), (64,), (x, y, numpy.int32(2)))
    assert float(y[0]) == 64.0


@requires_hooks
def test_a_misaligned_float4_load_names_the_argument_and_the_alignment(cp, outsider):
    x, y = cp.zeros(16, cp.float32), cp.zeros(1, cp.float32)
    _run(outsider, "load_float4", (1,), (1,), (x, y, numpy.int64(4)))  # 16 bytes in: aligned
    with pytest.raises(CudaSimulatorError) as error:
        _run(outsider, "load_float4", (1,), (1,), (x, y, numpy.int64(1)))
    message = str(error.value)
    assert "misaligned address" in message and "argument 'x' (float32[16]" in message
    assert "4 bytes past a 16-byte boundary" in message


def test_conversion_intrinsics_saturate_as_a_gpus_cvt_does(cp, outsider):
    x = cp.asarray([-1e12])
    plain, intrinsic = cp.zeros(1, cp.int32), cp.zeros(1, cp.int32)
    try:
        _run(outsider, "to_int", (1,), (1,), (x, plain, intrinsic))
    except CudaSimulatorError:
        pass  # the plain cast, after the intrinsic (next test)
    assert int(intrinsic[0]) == -2**31


def test_an_out_of_range_plain_conversion_is_named_or_saturates(cp, outsider):
    x = cp.asarray([3e9])
    plain, intrinsic = cp.zeros(1, cp.int32), cp.zeros(1, cp.int32)
    if "-fsanitize=float-cast-overflow" in toolchain().conversions:
        with pytest.raises(CudaSimulatorError, match=r"(?s)float-to-integer conversion out of range.*"
                                                     r"conversion of 'double' 3000000000 to 'int'.*saturates"):
            _run(outsider, "to_int", (1,), (1,), (x, plain, intrinsic))
    else:  # a compiler told to saturate (clang's -fno-strict-float-cast-overflow), or neither
        _run(outsider, "to_int", (1,), (1,), (x, plain, intrinsic))
        if toolchain().conversions:
            assert int(plain[0]) == 2**31 - 1
    assert int(intrinsic[0]) == 2**31 - 1


@pytest.mark.skipif(not toolchain().locals, reason="the C++ compiler cannot pattern-fill uninitialised locals")
def test_an_uninitialised_accumulator_is_garbage_not_a_lucky_zero(cp, outsider):
    x, y = cp.ones(8, cp.float32), cp.zeros(1, cp.float32)
    _run(outsider, "uninit_sum", (1,), (1,), (x, y, numpy.int32(8)))
    assert abs(float(y[0])) > 1e30


def test_double_to_half_rounds_once(cp, outsider):
    # 1 + 2^-11 is the tie between two halves; 2^-40 above it rounds up, but via float (which
    # drops the 2^-40) it would land on the tie and round to even
    x = cp.asarray([1 + 2**-11 + 2**-40, 1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11 + 2**-40)])
    bits = cp.zeros(4, cp.uint16)
    _run(outsider, "double_to_half_bits", (1,), (4,), (x, bits))
    want = numpy.array([1 + 2**-11 + 2**-40, 1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11 + 2**-40)]).astype(
        numpy.float16).view(numpy.uint16)
    assert bits.get().tolist() == want.tolist() == [0x3C01, 0x3C00, 0x3C02, 0xBC01]


def _arrivals(cp, outsider, monkeypatch, schedule):
    monkeypatch.setenv("OPSDK_CUDA_SIM_SCHEDULE", schedule)
    counter, threads, blocks = cp.zeros(2, cp.int32), cp.zeros(4 * 64, cp.int32), cp.zeros(4, cp.int32)
    _run(outsider, "arrival", (4,), (64,), (counter, threads, blocks))
    return threads.get().tolist(), blocks.get().tolist()


def test_threads_and_blocks_run_in_order_by_default(cp, outsider, monkeypatch):
    assert _arrivals(cp, outsider, monkeypatch, "") == (list(range(256)), [0, 1, 2, 3])


def test_a_reversed_schedule_runs_the_last_block_and_thread_first(cp, outsider, monkeypatch):
    threads, blocks = _arrivals(cp, outsider, monkeypatch, "reverse")
    assert blocks == [3, 2, 1, 0]
    assert threads[:64] == list(range(255, 191, -1))


def test_a_shuffled_schedule_is_a_seeded_permutation(cp, outsider, monkeypatch):
    first = _arrivals(cp, outsider, monkeypatch, "shuffle:5")
    assert sorted(first[0]) == list(range(256)) and first[0] != list(range(256))
    assert _arrivals(cp, outsider, monkeypatch, "shuffle:5") == first
    assert _arrivals(cp, outsider, monkeypatch, "shuffle:6") != first


def test_an_unknown_schedule_is_refused_naming_the_choices(monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM_SCHEDULE", "backwards")
    with pytest.raises(OpsdkError, match="expected: in-order, reverse, shuffle or shuffle:SEED"):
        launch.schedule()


def test_a_source_that_failed_to_build_is_not_rebuilt_in_the_process(cp, monkeypatch):
    calls = []
    real = loader.build_module
    monkeypatch.setattr(loader, "build_module", lambda *a, **k: calls.append(a) or real(*a, **k))
    module = cp.RawModule(code='extern "C" __global__ void broken(float *y) { y[0] = undeclared; }')
    for _ in range(2):
        with pytest.raises(cp.cuda.compiler.CompileException, match="undeclared"):
            module.get_function("broken")
    assert len(calls) == 1


def test_float32_reductions_may_drift_by_sqrt_k_roundings_float64_may_not():
    ref = numpy.array([1000.0])
    want = ref.astype(numpy.float32)
    drift = ref + 20 * numpy.finfo(numpy.float32).eps * 1000  # 20 roundings of the result
    got = drift.astype(numpy.float32)
    assert differential._disagreement(got, want, ref, "float32", reduced=210000) == ""
    assert "allowed" in differential._disagreement(got, want, ref, "float32", reduced=1)
    assert "allowed" in differential._disagreement(drift, ref, ref, "float64", reduced=210000)


def test_a_disagreement_after_a_strided_view_says_so():
    record = launch.LaunchRecord("rowsum_f32", (1,), (128,), 0, 0, 0, (("x", (5, 3), (4, 20)),))
    note = differential._views_note([record])
    assert "kernel 'rowsum_f32' was given argument 'x' as a non-contiguous view" in note
    assert "strides (4, 20)" in note and differential._views_note([record._replace(views=())]) == ""


UNINSTRUMENTED = r'''
import os, sys, numpy
from opsdk.kernels import cudasim
cudasim.install()
import cupy
from opsdk.errors import CudaSimulatorError
path = os.path.join(sys.argv[1], "outsider_probe.cu")
m = cupy.RawModule(code=f'#line 1 "{path}"\n' + open(path).read())
x, y = cupy.zeros(16, cupy.float32), cupy.zeros(1, cupy.float32)
try:
    m.get_function("copy_float4")((1,), (1,), (x, cupy.zeros(4, cupy.float32), numpy.int64(1)))
    print("no error")
except CudaSimulatorError as e:
    print(str(e).replace("\n", " | "))
'''


@pytest.mark.slow
def test_without_instrumentation_a_general_protection_fault_points_at_misalignment(tmp_path):
    out = run_uninstrumented(UNINSTRUMENTED, tmp_path).strip()
    if out == "no error":  # a compiler that moves 16 bytes unaligned-safe (movups): nothing faults on a CPU
        pytest.skip("the host compiler's float4 copy does not fault on a misaligned address")
    assert "general-protection fault" in out and "misaligned" in out and "null" not in out


@pytest.mark.parametrize("op", ["example.swish", "nn.softmax", "nn.layer_norm", "nn.cross_entropy"])
def test_first_party_kernels_give_the_same_bytes_under_every_schedule(cp, monkeypatch, op):
    from opsdk.verification.check import select_ops

    (found,), _ = select_ops((op,), ())
    for case in cuda_cases.cases(found, dtypes=("float32",), layouts=("contiguous",)):
        args, kwargs = differential.arguments(case, 4097) or differential.arguments(case, 257)
        outputs = []
        for schedule in ("in-order", "reverse", "shuffle:3"):
            monkeypatch.setenv("OPSDK_CUDA_SIM_SCHEDULE", schedule)
            placed, placed_kw = differential._placed(args, kwargs, cp, "contiguous")
            got = differential._flat(differential._host(case.kernel.run("cuda", *placed, **placed_kw)))
            outputs.append([g.tobytes() for g in got])
        assert outputs[0] == outputs[1] == outputs[2], case.label
