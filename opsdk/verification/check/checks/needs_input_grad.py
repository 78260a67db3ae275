"""needs_input_grad: with only some inputs needing a gradient, each still gets the right one."""
from ..compare import compare
from ..result import Outcome
from ..samples import argument_names

NAME = "needs_input_grad"
SUMMARY = "backward gives the right gradient when only some inputs need one"


def applies(op, backend):
    return True


def run(ctx):
    """For each differentiable input alone: its gradient equals the one computed with all inputs."""
    positions = ctx.sample.diff_positions
    if len(positions) < 2:
        return Outcome.not_applicable("fewer than two differentiable inputs")
    full = ctx.call()
    if not full.diff_outputs:
        return Outcome.not_applicable("the op has no differentiable output")
    grad_outputs = ctx.grad_outputs(full.diff_outputs)
    expected = dict(zip(positions, ctx.gradients(full, grad_outputs)))
    names = argument_names(ctx.op, len(ctx.sample.args))
    worst, problems = 0.0, []
    for position in positions:
        alone = ctx.call(requires=(position,))
        label = f"'{names[position]}' (argument {position}) alone needing a gradient"
        (got,) = ctx.gradients(alone, grad_outputs, inputs=[alone.args[position]])
        want = expected[position]
        if got is None or want is None:
            if (got is None) != (want is None):
                problems.append(f"{label}: expected: {'none' if want is None else 'a gradient'}; "
                                f"got: {'none' if got is None else 'a gradient'}")
            continue
        result = compare(got, want, ctx.atol, ctx.rtol)
        worst = max(worst, result.worst)
        if not result.ok:
            problems.append(f"{label}: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name}: gradients change when some inputs need none "
                              "(backward misreads ctx.needs_input_grad?): " + "; ".join(problems), worst)
    return Outcome.passed(worst)
