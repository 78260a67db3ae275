"""Running a PyLayer: forward without a graph, then one node whose rule calls backward."""
from ..errors import PyLayerError
from ..functional.record import record_multi
from ..tensor import Tensor
from . import grad_mode
from .call_site import caller_site, definition_site
from .function import PyLayerContext
from .pylayer_backward import BackwardRule, InputMeta

_state = grad_mode._state


def op_name(cls):
    """The name errors show: the registered 'pack.op' name, else the class name."""
    return getattr(cls, "_opsdk_qualname", None) or cls.__name__


def _reject_hidden_tensors(args, kwargs, name):
    """Tensors that need a gradient must be positional: elsewhere they would silently get none."""
    for i, a in enumerate(args):
        if type(a) in (list, tuple) and any(isinstance(t, Tensor) and t._req for t in a):
            raise PyLayerError(f"{name}.apply: argument {i} is a {type(a).__name__} holding "
                               "Tensors that need gradients; expected: each such Tensor as its "
                               "own positional argument; got: a container (its Tensors would "
                               "get no gradient)")
    for key, a in kwargs.items():
        if isinstance(a, Tensor) and a._req:
            raise PyLayerError(f"{name}.apply: keyword argument '{key}' is a Tensor that needs a "
                               "gradient; expected: Tensors that need gradients passed "
                               f"positionally; got: {key}=Tensor(shape={a.shape})")


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
    through them is right); saved inputs stay the caller's tensors."""
    input_ids = {id(t) for t in inputs}
    out_map = {id(o): w for o, w in zip(outs, wrapped)}
    return tuple(t if id(t) in input_ids else out_map.get(id(t), t) for t in saved)


def apply(cls, args, kwargs):
    """Run cls.forward on args and record its backward node (see PyLayer.apply)."""
    name = op_name(cls)
    tensors = [a for a in args if isinstance(a, Tensor)]
    if kwargs or any(type(a) in (list, tuple) for a in args):
        _reject_hidden_tensors(args, kwargs, name)
    enabled = _state.enabled
    ctx = PyLayerContext()
    ctx.needs_input_grad = tuple(enabled and isinstance(a, Tensor) and a._req for a in args)
    req = enabled and any(t._req for t in tensors)
    _state.enabled = False
    try:
        result = cls.forward(ctx, *args, **kwargs)
    finally:
        _state.enabled = enabled
    if not req:
        return result
    single, outs, out_pos = _outputs(result, name)
    out_tensors = [outs[i] for i in out_pos]
    rule = BackwardRule(cls, ctx, name, args, [InputMeta(t) for t in tensors],
                        [(o._data.shape, o._data.dtype, type(o._data)) for o in out_tensors])
    wrapped = record_multi(name, [o._data for o in out_tensors], tensors, rule)
    node = next((w._node for w in wrapped if w._node is not None), None)
    if node is None:
        return result
    node.site = rule.site = caller_site(2) or definition_site(cls)
    rule.bind(node)
    if ctx._saved:
        ctx._saved = _final_saved(ctx._saved, tensors, out_tensors, wrapped)
        node.saved = tuple((t, t._version) for t in ctx._saved if isinstance(t, Tensor)) or None
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
