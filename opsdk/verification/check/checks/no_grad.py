"""no_grad: calling the op under ``opsdk.no_grad()`` records no graph."""
from ....autograd import no_grad
from ..result import Outcome

NAME = "no_grad"
SUMMARY = "under no_grad the op records no graph"
# the engine's behaviour around the op: the op's first sample shows it
LEAD_ONLY = True


def applies(op, backend):
    return True


def run(ctx):
    """Every output made under no_grad has stop_gradient=True and no grad_fn."""
    if not ctx.sample.diff_positions:
        return Outcome.not_applicable("the sample has no differentiable tensor input")
    with no_grad():
        call = ctx.call()
    graphed = [k for k, o in enumerate(call.outputs) if not o.stop_gradient or o.grad_fn is not None]
    if graphed:
        return Outcome.failed(f"{ctx.name}: under no_grad, output(s) {graphed} still record a graph; "
                              "expected: stop_gradient=True and grad_fn None")
    return Outcome.passed()
