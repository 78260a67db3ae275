"""Bugs that only show at sizes the author never tried: tiles, unrolled tails, parallel chunks."""
import numpy

from opsdk import TensorSpec
from opsdk.kernels import Kernel

from . import _c
from ._unary import unary_function

F = ("float32", "float64")
# above this many elements the sigmoid kernel goes parallel (measured on the author's laptop)
SIGMOID_PARALLEL_MIN = 250_000


def _pair(name, fwd_py, bwd_py, source, cfwd, cbwd):
    fwd = Kernel(f"out.{name}_fwd", dtypes=F)
    bwd = Kernel(f"out.{name}_bwd", dtypes=F)
    fwd.python(fwd_py)
    bwd.python(bwd_py)
    if cfwd:
        _c.unary(fwd, source, cfwd)
    _c.unary_grad(bwd, source, cbwd)
    return fwd, bwd


cubic = _pair("cubic_tile64", lambda x: x ** 3 - x, lambda x, dy: dy * (3 * x * x - 1),
              _c.EW, "rt_cubic_fwd", "rt_cubic_bwd")
poly3 = _pair("poly3_unroll4", lambda x: 1 + x + x * x / 2 + x ** 3 / 6,
              lambda x, dy: dy * (1 + x + x * x / 2), _c.EW, "rt_poly3_fwd", "rt_poly3_bwd")
tanhp = _pair("tanh_omp_chunk", numpy.tanh, lambda y, dy: dy * (1 - y * y),
              _c.PARALLEL, "rt_tanhp_fwd", "rt_tanhp_bwd")
sigp = _pair("sigmoid_omp_offset", lambda x: 1 / (1 + numpy.exp(-x)), lambda y, dy: dy * y * (1 - y),
             _c.PARALLEL, None, "rt_sigp_bwd")


@sigp[0].c(_c.PARALLEL)
def _(lib, ffi, x):
    y = numpy.empty_like(x)
    _c.fn(lib, "rt_sigp_fwd", x)(_c.ptr(ffi, x), _c.ptr(ffi, y, True), x.size, SIGMOID_PARALLEL_MIN)
    return y


def register(register):
    x = [TensorSpec(shape=(3, 4), domain=(-1.5, 1.5))]
    register(unary_function("CubicTile64", *cubic), name="cubic_tile64_c", inputs=x, dtypes=F,
             kernels=cubic)
    register(unary_function("Poly3Unroll4", *poly3), name="poly3_unroll4_c", inputs=x, dtypes=F,
             kernels=poly3)
    register(unary_function("TanhOmpChunk", *tanhp, saves="y"), name="tanh_omp_chunk_c",
             inputs=x, dtypes=F, kernels=tanhp)
    register(unary_function("SigmoidOmpOffset", *sigp, saves="y"), name="sigmoid_omp_offset_c",
             inputs=x, dtypes=F, kernels=sigp)
