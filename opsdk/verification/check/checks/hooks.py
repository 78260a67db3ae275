"""hooks: hooks on the op's outputs and inputs see the gradients flowing through the op."""
from ..compare import compare
from ..result import Outcome

NAME = "hooks"
SUMMARY = "register_hook on outputs and inputs sees the gradient"
# the engine's behaviour around the op: the op's first sample shows it
LEAD_ONLY = True


def applies(op, backend):
    return True


def _recorder(table, key):
    def hook(grad):
        table.setdefault(key, grad.numpy().copy())

    return hook


def run(ctx):
    """An output hook sees the grad_output passed in; an input hook sees what lands in .grad."""
    from ....autograd import backward

    call, not_applicable = ctx.backward_call()
    if not_applicable:
        return not_applicable
    seen_out, seen_in = {}, {}
    for k, out in enumerate(call.diff_outputs):
        out.register_hook(_recorder(seen_out, k))
    for i, x in enumerate(call.inputs):
        x.register_hook(_recorder(seen_in, i))
    grad_outputs = ctx.grad_outputs(call.diff_outputs)
    with ctx.scope():
        backward(call.diff_outputs, grad_outputs)
    problems, worst = [], 0.0
    for k, g in enumerate(grad_outputs):
        if k not in seen_out:
            problems.append(f"the hook on output {k} was not called")
            continue
        result = compare(seen_out[k], g, 0.0, 0.0)
        if not result.ok:
            problems.append(f"the hook on output {k} saw another gradient than the one passed: "
                            f"{result.message}")
    for i, x in enumerate(call.inputs):
        if x.grad is None:
            continue
        if i not in seen_in:
            problems.append(f"input {i} got a .grad but its hook was not called")
            continue
        result = compare(seen_in[i], x.grad, ctx.atol, ctx.rtol)
        worst = max(worst, result.worst)
        if not result.ok:
            problems.append(f"the hook on input {i} saw another gradient than .grad: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name}: " + "; ".join(problems), worst)
    return Outcome.passed(worst)
