"""stop_gradient: an input with stop_gradient=True gets no gradient; the others still do."""
from ..result import Outcome

NAME = "stop_gradient"
SUMMARY = "inputs with stop_gradient=True get no gradient"
# the engine's behaviour around the op: the op's first sample shows it
LEAD_ONLY = True


def applies(op, backend):
    return True


def run(ctx):
    """Stop the first differentiable input; it must end with ``.grad is None`` (or no graph at all)."""
    from ....autograd import backward

    positions = ctx.sample.diff_positions
    if not positions:
        return Outcome.not_applicable("the sample has no differentiable tensor input")
    stopped, rest = positions[0], positions[1:]
    call = ctx.call(requires=rest)
    stopped_input = call.args[stopped]
    if not rest:
        leaked = [k for k, o in enumerate(call.outputs) if not o.stop_gradient]
        if leaked:
            return Outcome.failed(f"{ctx.name}: with its only differentiable input stopped, output(s) "
                                  f"{leaked} still need a gradient; expected: stop_gradient=True outputs")
        return Outcome.passed()
    if not call.diff_outputs:
        return Outcome.failed(f"{ctx.name}: with argument {stopped} stopped, no output needs a gradient "
                              f"although argument(s) {rest} do")
    with ctx.scope():
        backward(call.diff_outputs, ctx.grad_outputs(call.diff_outputs))
    problems = []
    if stopped_input.grad is not None:
        problems.append(f"argument {stopped} has stop_gradient=True yet got a .grad")
    for position, arg in enumerate(call.args):
        if position not in positions and hasattr(arg, "grad") and arg.grad is not None:
            problems.append(f"argument {position} (not differentiable) got a .grad")
    if problems:
        return Outcome.failed(f"{ctx.name}: " + "; ".join(problems))
    return Outcome.passed()
