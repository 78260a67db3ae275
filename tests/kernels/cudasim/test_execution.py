"""How simulated kernels run: indices, grid-stride loops, barriers, shuffles, votes, atomics."""
import numpy
import pytest

from opsdk.errors import CudaSimulatorError


def test_every_thread_sees_its_own_3d_thread_and_block_index(cp, probe):
    grid, block = (2, 3, 1), (4, 2, 2)
    out = cp.zeros(4 * 2 * 3 * 4 * 2 * 2, cp.uint32)
    probe.get_function("index3d")(grid, block, (out,))
    got = out.get().reshape(-1, 4)
    want = [(tx + 10 * ty + 100 * tz, bx + 10 * by + 100 * bz, 4 + 20 + 200, 2 + 30 + 100)
            for bz in range(1) for by in range(3) for bx in range(2)
            for tz in range(2) for ty in range(2) for tx in range(4)]
    assert [tuple(r) for r in got] == want


def test_a_grid_stride_loop_covers_more_elements_than_threads(cp, probe):
    x = cp.arange(10_007, dtype=cp.float64)
    y = cp.zeros_like(x)
    probe.get_function("grid_stride_scale")((3,), (64,), (x, y, numpy.int64(x.size), 2.0))
    numpy.testing.assert_array_equal(y.get(), 2.0 * numpy.arange(10_007))


def test_a_correct_block_reduction_sums_every_block(cp, probe):
    x = cp.asarray(numpy.arange(512, dtype=numpy.float32))
    out = cp.zeros(2, cp.float32)
    probe.get_function("block_sum")((2,), (256,), (x, out, numpy.int32(256), numpy.int32(0)))
    assert out.get().tolist() == [float(sum(range(256))), float(sum(range(256, 512)))]


def test_barrier_votes_count_and_combine_every_thread(cp, probe):
    out = cp.zeros(3, cp.int32)
    probe.get_function("barrier_votes")((1,), (100,), (out,))
    assert out.get().tolist() == [34, 1, 1]


# -- warp shuffles: PTX shfl.sync's source lane, width segments, out-of-range lanes ---------------

def _source(mode, lane, arg, width):
    """The lane a shuffle reads (its own when the source falls outside its segment)."""
    start, end = lane - lane % width, lane - lane % width + width - 1
    if mode == 0:
        return start + arg % width
    if mode == 1:
        return lane - arg if lane - arg >= start else lane
    if mode == 2:
        return lane + arg if lane + arg <= end else lane
    j = lane ^ arg
    return j if j <= end else lane


@pytest.mark.parametrize("mode, arg, width", [
    (0, 3, 32), (0, 37, 32), (0, 5, 8), (0, -1, 32), (1, 1, 32), (1, 5, 16), (2, 1, 32), (2, 4, 8),
    (2, 31, 32), (3, 1, 32), (3, 16, 32), (3, 4, 8), (3, 16, 16),
])
def test_shuffles_read_the_lane_ptx_names(cp, probe, mode, arg, width):
    out = cp.zeros(32, cp.int32)
    probe.get_function("shuffle")((1,), (32,), (out, numpy.int32(mode), numpy.int32(arg), numpy.int32(width)))
    want = [_source(mode, lane, arg & 31 if mode else arg, width) * 10 + 1 for lane in range(32)]
    assert out.get().tolist() == want


def test_a_double_shuffle_moves_all_64_bits(cp, probe):
    out = cp.zeros(32, cp.float64)
    probe.get_function("shuffle_double")((1,), (32,), (out,))
    assert out.get().tolist() == [(lane ^ 1) + 0.5 for lane in range(32)]


def test_a_width_that_is_not_a_power_of_two_is_refused(cp, probe):
    out = cp.zeros(32, cp.int32)
    with pytest.raises(CudaSimulatorError, match="width must be a power of two"):
        probe.get_function("shuffle")((1,), (32,), (out, numpy.int32(0), numpy.int32(1), numpy.int32(12)))


def test_a_full_mask_warp_reduction_sums_each_warp(cp, probe):
    x = cp.asarray(numpy.arange(64, dtype=numpy.float32))
    out = cp.zeros(2, cp.float32)
    probe.get_function("warp_sum")((1,), (64,), (x, out, numpy.uint32(0xFFFFFFFF)))
    assert out.get().tolist() == [float(sum(range(32))), float(sum(range(32, 64)))]


def test_votes_ballots_matches_and_reductions(cp, probe):
    out = cp.zeros(9, cp.uint32)
    probe.get_function("votes")((1,), (32,), (out,))
    got = out.get().tolist()
    assert got[:4] == [0xAAAAAAAA, 1, 1, 0]
    assert got[4] == 0xFF  # lane 0's group: lanes 0-7 share lane // 8
    assert got[5:7] == [0xFFFFFFFF, 1]
    assert got[7] == sum(range(32))
    assert numpy.uint32(got[8]).view(numpy.int32) == -3


