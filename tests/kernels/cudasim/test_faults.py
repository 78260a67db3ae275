"""What a GPU would show and the simulator reports instead of crashing or hanging: each names the
kernel, the thread and the cause."""
import os
import subprocess
import sys

import numpy
import pytest

from opsdk.errors import CudaSimulatorError

from .conftest import requires_hooks


def _run(probe, name, grid, block, args, **kw):
    probe.get_function(name)(grid, block, args, **kw)


# -- out of bounds ------------------------------------------------------------------------------

@requires_hooks
@pytest.mark.parametrize("n", [1, 7, 255, 257, 300, 4097])
def test_a_missing_bounds_check_is_caught_at_the_first_element_past_the_end(cp, probe, n):
    x, y = cp.zeros(n, cp.float32), cp.zeros(n, cp.float32)
    with pytest.raises(CudaSimulatorError) as error:
        _run(probe, "copy_unchecked", ((n + 255) // 256 + 1,), (256,), (x, y))
    message = str(error.value)
    assert "kernel 'copy_unchecked'" in message and "out-of-bounds" in message
    assert f"argument 'x' (float32[{n}]" in message and f"(element {n}; it has {n})" in message
    block, thread = divmod(n, 256)
    assert f"block ({block},0,0), thread ({thread},0,0)" in message


@requires_hooks
def test_a_write_past_the_end_names_the_written_argument(cp, probe):
    y = cp.zeros(10, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"write of 4 bytes of argument 'y' \(float32\[10\].*element 10"):
        _run(probe, "write_at", (1,), (32,), (y, numpy.int64(10)))


@requires_hooks
def test_a_read_before_the_start_is_caught(cp, probe):
    x, y = cp.zeros(10, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"read of 4 bytes of argument 'x'.*4 bytes before its start"):
        _run(probe, "read_at", (1,), (32,), (x, y, numpy.int64(-1)))


def test_a_read_far_away_hits_the_guard_region_or_unmapped_memory(cp, probe):
    x, y = cp.zeros(10, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match="(?s)kernel .read_at.*out-of-bounds"):
        _run(probe, "read_at", (1,), (32,), (x, y, numpy.int64(5000)))


def test_the_process_survives_and_later_launches_work(cp, probe):
    x, y = cp.zeros(4, cp.float32), cp.zeros(4, cp.float32)
    for _ in range(3):
        with pytest.raises(CudaSimulatorError):
            _run(probe, "copy_unchecked", (1,), (32,), (x, y))
    z = cp.arange(8, dtype=cp.float32)
    out = cp.zeros(8, cp.float32)
    _run(probe, "copy_unchecked", (1,), (8,), (z, out))
    assert out.get().tolist() == list(range(8))


# -- shared memory -------------------------------------------------------------------------------

@requires_hooks
def test_reading_shared_memory_before_the_barrier_after_the_store_is_caught(cp, probe):
    x, out = cp.ones(256, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError) as error:
        _run(probe, "block_sum", (1,), (256,), (x, out, numpy.int32(256), numpy.int32(1)))
    message = str(error.value)
    assert "read of uninitialised shared memory" in message
    assert "__shared__ 's'" in message and "probe.cu" in message


@requires_hooks
def test_a_missing_barrier_inside_a_reduction_loop_is_a_race(cp, probe):
    x, out = cp.ones(256, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match="(?s)shared memory race.*since the last __syncthreads"):
        _run(probe, "block_sum", (1,), (256,), (x, out, numpy.int32(256), numpy.int32(2)))


def test_races_can_be_switched_off(cp, probe, monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM_RACECHECK", "0")
    x, out = cp.ones(256, cp.float32), cp.zeros(1, cp.float32)
    _run(probe, "block_sum", (1,), (256,), (x, out, numpy.int32(256), numpy.int32(2)))
    assert out.get()[0] != 256.0  # the race gives a wrong sum, as it may on a GPU


@requires_hooks
def test_static_shared_memory_out_of_bounds_names_the_variable(cp, probe):
    out = cp.zeros(64, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"byte 128 of __shared__ 's' .*which has 128 bytes"):
        _run(probe, "shared_out_of_bounds", (1,), (64,), (out,))


@requires_hooks
def test_dynamic_shared_memory_is_as_large_as_launched(cp, probe):
    out = cp.zeros(64, cp.float32)
    _run(probe, "dynamic_shared", (1,), (64,), (out,), shared_mem=64 * 4)
    assert out.get().tolist() == [float((i + 1) % 64) for i in range(64)]
    with pytest.raises(CudaSimulatorError, match="beyond the 128 bytes launched"):
        _run(probe, "dynamic_shared", (1,), (64,), (out,), shared_mem=32 * 4)


# -- barriers and warp collectives: a diagnosis, never a hang -----------------------------------

def test_a_barrier_some_threads_return_before_is_diagnosed(cp, probe):
    out = cp.zeros(64, cp.float32)
    with pytest.raises(CudaSimulatorError) as error:
        _run(probe, "exit_before_barrier", (1,), (64,), (out, numpy.int32(40)))
    message = str(error.value)
    assert "barrier not reached by every thread" in message
    assert "reached by 40 of the block's 64 threads" in message and "(40,0,0)-(63,0,0)" in message


def test_threads_at_different_barriers_are_diagnosed(cp, probe):
    out = cp.zeros(128, cp.float32)
    with pytest.raises(CudaSimulatorError, match="different barriers.*threads \\(0,0,0\\)-\\(63,0,0\\)"):
        _run(probe, "divergent_barriers", (1,), (128,), (out,))


def test_a_shuffle_by_a_lane_outside_its_mask_is_diagnosed(cp, probe):
    x, out = cp.ones(32, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match=r"lane 16 of warp 0, which is not in its mask"):
        _run(probe, "warp_sum", (1,), (32,), (x, out, numpy.uint32(0x0000FFFF)))


def test_a_shuffle_reading_exited_lanes_poisons_what_it_returns(cp, probe):
    x, out = cp.ones(32, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError) as error:
        _run(probe, "warp_sum_after_exit", (1,), (32,), (x, out, numpy.int32(20)))
    message = str(error.value)
    assert "output 'out' holds 1 values computed from a warp shuffle that read a lane not taking part" in message
    assert "in the mask but has exited" in message


def test_a_shuffle_whose_mask_lanes_wait_at_a_barrier_is_a_deadlock_not_a_hang(cp, probe):
    out = cp.zeros(32, cp.float32)
    with pytest.raises(CudaSimulatorError) as error:
        _run(probe, "shuffle_waits_for_barrier", (1,), (32,), (out,))
    message = str(error.value)
    assert "not reached by every thread of its mask" in message
    assert "lanes 16-31" in message and "waits at __syncthreads()" in message


# -- traps --------------------------------------------------------------------------------------

def test_integer_division_by_zero_is_reported(cp, probe):
    a, out = cp.ones(4, cp.int32), cp.zeros(4, cp.int32)
    with pytest.raises(CudaSimulatorError, match="integer division by zero"):
        _run(probe, "divide", (1,), (4,), (a, out, numpy.int32(0)))


def test_a_failed_device_assert_names_the_condition(cp, probe):
    x = cp.asarray(numpy.array([1.0, -1.0], numpy.float32))
    with pytest.raises(CudaSimulatorError, match=r"device-side assert\(x\[threadIdx.x\] >= 0.0f\) failed"):
        _run(probe, "asserts", (1,), (2,), (x,))


def test_a_kernel_that_never_finishes_times_out(cp, probe, monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM_TIMEOUT", "1")
    flag = cp.zeros(1, cp.int32)
    with pytest.raises(CudaSimulatorError, match="ran longer than 1 s"):
        _run(probe, "spin_forever", (1,), (1,), (flag,))


def test_a_stack_overflow_is_reported(cp, probe):
    out = cp.zeros(1, cp.int32)
    with pytest.raises(CudaSimulatorError, match="stack overflow"):
        _run(probe, "recursion", (1,), (2,), (out, numpy.int32(10_000)))


def test_unwritten_output_elements_of_an_opsdk_kernel_are_an_error(cp, probe):
    from opsdk.kernels import CudaSource, Kernel

    kernel = Kernel("tests.sim_unwritten")
    kernel.python(lambda x: x)

    @kernel.cuda(CudaSource(os.path.join(os.path.dirname(__file__), "data", "probe.cu")))
    def _(module, x):
        y = cp.empty_like(x)
        module.get_function("uninit_output")((1,), (256,), (y, numpy.int64(x.size)))
        return y

    with pytest.raises(CudaSimulatorError, match="1 of 100 elements that no kernel wrote .first at flat index 99"):
        kernel.run("cuda", cp.ones(100, cp.float32))


@pytest.mark.slow
def test_a_segfault_outside_a_kernel_is_not_swallowed():
    code = ("import ctypes, opsdk.kernels.cudasim as s; s.install(); import cupy; "
            "cupy.zeros(4); ctypes.string_at(1)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
