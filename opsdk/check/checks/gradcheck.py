"""gradcheck: the op's backward on the backend matches central differences of its forward."""
from ..result import Outcome
from ..samples import argument_names
from .reports import checker_options, outcome_of
from .wrapped import as_function

NAME = "gradcheck"
SUMMARY = "backward matches numeric derivatives of forward"


def applies(op, backend):
    return True


def run(ctx):
    """opsdk.gradcheck on the sample (fast mode: random projections; full: the whole Jacobian).

    Goes through ``check_gradients`` (gradcheck's report, never raised) so the report names
    the op's arguments instead of ``inputs[i]``.
    """
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    wrapped = as_function(ctx)
    if wrapped is None:
        return Outcome.not_applicable("the op has no differentiable output")
    from ...gradcheck import check_gradients

    func, inputs = wrapped
    names = argument_names(ctx.op, len(ctx.sample.args))
    options = checker_options(ctx, check_gradients,
                              input_names=[names[p] for p in ctx.sample.diff_positions])
    with ctx.scope():
        report = check_gradients(func, inputs, **options)
    return outcome_of(report)
