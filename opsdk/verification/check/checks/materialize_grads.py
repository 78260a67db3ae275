"""materialize_grads: one output used alone gives the full backward's gradient with zeros elsewhere."""
from .... import errors
from ....autograd import grad
from ....functional.creation import zeros_like
from ..compare import compare
from ..result import Outcome

_PROTOCOL_ERROR = getattr(errors, "BackwardReturnError", ())

NAME = "materialize_grads"
SUMMARY = "backward handles outputs that got no gradient (None with set_materialize_grads(False))"


def applies(op, backend):
    return True


def run(ctx):
    """For each differentiable output k: grad through k alone == grad with zero grad_outputs elsewhere."""
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    full = ctx.call()
    count = len(full.diff_outputs)
    if count < 2:
        return Outcome.not_applicable("fewer than two differentiable outputs")
    grad_outputs = ctx.grad_outputs(full.diff_outputs)
    worst, problems = 0.0, []
    for k in range(count):
        masked = [g if j == k else zeros_like(g) for j, g in enumerate(grad_outputs)]
        expected = ctx.gradients(ctx.call(), masked)
        alone = ctx.call()
        try:
            with ctx.scope():
                got = grad([alone.diff_outputs[k]], alone.inputs, grad_outputs=[grad_outputs[k]],
                           allow_unused=True)
        except _PROTOCOL_ERROR:
            raise  # the protocol check's finding
        except Exception as error:
            # the full backward just ran, so what breaks here is the missing output gradient
            cause = error.__cause__ or error  # the engine wraps what backward raised
            return Outcome.failed(
                f"{ctx.name}: backward crashed when only output {k} got a gradient (the others "
                f"arrive as None when the op calls ctx.set_materialize_grads(False); treat None "
                f"as zero): {type(cause).__name__}: {cause}")
        for i, (a, e) in enumerate(zip(got, expected)):
            if a is None and e is None:
                continue
            result = compare(zeros_like(e) if a is None else a, zeros_like(a) if e is None else e,
                             ctx.atol, ctx.rtol)
            worst = max(worst, result.worst)
            if not result.ok:
                problems.append(f"output {k} alone, input {i}: {result.message}")
    if problems:
        return Outcome.failed(f"{ctx.name}: gradients through one output differ from the full "
                              "backward with zero gradients for the others: " + "; ".join(problems), worst)
    return Outcome.passed(worst)
