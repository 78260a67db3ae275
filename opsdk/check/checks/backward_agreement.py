"""backward_agreement: for the same grad_outputs, the backend's gradients agree with python's."""
from ..backends import REFERENCE
from ..compare import compare
from ..result import Outcome

NAME = "backward_agreement"
SUMMARY = "gradients agree with the python backend"


def applies(op, backend):
    return backend != REFERENCE


def _gradients(ctx, backend):
    call = ctx.call(backend=backend)
    if not call.diff_outputs:
        return None
    return ctx.gradients(call, backend=backend)


def run(ctx):
    """Backpropagate the same seeded grad_outputs on both backends and compare every input's gradient."""
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    got = _gradients(ctx, ctx.backend)
    expected = _gradients(ctx, REFERENCE)
    if got is None or expected is None:
        return Outcome.not_applicable("the op has no differentiable output")
    from ..samples import argument_names

    names = argument_names(ctx.op, len(ctx.sample.args))
    worst, problems = 0.0, []
    for position, a, e in zip(ctx.sample.diff_positions, got, expected):
        label = f"gradient of '{names[position]}' (argument {position})"
        if (a is None) != (e is None):
            problems.append(f"{label}: expected: {'none' if e is None else 'a gradient'} (as python); "
                            f"got: {'none' if a is None else 'a gradient'}")
            continue
        if a is None:
            continue
        result = compare(a, e, ctx.atol, ctx.rtol)
        worst = max(worst, result.worst)
        if not result.ok:
            problems.append(f"{label}: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name} backward on {ctx.backend} disagrees with python: "
                              + "; ".join(problems), worst)
    return Outcome.passed(worst)
