"""Running a PyLayer: forward without a graph, then one node whose rule calls backward."""
from ..errors import LeafInplaceError, PyLayerError
from ..functional.views import adopt, check_writable
from ..tensor import Tensor, bump_version, int_result, version_total
from . import grad_mode
from .record import OutputOf, record
from .call_site import caller_site, definition_site
from .pylayer_context import PyLayerContext
from .pylayer_backward import BackwardRule, InputMeta

_state = grad_mode._state


def op_name(cls):
    """The name errors show: the registered 'pack.op' name, else the class name."""
    return getattr(cls, "_opsdk_qualname", None) or cls.__name__


def _tensors_of(every):
    """The Tensors among forward's arguments, also those inside a list or tuple argument (as
    in Paddle, where each gets its own gradient), in order."""
    tensors = []
    for a in every:
        if isinstance(a, Tensor):
            tensors.append(a)
        elif type(a) in (list, tuple):
            tensors.extend(t for t in a if isinstance(t, Tensor))
    return tensors


def _needs(a, enabled):
    if isinstance(a, Tensor):
        return enabled and a._req
    if type(a) in (list, tuple):
        return enabled and any(isinstance(t, Tensor) and t._req for t in a)
    return False


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
    node -> rule -> ctx -> output -> node); saved inputs stay the caller's tensors, except an
    input returned as an output (now that output itself)."""
    input_ids = {id(t) for t in inputs}
    out_map = {id(o): w for o, w in zip(outs, wrapped)}
    final = []
    for t in saved:
        w = out_map.get(id(t))
        if w is not None and id(t) in input_ids and w is not t:
            w = None
        final.append(t if w is None or w._node is None else OutputOf(w))
    return tuple(final)


def _returned_inputs(name, ctx, inputs, outs, wrapped):
    """An input returned as an output (not marked with ctx.mark_not_inplace) is an in-place op
    on it, as in Paddle: refused for a leaf that needs a gradient; any other input has its
    version bumped (what saved it before refuses backward) and takes the output's place in the
    graph, so the output is the input object itself."""
    final = list(wrapped)
    for i, o in enumerate(outs):
        t = next((t for t in inputs if t is o or t._data is o._data), None)
        if t is None or id(t) in ctx._not_inplace or wrapped[i]._node is None:
            continue
        if t._node is None and t._req:
            raise LeafInplaceError(
                f"{name}.forward returned its input (shape {list(t.shape)}), a leaf tensor that needs a "
                "gradient, as an output: that is an in-place change of the leaf, which Paddle "
                "refuses too; return x.clone() (or x * 1), or call ctx.mark_not_inplace(x) in "
                "forward")
        check_writable(t, f"{name} (forward returned its input)")
        bump_version(t)
        adopt(t, wrapped[i])
        final[i] = t
    return final


def apply(cls, args, kwargs):
    """Run cls.forward on args and record its backward node (see PyLayer.apply).

    Tensors passed by keyword, or inside a list or tuple argument, get gradients too, in
    argument order (keywords after the positional ones), as in Paddle.
    """
    name = op_name(cls)
    every = args + tuple(kwargs.values()) if kwargs else args
    tensors = _tensors_of(every)
    enabled = _state.enabled
    ctx = PyLayerContext()
    ctx.needs_input_grad = tuple(_needs(a, enabled) for a in every)
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
    wrapped = record(name, [o._data for o in out_tensors], tensors, rule)
    for i, (w, o) in enumerate(zip(wrapped, out_tensors)):
        if w._node is None and id(o) not in ctx._non_diff:
            # an integer output: no gradient, but stop_gradient=False and not a leaf (Paddle)
            wrapped[i] = int_result(w._data)
    node = next((w._node for w in wrapped if w._node is not None), None)
    if node is None:
        return _with_outputs(result, single, outs, out_pos, wrapped)
    node.site = rule.site = caller_site(2) or definition_site(cls)
    rule.bind(node)
    wrapped = _returned_inputs(name, ctx, tensors, out_tensors, wrapped)
    if ctx._saved_forward:
        ctx._saved_forward = _final_saved(ctx._saved_forward, tensors, out_tensors, wrapped)
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
            w._op_result = True  # stop_gradient=True, but an op's result: not a leaf (Paddle)
    return _with_outputs(result, single, outs, out_pos, wrapped)


def _with_outputs(result, single, outs, out_pos, wrapped):
    """forward's result with its Tensors replaced by the recorded ones."""
    if single:
        return wrapped[0]
    final = list(outs)
    for i, w in zip(out_pos, wrapped):
        final[i] = w
    kind = type(result)
    # a namedtuple takes its fields as arguments
    return kind(final) if kind in (tuple, list) else kind(*final)
