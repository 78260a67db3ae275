"""sizes: compiled backends agree with python in float64 at derived sizes (1, 7, 64, 65, 257, ...)."""
from ..backends import REFERENCE
from ..threads import parallel_threads
from .agreement import compare_runs

NAME = "sizes"
SUMMARY = ("compiled kernels agree with python at sizes 1, 7, 64, 65, 257, 4099 and above the "
           "parallel threshold (loop tails, block offsets, parallel chunks), and with square "
           "samples made non-square (rows and columns mixed up)")
KINDS = ("size",)
# derived sizes include degenerate ones (a row of one element, whose normalisation cancels to 0):
# errors are measured against the call's scale with a wide floor; a loop tail or a wrong
# parallel chunk is wrong by the size of the values, far beyond it
FLOOR = 4096


def applies(op, backend):
    return backend != REFERENCE


def run(ctx):
    """Forward and backward on the size sample, against python in float64 (in the dtype when the
    op takes no float64); the wide floor makes python's own error in the dtype immaterial."""
    with parallel_threads(ctx.op.kernels):  # a parallel branch needs a second thread to show
        got = ctx.run()
    ref = ctx.reference_run(grad_outputs=got.grad_outputs or None)
    if ref is None:
        ref = ctx.run(backend=REFERENCE, grad_outputs=got.grad_outputs or None)
    found = compare_runs(ctx, got, ref, None, floor=FLOOR)
    why = ("with a size that differs between the axes of a square sample (rows and columns "
           "mixed up?)" if "distinct dimensions" in ctx.sample.label else
           "at this size (a loop tail, block offset or parallel chunk?)")
    return found.outcome(ctx, f"{ctx.name} on {ctx.backend} ({ctx.dtype}) disagrees with python "
                              f"{why}: ")
