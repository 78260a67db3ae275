"""gradgradcheck's function: the first-order gradients of func, as a function of the inputs and
the grad_outputs, whose own gradient is then checked."""
from ...autograd.grad_api import grad
from ...errors import BackwardError, OpArgumentError
from ...functional.creation import to_tensor, zeros_like
from .problem import Problem


def _random_grad_outputs(outputs, rng):
    gos = []
    for o in outputs:
        arr = rng.standard_normal(o.array.shape).astype(o.array.dtype)
        gos.append(to_tensor(arr, place=o.place, stop_gradient=False))
    return gos


def first_order_function(func, inputs, grad_outputs, rng, input_names=None, output_names=None):
    """(F, F's inputs, input names, output names) where F returns d func / d inputs.

    F's inputs are func's inputs then one grad_output per differentiable output; the names
    follow func's (``x``, then ``grad of y``), and F's outputs are named ``grad_x``.
    """
    first = Problem(func, inputs, input_names, output_names)
    graph = [k for k, o in enumerate(first.outputs) if o._req]
    if not graph:
        raise OpArgumentError("gradgradcheck: no output of func is connected to the inputs; "
                              "expected: at least one output with a graph")
    if grad_outputs is None:
        gos = _random_grad_outputs([first.outputs[k] for k in graph], rng)
    else:
        gos = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) else [grad_outputs]
        if len(gos) != len(graph):
            raise OpArgumentError(f"gradgradcheck: expected one grad_output per differentiable "
                                  f"output of func ({len(graph)}); got: {len(gos)}")
    n = len(first.args)

    def first_order(*args):
        outs = first.pick_outputs(func(*args[:n]))
        diff = [args[p] for p in first.diff_pos]
        outs = [outs[k] for k in graph]
        if not any(o._req for o in outs):
            # evaluated without a graph: opsdk.grad would answer None (allow_unused, as in
            # Paddle); the evaluator retries with a graph on this error
            raise BackwardError("gradgradcheck: the first-order gradients need a graph")
        grads = grad(outs, diff, grad_outputs=list(args[n:]), create_graph=True,
                     allow_unused=True)
        return tuple(zeros_like(d) if g is None else g for g, d in zip(grads, diff))

    arg_names = list(input_names) if input_names else [f"inputs[{i}]" for i in range(n)]
    names = arg_names + ([f"grad of {first.output_names[k]}" for k in graph] if input_names
                         else [f"grad_outputs[{i}]" for i in range(len(gos))])
    out_names = [f"grad_{arg_names[p]}" if input_names else f"grad_inputs[{p}]"
                 for p in first.diff_pos]
    return first_order, first.args + tuple(gos), names, out_names
