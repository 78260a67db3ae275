"""The simulator's fast paths find what its general paths find (data/fast_paths.cu): a shared word's
byte shadows kept as one come apart for a byte access, stacks handed from exited threads to fresh
ones, a warp's lanes run together without starving a warp that waits for it, the allocations of
recent accesses looked up by page; under every schedule."""
import os
import re

import numpy
import pytest

from opsdk.errors import CudaSimulatorError

from .conftest import DATA, requires_hooks

PATH = os.path.join(DATA, "fast_paths.cu")
with open(PATH, encoding="utf-8") as _f:
    SOURCE = _f.read()
LINES = {m.group(1): SOURCE.count("\n", 0, m.start()) + 1 for m in re.finditer(r"// L:(\w+)", SOURCE)}
SCHEDULES = ("in-order", "reverse", "shuffle:5")


def at(*labels):
    return "(" + "|".join(re.escape(f"{PATH}:{LINES[label]}") for label in labels) + ")"


@pytest.fixture(scope="module")
def fast(simulator):
    return simulator.RawModule(code=f'#line 1 "{PATH}"\n' + SOURCE)


@pytest.fixture(params=SCHEDULES)
def schedule(request, monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM_SCHEDULE", request.param)
    return request.param


@requires_hooks
def test_a_byte_of_a_word_another_thread_wrote_whole_is_a_race_without_a_barrier(cp, fast, schedule):
    out = cp.zeros(64, cp.int32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)race.* at {at('byte_read', 'word_write')}\n"):
        fast.get_function("word_then_byte")((1,), (64,), (out, numpy.int32(0)))


def test_bytes_of_words_written_whole_read_after_the_barrier(cp, fast, schedule):
    out = cp.zeros(64, cp.int32)
    fast.get_function("word_then_byte")((1,), (64,), (out, numpy.int32(1)))
    words = (numpy.arange(1, 65, dtype=numpy.uint64) * 0x01020304) & 0xFFFFFFFF
    want = [(int(words[t ^ 1]) >> 16) & 0xFF for t in range(64)]
    assert out.get().tolist() == want


@requires_hooks
def test_a_word_whose_bytes_other_threads_wrote_is_a_race_without_a_barrier(cp, fast, schedule):
    out = cp.zeros(16, cp.uint32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)race.* at {at('word_read', 'byte_write')}\n"):
        fast.get_function("bytes_then_word")((1,), (64,), (out, numpy.int32(0)))


def test_a_word_whose_bytes_other_threads_wrote_read_after_the_barrier(cp, fast, schedule):
    out = cp.zeros(16, cp.uint32)
    fast.get_function("bytes_then_word")((1,), (64,), (out, numpy.int32(1)))
    b = numpy.arange(1, 65, dtype=numpy.uint8).view(numpy.uint32)
    assert out.get().tolist() == [int(b[(t + 1) % 16]) for t in range(16)]


@requires_hooks
def test_a_write_after_every_thread_read_the_word_whole_is_a_race(cp, fast, schedule):
    out = cp.zeros(64, cp.float32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)race.* at {at('late_write')}\n"):
        fast.get_function("readers_then_writer")((1,), (64,), (out,))


@pytest.mark.parametrize("grid, block, n", [((3,), (256,), 700), ((2,), (1024,), 2048), ((5,), (64,), 300)])
def test_threads_that_exit_at_once_beside_threads_that_wait(cp, fast, schedule, grid, block, n):
    x = numpy.random.default_rng(0).standard_normal(n).astype(numpy.float32)
    y = cp.zeros(n, cp.float32)
    fast.get_function("mixed_exits")(grid, block, (cp.asarray(x), y, numpy.int32(n)))
    i = numpy.arange(n)
    leaves = (i % block[0]) % 64 >= 32
    sums = numpy.zeros(n)
    for w in range(0, n, 32):  # each warp of the threads that stay sums its x, times 0 + 1 + ... + 15
        sums[w:w + 32] = x[w:w + 32].astype(numpy.float64).sum() * 120
    numpy.testing.assert_allclose(y.get(), numpy.where(leaves, -x, sums), rtol=1e-4, atol=1e-2)


def test_a_warp_spinning_on_another_warps_flag_lets_it_run(cp, fast, schedule):
    out = cp.zeros(64, cp.int32)
    fast.get_function("spin_on_flag")((1,), (64,), (out,))
    assert out.get().tolist()[32:] == [1] * 32


@requires_hooks
def test_the_page_lookup_of_recent_allocations_tells_many_apart(cp, fast, schedule):
    n = 3000
    arrays = [cp.full(n, float(k + 1), cp.float32) for k in range(8)]
    out = cp.zeros(n, cp.float32)
    fast.get_function("gather8")(((n + 255) // 256,), (256,), (*arrays, out, numpy.int32(n), numpy.int32(0)))
    assert out.get().tolist() == [36.0] * n
    with pytest.raises(CudaSimulatorError, match=rf"(?s)out-of-bounds.* at {at('past_end')}.*argument 'a5'"):
        fast.get_function("gather8")(((n + 255) // 256,), (256,), (*arrays, out, numpy.int32(n), numpy.int32(1)))


@requires_hooks
@pytest.mark.parametrize("grid, block", [((1,), (64,)), ((4,), (16,))], ids=["one-block", "across-blocks"])
def test_a_plain_store_after_other_threads_atomics_is_a_global_race(cp, fast, schedule, grid, block):
    x, done = cp.zeros(4, cp.int32), cp.zeros(64, cp.int32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)global memory race at "
                                                 rf"{at('store_after_atomics', 'atomics_first')}\n.*argument 'x'"):
        fast.get_function("atomics_then_store")(grid, block, (x, done))


@requires_hooks
@pytest.mark.parametrize("grid, block", [((1,), (64,)), ((4,), (16,))], ids=["one-block", "across-blocks"])
def test_an_atomic_on_what_another_thread_stored_is_a_global_race(cp, fast, schedule, grid, block):
    x, done = cp.zeros(4, cp.int32), cp.zeros(64, cp.int32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)global memory race at "
                                                 rf"{at('atomic_after_store', 'store_first')}\n.*argument 'x'"):
        fast.get_function("store_then_atomics")(grid, block, (x, done))


def test_a_compare_and_swap_loop_is_no_race(cp, fast, schedule):
    v = numpy.random.default_rng(1).integers(0, 1000, 300).astype(numpy.int32)
    x = cp.zeros(4, cp.int32)
    fast.get_function("cas_max")((5,), (64,), (x, cp.asarray(v), numpy.int32(300)))
    assert int(x.get()[2]) == int(v.max())


def _shared_words(cp, fast, what):
    out = cp.zeros(64, cp.float32)
    fast.get_function("shared_words")((1,), (64,), (out, numpy.int32(what)), shared_mem=64 * 4)
    return out


def test_shared_words_a_thread_each_and_broadcast_after_the_barrier(cp, fast, schedule):
    got = _shared_words(cp, fast, 0).get()
    t = numpy.arange(64)
    assert got.tolist() == ((t + 1) % 64 + 2.0 * ((t + 3) % 64)).astype(numpy.float32).tolist()


# (what, the report): each finding the shared-word fast path hands to the general path
SHARED_FINDINGS = {
    "a neighbour's word rewritten without a barrier": (1, lambda: rf"(?s)race.* at {at('cell_read', 'cell_write')}\n"),
    "a word no thread wrote": (2, lambda: rf"(?s)read of uninitialised shared memory at {at('cell_read')}\n"),
    "a write of a word every thread reads": (3, lambda: rf"(?s)race.* at {at('broadcast_write', 'broadcast')}\n"),
    "past the dynamic memory launched": (
        4, lambda: rf"(?s)out-of-bounds shared memory access at {at('dyn_past')}\n.*beyond the 256 bytes launched"),
    "a plain read of a word others update atomically": (5, lambda: rf"(?s)race.* at {at('count_read', 'count')}\n"),
}


@requires_hooks
@pytest.mark.parametrize("finding", SHARED_FINDINGS)
def test_shared_words_findings_reach_the_general_path(cp, fast, schedule, finding):
    what, report = SHARED_FINDINGS[finding]
    with pytest.raises(CudaSimulatorError, match=report()):
        _shared_words(cp, fast, what)
