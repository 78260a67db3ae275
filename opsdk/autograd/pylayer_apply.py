"""Running a PyLayer: forward without a graph, then one node whose rule calls backward."""
from ..errors import PyLayerError
from ..functional.record import OutputOf, record_multi
from ..tensor import Tensor, version_total
from . import grad_mode
from .call_site import caller_site, definition_site
from .function import PyLayerContext
from .pylayer_backward import BackwardRule, InputMeta

_state = grad_mode._state


def op_name(cls):
    """The name errors show: the registered 'pack.op' name, else the class name."""
    return getattr(cls, "_opsdk_qualname", None) or cls.__name__


def _reject_hidden_tensors(args, name):
    """Tensors that need a gradient inside a list would silently get none: refuse them."""
    for i, a in enumerate(args):
        if type(a) in (list, tuple) and any(isinstance(t, Tensor) and t._req for t in a):
            raise PyLayerError(f"{name}.apply: argument {i} is a {type(a).__name__} holding "
                               "Tensors that need gradients; expected: each such Tensor as its "
                               "own argument; got: a container (its Tensors would get no "
                               "gradient)")


def _outputs(result, name):
    """forward's result as a tuple, plus the positions of its Tensors."""
    single = isinstance(result, Tensor)
    outs = (result,) if single else result
    if not isinstance(outs, (tuple, list)):
        raise PyLayerError(f"{name}.forward must return a Tensor or a tuple of Tensors; "
                           f"got: {type(result).__name__}")
    positions = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
    if not positions:
        kinds = ", ".join(type(o).__name__ for o in outs) or "an empty sequence"
        raise PyLayerError(f"{name}.forward returned no Tensor; expected: a Tensor or a tuple "
                           f"holding Tensors (wrap arrays with opsdk.to_tensor); got: {kinds}")
    return single, tuple(outs), positions


def _final_saved(saved, inputs, outs, wrapped):
    """Saved outputs become the returned, graph-connected outputs (so a second derivative
    through them is right), held as OutputOf (the Tensors themselves would make a cycle
    node -> rule -> ctx -> output -> node); saved inputs stay the caller's tensors."""
    input_ids = {id(t) for t in inputs}
    out_map = {id(o): w for o, w in zip(outs, wrapped)}
    final = []
    for t in saved:
        w = out_map.get(id(t)) if id(t) not in input_ids else None
        final.append(t if w is None or w._node is None else OutputOf(w))
    return tuple(final)


def apply(cls, args, kwargs):
    """Run cls.forward on args and record its backward node (see PyLayer.apply).

    Tensors passed by keyword get gradients too, after the positional ones (as in Paddle).
    """
    name = op_name(cls)
    every = args + tuple(kwargs.values()) if kwargs else args
    tensors = [a for a in every if isinstance(a, Tensor)]
    if any(type(a) in (list, tuple) for a in every):
        _reject_hidden_tensors(every, name)
    enabled = _state.enabled
    ctx = PyLayerContext()
    ctx.needs_input_grad = tuple(enabled and isinstance(a, Tensor) and a._req for a in every)
    req = enabled and any(t._req for t in tensors)
    _state.enabled = False
    try:
        result = cls.forward(ctx, *args, **kwargs)
    finally:
        _state.enabled = enabled
    single, outs, out_pos = _outputs(result, name)
    if not req:
        return result
    out_tensors = [outs[i] for i in out_pos]
    rule = BackwardRule(cls, ctx, name, every, [InputMeta(t) for t in tensors],
                        [(o._data.shape, o._data.dtype, type(o._data)) for o in out_tensors],
                        tuple(kwargs))
    wrapped = record_multi(name, [o._data for o in out_tensors], tensors, rule)
    node = next((w._node for w in wrapped if w._node is not None), None)
    if node is None:
        return result
    node.site = rule.site = caller_site(2) or definition_site(cls)
    node.ignores_hooks = True
    rule.bind(node)
    if ctx._saved:
        ctx._saved = _final_saved(ctx._saved, tensors, out_tensors, wrapped)
        node.saved = tuple((t, version_total(t)) for t in ctx._saved
                           if isinstance(t, Tensor)) or None
        reads = {t.idx for t in ctx._saved if isinstance(t, OutputOf)}
        if reads:
            node.reads_output = reads
    for w, o in zip(wrapped, out_tensors):
        if id(o) in ctx._non_diff:
            w._node = None
            w._req = False
    if single:
        return wrapped[0]
    final = list(outs)
    for i, w in zip(out_pos, wrapped):
        final[i] = w
    kind = type(result)
    # a namedtuple takes its fields as arguments
    return kind(final) if kind in (tuple, list) else kind(*final)
