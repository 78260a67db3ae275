"""protocol: backward returns one gradient per Tensor input (or per argument), shaped and typed
like its input."""
from ....errors import OpsdkError
from ..result import Outcome
from ..samples import argument_names
from .probe import recording

NAME = "protocol"
SUMMARY = "backward returns the right count of gradients, each with its input's shape, dtype and device"
KINDS = ("own", "broadcast")


def applies(op, backend):
    return True


def _normalized(returned):
    from ....tensor import Tensor

    if returned is None or isinstance(returned, Tensor):
        return (returned,)
    if isinstance(returned, (tuple, list)):
        return tuple(returned)
    return (returned,)


def _device(array):
    return "gpu" if type(array).__module__.startswith("cupy") else "cpu"


def _reduces_to(shape, grad_shape):
    """True when a gradient of ``grad_shape`` belongs to an input of ``shape`` (equal, or the
    broadcast shape, which the engine sums back as the core ops do)."""
    if len(shape) > len(grad_shape):
        return False
    return all(s == g or s == 1 for s, g in zip(shape[::-1], grad_shape[::-1]))


def problems(ctx, args, returned):
    """What is wrong with ``returned`` (what backward gave) for a call with ``args``; [] when nothing."""
    from ....tensor import Tensor

    grads = _normalized(returned)
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    names = argument_names(ctx.op, len(args))
    if len(grads) == len(args):
        by_position = dict(enumerate(grads))
    elif len(grads) == len(positions):
        by_position = dict(zip(positions, grads))
    else:
        return [f"backward returned {len(grads)} gradient(s); expected: {len(positions)} (one per "
                f"Tensor input) or {len(args)} (one per forward argument, None for non-Tensors); "
                f"got: {len(grads)}"]
    found = []
    for position, grad in by_position.items():
        arg = args[position]
        label = f"gradient of '{names[position]}' (argument {position})"
        if not isinstance(arg, Tensor):
            if grad is not None:
                found.append(f"{label}: the argument is a {type(arg).__name__}, not a Tensor; "
                             f"expected: None; got: {type(grad).__name__}")
            continue
        if grad is None or arg.stop_gradient:
            continue
        data = grad.array if isinstance(grad, Tensor) else grad
        if not hasattr(data, "shape") or not hasattr(data, "dtype"):
            found.append(f"{label}: expected: a Tensor or None; got: {type(grad).__name__}")
            continue
        if not _reduces_to(list(arg.shape), list(data.shape)):
            found.append(f"{label}: wrong shape; expected: {list(arg.shape)} (or a shape it "
                         f"broadcasts to); got: {list(data.shape)}")
        if data.dtype != arg.dtype:
            found.append(f"{label}: wrong dtype; expected: {arg.dtype.name}; got: {data.dtype}")
        if _device(data) != _device(arg.array):
            found.append(f"{label}: wrong device; expected: {_device(arg.array)}; "
                         f"got: {_device(data)}")
    return found


def run(ctx):
    """Run backward through an instrumented copy of the op and inspect what its backward returned."""
    probe, calls = recording(ctx.op.function)
    call, not_applicable = ctx.backward_call(function=probe)
    if not_applicable:
        return not_applicable
    engine_error = None
    try:
        ctx.gradients(call)
    except OpsdkError as error:  # the engine's own validation may refuse the same return value
        engine_error = error
    if not calls:
        if engine_error is not None:
            raise engine_error
        return Outcome.failed(f"{ctx.name}: backward was never called")
    found = problems(ctx, call.args, calls[0][1])
    if found:
        return Outcome.failed(f"{ctx.name}.backward: " + "; ".join(found))
    if engine_error is not None:
        raise engine_error
    return Outcome.passed()
