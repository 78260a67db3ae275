"""The op as a function of its differentiable inputs only: what gradcheck and gradgradcheck call."""
from ..context import outputs_of
from ..result import Outcome


def differentiable_outputs(ctx):
    """Indices of the op's outputs that carry gradients (float, not marked non-differentiable)."""
    call = ctx.call()
    return [k for k, o in enumerate(call.outputs) if o.dtype.kind == "f" and not o.stop_gradient]


def as_function(ctx):
    """``(func, inputs)`` with ``func(*inputs)`` = the op's differentiable outputs, or None if none.

    The sample's other arguments (integer tensors, attrs) are fixed; ``inputs`` are fresh
    tensors that need a gradient.
    """
    positions = ctx.sample.diff_positions
    kept = differentiable_outputs(ctx)
    if not kept:
        return None
    fixed_args, kwargs = ctx.sample.make(ctx.place, requires=())
    args, _ = ctx.sample.make(ctx.place)

    def func(*inputs):
        call_args = list(fixed_args)
        for position, tensor in zip(positions, inputs):
            call_args[position] = tensor
        outputs = outputs_of(ctx.op(*call_args, **kwargs))
        picked = tuple(outputs[k] for k in kept)
        return picked[0] if len(picked) == 1 else picked

    func.__name__ = ctx.op.function.__name__
    return func, tuple(args[p] for p in positions)


def function_or_reason(ctx):
    """``as_function(ctx)``, or the not-applicable Outcome of a gradient check that cannot run:
    the sample's gradient problem, or no differentiable output."""
    problem = ctx.gradient_problem()
    if problem:
        return Outcome.not_applicable(problem)
    wrapped = as_function(ctx)
    if wrapped is None:
        return Outcome.not_applicable("the op has no differentiable output")
    return wrapped


def names_of(ctx):
    """``input_names`` / ``output_names`` for a checker of ``as_function(ctx)``: the op's argument
    names for the inputs, ``output k`` for the outputs."""
    from ..samples import argument_names

    names = argument_names(ctx.op, len(ctx.sample.args))
    kept = differentiable_outputs(ctx)
    return {"input_names": [names[p] for p in ctx.sample.diff_positions],
            "output_names": ["output" if len(kept) == 1 else f"output {k}" for k in kept]}
