"""Each finding of issue 22 planted in a small kernel (data/findings.cu), its report checked for the
cause and the file:line of the faulting statement (and the call chain through __device__ helpers):
global-memory races, never-written reads, divergent barriers, exited-lane masks in strict mode."""
import os
import re

import numpy
import pytest

from opsdk.errors import CudaSimulatorError
from opsdk.kernels.cudasim import launch

from .conftest import DATA, requires_hooks

PATH = os.path.join(DATA, "findings.cu")
with open(PATH, encoding="utf-8") as _f:
    SOURCE = _f.read()
LINES = {m.group(1): SOURCE.count("\n", 0, m.start()) + 1 for m in re.finditer(r"// L:(\w+)", SOURCE)}

pytestmark = requires_hooks


def at(label):
    """The file:line a report must name for the statement marked ``// L:label``."""
    return re.escape(f"{PATH}:{LINES[label]}")


@pytest.fixture(scope="module")
def findings(simulator):
    return simulator.RawModule(code=f'#line 1 "{PATH}"\n' + SOURCE)


@pytest.fixture
def strict():
    launch._strict[0] = True
    yield
    launch._strict[0] = None


def _run(module, name, grid, block, args):
    module.get_function(name)(grid, block, args)


def _scatter_args(cp, n=64, targets=4):
    return (cp.ones(n, cp.float32), cp.asarray(numpy.arange(n, dtype=numpy.int32) % targets),
            cp.zeros(targets, cp.float32), numpy.int32(n))


@pytest.mark.parametrize("grid, block", [((1,), (64,)), ((4,), (16,))], ids=["one-block", "across-blocks"])
def test_a_backward_scatter_with_plus_equals_is_a_global_race_at_its_line(cp, findings, grid, block):
    with pytest.raises(CudaSimulatorError, match=rf"(?s)global memory race at {at('scatter_plus')}.*argument 'dx'"):
        _run(findings, "scatter_add", grid, block, (*_scatter_args(cp), numpy.int32(0)))


def test_the_atomic_scatter_is_no_race(cp, findings):
    dy, index, dx, n = _scatter_args(cp)
    _run(findings, "scatter_add", (4,), (16,), (dy, index, dx, n, numpy.int32(1)))
    assert dx.get().tolist() == [16.0] * 4


def test_a_race_inside_a_device_helper_names_the_helper_and_its_caller(cp, findings):
    dy, index, dx, n = _scatter_args(cp)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)global memory race at {at('accumulate_body')}"
                                                 rf".*called from {at('accumulate_call')}"):
        _run(findings, "scatter_add_helper", (1,), (64,), (dy, index, dx, n))


def test_an_in_place_shift_across_blocks_is_a_race(cp, findings):
    with pytest.raises(CudaSimulatorError, match=rf"global memory race at {at('shift')}"):
        _run(findings, "shift_in_place", (4,), (16,), (cp.arange(64, dtype=cp.float32), numpy.int32(64)))


def test_a_read_of_output_memory_no_thread_wrote_is_reported(cp, findings):
    x, index = cp.ones(8, cp.float32), cp.zeros(8, cp.int32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)uninitialised global memory at {at('max_read')}"):
        _run(findings, "scatter_max", (1,), (8,), (x, index, cp.empty(1, cp.float32), numpy.int32(8)))
    y = cp.full(1, -numpy.inf, cp.float32)  # filled first: the same kernel is right
    _run(findings, "scatter_max", (1,), (8,), (x, index, y, numpy.int32(8)))
    assert float(y[0]) == 1.0


def test_the_last_block_idiom_with_a_fence_is_no_race(cp, findings):
    x, partial, ticket, out = cp.ones(256, cp.float32), cp.zeros(4, cp.float32), cp.zeros(1, cp.uint32), \
        cp.zeros(1, cp.float32)
    _run(findings, "last_block_sum", (4,), (64,), (x, partial, ticket, out, numpy.int32(256)))
    assert float(out[0]) == 256.0


def test_a_barrier_in_a_branch_is_a_divergent_barrier_not_the_race_it_causes(cp, findings):
    with pytest.raises(CudaSimulatorError, match=rf"(?s)divergent barrier.*{at('branch_barrier')}"):
        _run(findings, "barrier_in_branch", (1,), (64,), (cp.ones(64, cp.float32), cp.zeros(64, cp.float32),
                                                         numpy.int32(32)))


def test_a_mask_naming_exited_lanes_passes_by_default_and_is_reported_in_strict_mode(cp, findings):
    x, y = cp.ones(32, cp.float32), cp.zeros(1, cp.float32)
    _run(findings, "sum_live_lanes", (1,), (32,), (x, y, numpy.int32(20)))
    assert float(y[0]) == 20.0


def test_strict_mode_names_the_shuffle_whose_mask_names_exited_lanes(cp, findings, strict):
    x, y = cp.ones(32, cp.float32), cp.zeros(1, cp.float32)
    with pytest.raises(CudaSimulatorError, match=rf"(?s)mask names exited lanes.*{at('exited_mask')}"):
        _run(findings, "sum_live_lanes", (1,), (32,), (x, y, numpy.int32(20)))
    _run(findings, "sum_live_lanes_masked", (1,), (32,), (x, y, numpy.int32(20)))  # its mask: no finding
    assert float(y[0]) == 20.0


def test_an_out_of_bounds_read_in_a_helper_names_the_helper_and_its_caller(cp, findings):
    with pytest.raises(CudaSimulatorError, match=rf"(?s)out-of-bounds access at {at('load_body')}"
                                                 rf".*called from {at('load_call')}"):
        _run(findings, "read_past_end", (1,), (8,), (cp.ones(8, cp.float32), cp.zeros(8, cp.float32), numpy.int32(8)))


def test_a_shared_race_names_its_line(cp, findings):
    with pytest.raises(CudaSimulatorError, match=rf"shared memory race at {at('tree_add')}"):
        _run(findings, "tree_no_barrier", (1,), (64,), (cp.ones(64, cp.float32), cp.zeros(1, cp.float32)))


@pytest.mark.parametrize("mode", ["default", "strict"])
def test_an_early_return_before_a_barrier_is_a_divergent_barrier_in_either_mode(cp, findings, mode):
    launch._strict[0] = mode == "strict"
    try:
        with pytest.raises(CudaSimulatorError, match=rf"(?s)divergent barrier.*{at('early_return_barrier')}"):
            _run(findings, "early_return_block_sum", (1,), (64,),
                 (cp.ones(64, cp.float32), cp.zeros(1, cp.float32), numpy.int32(40)))
    finally:
        launch._strict[0] = None
