"""double_backward_error: an op that does not claim double backward refuses it with a clear error."""
from ....autograd import grad
from .... import errors
from ..result import Outcome
from .reports import second_order
from .wrapped import as_function

# the clear error a first-order-only op must raise, and the engine's refusal of a malformed
# backward result (the protocol check's finding, so it propagates)
_REFUSAL = getattr(errors, "DoubleBackwardError", errors.OpsdkError)
_PROTOCOL_ERROR = getattr(errors, "BackwardReturnError", ())

NAME = "double_backward_error"
SUMMARY = "asking a first-order-only op for a second derivative raises an error naming the op"


def applies(op, backend):
    return not op.double_backward


def _names_op(ctx, message):
    op = ctx.op
    return any(name in message for name in (op.qualname, op.name, op.function.__name__))


def _second_order(ctx):
    """Differentiate the op's create_graph gradients once more (what a user asking for it does)."""
    call = ctx.call()
    if not call.diff_outputs:
        return None
    first = grad(call.diff_outputs, call.inputs, grad_outputs=ctx.grad_outputs(call.diff_outputs),
                       create_graph=True, allow_unused=True)
    # a zero gradient cut from the graph is right to any order; a non-zero one must not be
    # silently cut, so it stays and differentiating it must raise the clear error
    grads = [g for g in first if g is not None and (not g.stop_gradient or g.numpy().any())]
    if not grads:
        return None
    return grad(grads, call.inputs, grad_outputs=ctx.grad_outputs(grads), allow_unused=True)


def run(ctx):
    """Expect DoubleBackwardError naming the op; no error is fine only if the second derivative is right."""
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    try:
        with ctx.scope():
            if _second_order(ctx) is None:
                return Outcome.not_applicable("the op's gradients are zero here: nothing to "
                                              "differentiate again")
    except _PROTOCOL_ERROR:
        raise  # the protocol check's finding, not this check's
    except _REFUSAL as error:
        if _names_op(ctx, str(error)):
            return Outcome.passed(detail=f"refused: {type(error).__name__}: {error}")
        return Outcome.failed(
            f"{ctx.name} is registered without double_backward; asking for a second derivative "
            f"raised an error that does not name the op; expected: {_REFUSAL.__name__} naming "
            f"'{ctx.op.function.__name__}'; got: {type(error).__name__}: {error}")
    except Exception as error:
        return Outcome.failed(
            f"{ctx.name} is registered without double_backward; asking for a second derivative "
            f"raised another error than the clear refusal; expected: {_REFUSAL.__name__} naming "
            f"the op; got: {type(error).__name__}: {error}")
    wrapped = as_function(ctx)
    outcome = second_order(ctx, *wrapped)
    if outcome.status == "pass":
        return Outcome.passed(detail="second derivatives work and are right although the op does "
                                     "not claim them: register it with double_backward=True")
    outcome.detail = (f"{ctx.name} is registered without double_backward, and asking for a "
                      "second derivative gives a wrong result instead of an error naming the op: "
                      f"{outcome.detail}")
    return outcome
