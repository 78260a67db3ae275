"""forward: the outputs agree with the python kernel run in float64 on the same values."""
from ..backends import REFERENCE
from ..result import Outcome
from .agreement import compare_runs

NAME = "forward"
SUMMARY = "outputs agree with python run in float64, within a few eps of the dtype"
KINDS = ("own", "broadcast", "attribute", "regime")
# in every regime a compiled backend is held to python (which gradcheck judges there); python's
# own float32 rounding is judged on the op's samples
COMPILED_KINDS = ("regime",)


def applies(op, backend):
    return True


def applies_dtype(op, backend, dtype):
    """python in float64 is the reference itself."""
    return not (backend == REFERENCE and dtype == "float64")


def run(ctx):
    """Compare every output on ``ctx.backend`` in ``ctx.dtype`` with python's in float64.

    The python kernel's own error in the dtype widens the bound (an op whose maths loses digits
    in float32 is held to what float32 can do); integer outputs must be equal.
    """
    if ctx.backend == REFERENCE and ctx.dtype == "float64":
        return Outcome.not_applicable("python in float64 is the reference")
    got = ctx.run(backward=False)
    emp = got if ctx.backend == REFERENCE else ctx.run(backend=REFERENCE, backward=False)
    ref = ctx.reference_run(backward=False) or emp
    found = compare_runs(ctx, got, ref, None if emp is got else emp, parts=("outputs",))
    return found.outcome(ctx, f"{ctx.name} forward on {ctx.backend} ({ctx.dtype}) disagrees with "
                              "python in float64: ")
