"""retain_graph: a second backward through a freed graph raises an error that says retain_graph=True."""
from ..result import Outcome

NAME = "retain_graph"
SUMMARY = "a second backward without retain_graph=True raises a clear error"
# the engine's behaviour around the op: the op's first sample shows it
LEAD_ONLY = True


def applies(op, backend):
    return True


def run(ctx):
    """backward, then backward again through the same (freed) graph: expect the retain_graph error."""
    from ....autograd import backward

    call, not_applicable = ctx.backward_call()
    if not_applicable:
        return not_applicable
    grad_outputs = ctx.grad_outputs(call.diff_outputs)
    with ctx.scope():
        backward(call.diff_outputs, grad_outputs)
        try:
            backward(call.diff_outputs, grad_outputs)
        except Exception as error:
            if "retain_graph=True" in str(error):
                return Outcome.passed()
            return Outcome.failed(f"{ctx.name}: a second backward through a freed graph raised an "
                                  f"error that does not mention retain_graph=True; got: "
                                  f"{type(error).__name__}: {error}")
    return Outcome.failed(f"{ctx.name}: a second backward through a freed graph ran; expected: an "
                          "error saying to pass retain_graph=True (the op keeps state alive after "
                          "backward?)")
