"""opsdk.grad: gradients of outputs with respect to inputs, returned, not accumulated."""
from ..errors import BackwardError
from .engine import run_backward


def _as_list(v, what):
    from ..tensor import Tensor
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        for i, t in enumerate(v):
            if not isinstance(t, Tensor):
                raise BackwardError(f"opsdk.grad: {what}[{i}] must be a Tensor; "
                                    f"got: {type(t).__name__}")
        return list(v)
    raise BackwardError(f"opsdk.grad: '{what}' must be a Tensor or a list of Tensors; "
                        f"got: {type(v).__name__}")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """Return d(outputs)/d(inputs) as a list of Tensors, without touching ``.grad``.

    Args:
        outputs: a Tensor or list of Tensors to differentiate.
        inputs: a Tensor or list of Tensors to differentiate with respect to.
        grad_outputs: weights for each output (ones when None).
        retain_graph: keep the graph for another backward (defaults to create_graph).
        create_graph: record the backward itself, so the result can be differentiated again.
        allow_unused: return None for inputs the outputs do not depend on (else an error).

    Example:
        >>> x = opsdk.to_tensor([2.0], stop_gradient=False)
        >>> (dx,) = opsdk.grad(x ** 3, x, create_graph=True)   # 3x^2 = 12
        >>> (d2x,) = opsdk.grad(dx, x)                          # 6x = 12
    """
    from ..device import array_module
    from ..tensor import _wrap
    outs = _as_list(outputs, "outputs")
    ins = _as_list(inputs, "inputs")
    if retain_graph is None:
        retain_graph = create_graph
    for i, t in enumerate(ins):
        if not t._req:
            raise BackwardError(f"opsdk.grad: inputs[{i}] has stop_gradient=True, so it has no "
                                "gradient; set stop_gradient=False on it before the forward")
    for i, t in enumerate(outs):
        if not t._req:
            raise BackwardError(f"opsdk.grad: outputs[{i}] has stop_gradient=True: it does not "
                                "depend on any tensor that needs a gradient")
    if grad_outputs is None:
        gos = [None] * len(outs)
    else:
        gos = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) else [grad_outputs]
        if len(gos) != len(outs):
            raise BackwardError(f"opsdk.grad: expected: one grad_output per output "
                                f"({len(outs)}); got: {len(gos)}")
    seeds = []
    for i, (t, g) in enumerate(zip(outs, gos)):
        if g is None:
            arr = array_module(t._data).ones_like(t._data)
            seeds.append(_wrap(arr) if create_graph else arr)
            continue
        if list(g.shape) != t.shape:
            raise BackwardError(f"opsdk.grad: grad_outputs[{i}] must have the shape of "
                                f"outputs[{i}]; expected: {t.shape}; got: {g.shape}")
        seeds.append(g if create_graph else g._data)
    return run_backward(outs, seeds, retain_graph, create_graph, inputs=ins,
                        allow_unused=allow_unused)
