"""backward_agreement: for the same grad_outputs, the gradients agree with python's in float64."""
from ..backends import REFERENCE
from ..result import Outcome
from .agreement import compare_runs

NAME = "backward_agreement"
SUMMARY = "gradients agree with python run in float64, within a few eps of the dtype"
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
    """Backpropagate the same seeded grad_outputs on the backend (in the dtype) and on python in
    float64, and compare every input's gradient."""
    if ctx.backend == REFERENCE and ctx.dtype == "float64":
        return Outcome.not_applicable("python in float64 is the reference")
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    got = ctx.run()
    if not got.grad_outputs:
        return Outcome.not_applicable("the op has no differentiable output")
    emp = got if ctx.backend == REFERENCE else ctx.run(backend=REFERENCE,
                                                       grad_outputs=got.grad_outputs)
    ref = ctx.reference_run(grad_outputs=got.grad_outputs) or emp
    found = compare_runs(ctx, got, ref, None if emp is got else emp, parts=("grads",))
    return found.outcome(ctx, f"{ctx.name} backward on {ctx.backend} ({ctx.dtype}) disagrees with "
                              "python in float64: ")