def test_activemask_in_a_branch_names_the_lanes_that_took_it(cp, probe):
    out = cp.zeros(64, cp.uint32)
    probe.get_function("active_in_branch")((1,), (32,), (out,))
    assert out.get()[:16].tolist() == [0xFFFF] * 16
    assert out.get()[32:48].tolist() == [0] * 16


# -- atomics, printf, templates ---------------------------------------------------------------

def test_atomics_from_every_thread_of_every_block_all_land(cp, probe):
    counter, total = cp.zeros(1, cp.int32), cp.zeros(1, cp.float32)
    bits, lowest = cp.zeros(1, cp.uint32), cp.zeros(1, cp.int32)
    probe.get_function("atomics")((5,), (64,), (counter, total, bits, lowest))
    assert counter.get()[0] == 320 and total.get()[0] == 160.0
    assert bits.get()[0] == 0xFFFFFFFF and lowest.get()[0] == -63


def test_shared_memory_atomics_are_not_races(cp, probe):
    out = cp.zeros(4, cp.int32)
    probe.get_function("shared_atomics")((1,), (128,), (out,))
    assert out.get().tolist() == [32, 32, 32, 32]


def test_device_printf_reaches_stdout(cp, probe, capfd):
    probe.get_function("printer")((2,), (32,), (numpy.int32(42),))
    assert "probe says 42" in capfd.readouterr().out


def test_template_kernels_come_from_name_expressions(cp, probe):
    x, y = cp.ones(300, cp.float64), cp.zeros(300, cp.float64)
    probe.get_function("axpy<double>")((2,), (256,), (x, y, 3.0, numpy.int64(300)))
    assert float(y.sum()) == 900.0


def test_maths_functions_and_intrinsics_match_numpy(cp, probe):
    x = numpy.linspace(-3, 3, 64).astype(numpy.float32)
    xd = numpy.linspace(-3.9, 3.9, 64)
    out, outd = cp.zeros(8 * 64, cp.float32), cp.zeros(4 * 64, cp.float64)
    probe.get_function("maths")((1,), (64,), (cp.asarray(x), out, cp.asarray(xd), outd))
    f = out.get().reshape(64, 8)
    d = outd.get().reshape(64, 4)
    import math

    numpy.testing.assert_allclose(f[:, 0], numpy.exp(x), rtol=2e-7)
    numpy.testing.assert_allclose(f[:, 1], [math.erf(v) for v in x], rtol=2e-7, atol=1e-7)
    numpy.testing.assert_allclose(f[:, 2], 1 / numpy.sqrt(x + 4), rtol=2e-7)
    numpy.testing.assert_allclose(f[:, 3], numpy.exp(x), rtol=1e-6)  # __expf: its input rounded first
    numpy.testing.assert_allclose(f[:, 4], x / 3, rtol=2e-7)
    numpy.testing.assert_allclose(f[:, 5], x * x + 1, rtol=2e-7)
    numpy.testing.assert_allclose(f[:, 6], [0.5 * math.erfc(-v / math.sqrt(2)) for v in x], rtol=1e-6)
    numpy.testing.assert_array_equal(f[:, 7], x)
    numpy.testing.assert_allclose(d[:, 0], numpy.exp(xd), rtol=1e-15)
    numpy.testing.assert_allclose(d[:, 1], 1 / numpy.sqrt(xd + 4), rtol=1e-15)
    numpy.testing.assert_allclose([math.erf(v) for v in d[:, 2]], xd / 4, atol=1e-14)
    numpy.testing.assert_array_equal(d[:, 3], numpy.rint((xd.astype(numpy.float32) * numpy.float32(2.5))))


def test_half_precision_arguments_and_arithmetic(cp, probe):
    x = cp.asarray(numpy.array([1.5, -2.0, 3.25, 0.1], numpy.float16))
    y = cp.empty_like(x)
    probe.get_function("takes_half")((1,), (4,), (x, y, numpy.float16(2.0)))
    assert y.get().tolist() == (numpy.array([1.5, -2.0, 3.25, 0.1], numpy.float16) * numpy.float16(2)).tolist()


def test_int_arithmetic_wraps_at_32_bits_as_on_a_gpu(cp, probe):
    out = cp.zeros(2, cp.int32)
    probe.get_function("int_products")((3,), (1,), (out, numpy.int32(2**16), numpy.int32(2**16 + 3)))
    assert out.get().tolist() == [3 * 2**16, -2]  # block 2: 2 * (2^32 - 1) mod 2^32 = -2


def test_cooperative_groups_tiles_reduce_and_sync(cp, probe):
    x = cp.asarray(numpy.arange(128, dtype=numpy.float32))
    out = cp.zeros(1, cp.float32)
    probe.get_function("cg_sum")((1,), (128,), (x, out))
    assert float(out[0]) == float(sum(range(128)))
