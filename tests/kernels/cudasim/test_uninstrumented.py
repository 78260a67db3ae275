"""Without access instrumentation (a compiler lacking -fsanitize=thread, or
OPSDK_CUDA_SIM_INSTRUMENT=0) the simulator still finds what guard pages, canaries and poison
show: far out-of-bounds accesses, writes into an allocation's slack, values computed from
shared memory no thread wrote."""
import pytest

from .conftest import run_uninstrumented

SCRIPT = r'''
import os, sys, numpy
from opsdk.kernels import cudasim
cudasim.install()
import cupy
from opsdk.errors import CudaSimulatorError
code = '#line 1 "probe.cu"\n' + open(os.path.join(sys.argv[1], "probe.cu")).read()
m = cupy.RawModule(code=code, name_expressions=("axpy<float>",))
assert not m._load().build.instrumented

def error(name, grid, block, args):
    try:
        m.get_function(name)(grid, block, args)
    except CudaSimulatorError as e:
        return str(e).replace("\n", " | ")
    return "no error"

x, out = cupy.ones(256, cupy.float32), cupy.zeros(1, cupy.float32)
print("SHARED:", error("block_sum", (1,), (256,), (x, out, numpy.int32(256), numpy.int32(1))))
y = cupy.zeros(7, cupy.float32)
print("SLACK:", error("write_at", (1,), (1,), (y, numpy.int64(7))))
print("FAR:", error("read_at", (1,), (1,), (cupy.zeros(10, cupy.float32), out, numpy.int64(50000))))
good = cupy.zeros(1, cupy.float32)
print("OK:", error("block_sum", (1,), (256,), (x, good, numpy.int32(256), numpy.int32(0))), float(good[0]))
'''


@pytest.mark.slow
def test_guard_pages_canaries_and_poison_without_instrumentation(tmp_path):
    out = run_uninstrumented(SCRIPT, tmp_path)
    lines = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    assert "values computed from shared memory no thread had written" in lines["SHARED"]
    assert "out-of-bounds write to argument 'y'" in lines["SLACK"]
    assert "kernel 'read_at'" in lines["FAR"] and "outside every argument" in lines["FAR"]
    assert lines["OK"] == "no error 256.0"
