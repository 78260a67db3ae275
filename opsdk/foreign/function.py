"""A foreign op as an opsdk Function: its forward, and every order of its backward, run through
the op's own framework.

Level 0 calls the foreign callable on framework tensors over the samples' memory; each
backward applies a VJP level, itself a Function, whose forward asks the framework for the
vector-Jacobian product of the level below (``create_graph`` when a higher order is wanted) and
whose backward applies the next level. The verifier so sees an ordinary op: every check runs
on it unchanged, and what it finds is the framework code's behaviour.
"""
import inspect

from ..autograd import PyLayer, is_grad_enabled
from ..tensor import Tensor, _wrap

_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


class ForeignFunction(PyLayer):
    """Base of the generated Functions; ``bridge`` runs the framework, ``n_inputs`` tensors come
    first in ``forward``, then the attributes."""

    bridge = None
    callable = None
    n_inputs = 0
    attr_names = ()
    op_name = "?"


def _tensors(values):
    return [v for v in values if isinstance(v, Tensor)]


def _outputs(ctx, graph, bridge):
    """opsdk Tensors over the framework outputs' memory (device arrays for device inputs);
    integer ones non-differentiable."""
    arrays = [bridge.array(o, i, graph.device) for i, o in enumerate(graph.outputs)]
    tensors = [_wrap(a) for a in arrays]
    integers = [t for t in tensors if t._data.dtype.kind not in "fc"]
    if integers:
        ctx.mark_non_differentiable(*integers)
    ctx.float_outputs = [i for i, t in enumerate(tensors) if t._data.dtype.kind in "fc"]
    return tensors[0] if graph.single else tuple(tensors)


def _backward(cls, ctx, grads):
    """The gradients of the level's inputs: the next level applied to its VJP."""
    graph = ctx.graph
    given = [i for i in ctx.float_outputs if i < len(grads) and grads[i] is not None]
    saved = ctx.saved_tensor()
    if not given or not graph.diff_leaves:
        return tuple(None for _ in graph.tensors)
    # a higher order was asked (create_graph) and the op claims it: the framework records the VJP
    create = is_grad_enabled() and not cls.once_differentiable
    result = cls.vjp_class.apply(*saved, *[grads[i] for i in given], graph=graph, given=given,
                                 create=create)
    result = (result,) if isinstance(result, Tensor) else tuple(result)
    by_leaf = dict(zip(graph.diff_leaves, result))
    return tuple(by_leaf.get(i) for i in graph.tensors)


def _vjp_forward(cls, ctx, *tensors, graph, given, create):
    ctx.set_materialize_grads(False)
    cotangents = [t._data for t in tensors[len(graph.tensors):]]
    ctx.graph = cls.bridge.vjp(graph, given, cotangents, create)
    ctx.graph.tensors = graph.tensors + list(range(len(graph.leaves), len(ctx.graph.leaves)))
    ctx.save_for_backward(*tensors)
    return _outputs(ctx, ctx.graph, cls.bridge)


def make_function(bridge, fn, name, input_names, attrs, double_backward, module=None):
    """A ForeignFunction subclass running ``fn`` through ``bridge``.

    Args:
        bridge: the framework's bridge (torch_bridge.Bridge, ...).
        fn: the foreign callable, called as ``fn(*tensors, **attrs)``.
        name: the class name (what errors name; the foreign callable's own name).
        input_names: the tensor parameters' names, in order.
        attrs: {attribute: default}: the keyword parameters after them.
        double_backward: whether a second derivative may be asked (else it is refused, naming it).
        module: the ``__module__`` of the class (the foreign code's: the verifier restores the
            state of the op's modules before every case).
    """
    # without input specs (a samples= op) every positional argument is a tensor slot
    n_inputs = None if input_names is None else len(input_names)
    attr_names = tuple(attrs)

    def forward(ctx, *args, **kwargs):
        tensors, extra = args[:n_inputs], args[n_inputs:]
        kwargs.update(zip(attr_names, extra))
        ctx.set_materialize_grads(False)
        arrays = [t._data if isinstance(t, Tensor) else t for t in tensors]
        diff = [isinstance(t, Tensor) and not t.stop_gradient for t in tensors]
        ctx.graph = bridge.call(fn, arrays, diff, kwargs, name)
        ctx.graph.tensors = [i for i, t in enumerate(tensors) if isinstance(t, Tensor)]
        ctx.save_for_backward(*_tensors(tensors))
        return _outputs(ctx, ctx.graph, bridge)

    params = [inspect.Parameter("ctx", _POSITIONAL)]
    if input_names is None:
        params += [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                   inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)]
    else:
        params += [inspect.Parameter(n, _POSITIONAL) for n in input_names]
        params += [inspect.Parameter(k, _POSITIONAL, default=v) for k, v in attrs.items()]
    forward.__signature__ = inspect.Signature(params)

    def backward(ctx, *grads):
        return _backward(cls, ctx, grads)

    namespace = {"forward": staticmethod(forward), "backward": staticmethod(backward),
                 "bridge": bridge, "callable": staticmethod(fn), "n_inputs": n_inputs or 0,
                 "attr_names": attr_names, "op_name": name,
                 "once_differentiable": not double_backward,
                 "__doc__": inspect.getdoc(fn) or ""}
    if module:
        namespace["__module__"] = module
    cls = type(name, (ForeignFunction,), namespace)

    def vjp_forward(ctx, *tensors, graph, given, create):
        return _vjp_forward(vjp, ctx, *tensors, graph=graph, given=given, create=create)

    def vjp_backward(ctx, *grads):
        return _backward(vjp, ctx, grads)

    vjp = type(f"{name}_backward", (ForeignFunction,), {
        "forward": staticmethod(vjp_forward), "backward": staticmethod(vjp_backward),
        "bridge": bridge, "op_name": name, "once_differentiable": not double_backward,
        "__module__": namespace.get("__module__", __name__)})
    vjp.vjp_class = vjp
    cls.vjp_class = vjp
    return cls
