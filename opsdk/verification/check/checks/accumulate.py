"""accumulate: two backward calls through a retained graph leave twice the gradient in ``.grad``."""
from ..compare import compare
from ..result import Outcome

NAME = "accumulate"
SUMMARY = "gradients accumulate in .grad over two backward calls"
# the engine's behaviour around the op: the op's first sample shows it
LEAD_ONLY = True


def applies(op, backend):
    return True


def run(ctx):
    """backward(retain_graph=True) twice: every input's .grad is twice what one call left."""
    from ....autograd import backward

    call, not_applicable = ctx.backward_call()
    if not_applicable:
        return not_applicable
    grad_outputs = ctx.grad_outputs(call.diff_outputs)
    with ctx.scope():
        backward(call.diff_outputs, grad_outputs, retain_graph=True)
        once = [None if x.grad is None else x.grad.numpy().copy() for x in call.inputs]
        backward(call.diff_outputs, grad_outputs, retain_graph=True)
    worst, problems = 0.0, []
    for i, (x, first) in enumerate(zip(call.inputs, once)):
        if first is None:
            if x.grad is not None:
                problems.append(f"input {i}: no .grad after one backward but one after two")
            continue
        result = compare(x.grad, 2 * first, ctx.atol, ctx.rtol)
        worst = max(worst, result.worst)
        if not result.ok:
            problems.append(f"input {i}: .grad after two calls is not twice the first: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name}: " + "; ".join(problems), worst)
    return Outcome.passed(worst)
