"""The backward node of a PyLayer call: runs the user's backward, checks and guards its grads."""
import weakref

import numpy as np

from ..device import cupy_module
from ..errors import DoubleBackwardError, OpBackwardError
from ..tensor import Tensor, _wrap, _wrap_req
from . import grad_mode
from .node import Node
from .record import edge_to
from .pylayer_grads import check_grads

_state = grad_mode._state


class InputMeta:
    """What backward's gradient for one Tensor input must look like (the input itself is not
    kept alive for it)."""

    __slots__ = ("shape", "dtype", "on_cpu", "needs_grad", "cast")

    def __init__(self, t):
        self.shape = tuple(t._data.shape)
        self.dtype = t._data.dtype
        self.on_cpu = type(t._data) is np.ndarray
        self.needs_grad = t._req
        # a float gradient of another precision is cast to the input's dtype, unless the input
        # is the output of a PyLayer whose ctx.set_grad_in_dtype_consistent(False) asked to get
        # gradients uncast (Paddle casts on the receiving side)
        node = t._node
        rule = getattr(node.rule, "__wrapped__", node.rule) if node is not None else None
        self.cast = not (type(rule) is BackwardRule and not rule.ctx._grad_in_dtype_consistent)


def _tensors_in(a):
    if isinstance(a, Tensor):
        return (a,)
    if type(a) in (list, tuple):
        return tuple(t for t in a if isinstance(t, Tensor))
    return ()


def _tracked(g):
    """The incoming grad, made to need a gradient, so a rule that stays in the graph returns
    grads connected to it (every correct gradient is linear in the incoming grad)."""
    if g is None or g._req:
        return g
    p = _wrap(g._data)
    p._req = True
    return p


def _first_order_only(name, site, cls=None):
    def rule(g):
        err = DoubleBackwardError(
            f"'{name}' is first-order only: a higher-order gradient was asked through its "
            f"backward (forward called at {site}), which left the graph (raw arrays, .numpy(), "
            "no_grad or once_differentiable), so its derivative is unknown. expected: a backward "
            "written with opsdk ops, or one that calls another op's apply (a differentiable "
            "backward); got: create_graph=True through a first-order backward")
        # forward mode (autograd.functional) names the op that stopped it for want of a jvp
        err.op_name = None if callable(getattr(cls, "jvp", None)) else name
        raise err
    return rule


class BackwardRule:
    """The node rule of one PyLayer call: one function giving every input's gradient, as the
    user's backward computes them all at once (``rule(gs)``, gs the list of the gradients of
    the Tensor outputs)."""

    # the engine refuses complex gradients to its own rules; a PyLayer's backward is the user's
    complex_ok = True

    __slots__ = ("cls", "ctx", "name", "n_args", "tensor_pos", "inputs", "outputs", "site",
                 "first_order_only", "_node", "keywords", "list_args")

    def __init__(self, cls, ctx, name, args, inputs, outputs, keywords=()):
        self.cls = cls
        self.ctx = ctx
        self.name = name
        self.keywords = keywords  # the names of the last len(keywords) of args
        self.n_args = len(args)
        # per Tensor input (in order): the forward argument it is, or it is inside
        self.tensor_pos = tuple(i for i, a in enumerate(args) for _ in _tensors_in(a))
        # {argument: how many Tensors} for list and tuple arguments holding Tensors
        self.list_args = {i: len(_tensors_in(a)) for i, a in enumerate(args)
                          if type(a) in (list, tuple) and _tensors_in(a)}
        self.inputs = inputs
        self.outputs = outputs
        self.site = None
        self.first_order_only = bool(cls.once_differentiable) or getattr(
            cls.backward, "_opsdk_once_differentiable", False)
        self._node = None

    def bind(self, node):
        # a weak reference: the node owns this rule, a strong one would make a cycle
        self._node = weakref.ref(node)

    def __call__(self, g):
        grads = tuple(g)
        create_graph = _state.enabled
        if not create_graph:
            # a first-order backward hands arrays; the user's backward takes Tensors
            out = self.input_grads(tuple(None if a is None else _wrap(a) for a in grads),
                              False)
            return tuple(None if t is None else t._data for t in out)
        return self.input_grads(grads, True)

    def input_grads(self, grads, create_graph):
        """One checked gradient (or None) per Tensor input, from the output grads (Tensors)."""
        if self.ctx._materialize:
            grads = self._materialized(grads)
        grads = self._in_output_dtypes(grads)
        if create_graph and callable(getattr(self.cls, "jvp", None)) and any(
                g is not None and g._req for g in grads):
            # the op's own jvp is the derivative with respect to the incoming gradients
            from .forward import backward_through_jvp
            return backward_through_jvp(self, grads)
        fed = grads
        if create_graph and not self.first_order_only:
            fed = tuple(_tracked(g) for g in grads)
        result = self._run(fed, create_graph)
        out = check_grads(self, result)
        if create_graph:
            return self._guard(out, grads)
        # Paddle: a gradient computed in backward (under no_grad) ends up in x.grad with
        # stop_gradient=True; one passed through unchanged (dy itself) with False. An op of
        # opsdk or of a pack (it names itself in _opsdk_qualname) stands for a Paddle core op,
        # whose gradients reach x.grad with stop_gradient=False
        node = self._node() if self._node is not None else None
        if node is not None and not getattr(self.cls, "_opsdk_qualname", None):
            fed_ids = {id(g) for g in fed}
            node.cut_grads = tuple(g is not None and id(g) not in fed_ids for g in out)
        return out

    def _in_output_dtypes(self, grads):
        """Incoming float grads cast to their output's dtype (a float64 grad_outputs for a float32
        output reaches backward as float32), one rule for every op, as in Paddle, unless the
        ctx asked for them uncast (set_grad_in_dtype_consistent(False))."""
        if not self.ctx._grad_in_dtype_consistent:
            return grads
        for g, (_, dtype, _) in zip(grads, self.outputs):
            if g is not None and g._data.dtype != dtype and g._data.dtype.kind == "f" and dtype.kind == "f":
                break
        else:
            return grads
        return tuple(g if g is None or g._data.dtype == dtype or g._data.dtype.kind != "f" or dtype.kind != "f"
                     else g.astype(dtype) for g, (_, dtype, _) in zip(grads, self.outputs))

    def _materialized(self, grads):
        if all(g is not None for g in grads):
            return grads
        return tuple(
            g if g is not None else
            _wrap((np if kind is np.ndarray else cupy_module()).zeros(shape, dtype))
            for g, (shape, dtype, kind) in zip(grads, self.outputs))

    def _run(self, fed, create_graph):
        try:
            if self.first_order_only and create_graph:
                _state.enabled = False
                try:
                    return self.cls.backward(self.ctx, *fed)
                finally:
                    _state.enabled = True
            return self.cls.backward(self.ctx, *fed)
        except DoubleBackwardError:
            raise
        except Exception as e:
            raise OpBackwardError(f"Error message in backward of '{self.name}' (forward called at "
                                  f"{self.site}): {type(e).__name__}: {e}") from e

    def _guard(self, out, grads):
        """Grads cut from the graph get a node that raises if differentiated again."""
        guarded = list(out)
        for i, g in enumerate(out):
            if g is None or (g._req and not self.first_order_only):
                continue
            # a zero gradient is right to any order: its derivatives are zero too
            if not self.first_order_only and not g._data.any():
                continue
            guarded[i] = self._cut(g, grads)
        return tuple(guarded)

    def _cut(self, g, grads):
        node = self._node()
        # differentiating through it reaches the op's inputs and the incoming grads
        edges = tuple(e for e in node.edges + tuple(edge_to(t) for t in grads) if e is not None)
        guard = Node(f"{self.name}.backward",
                     _first_order_only(self.name, self.site, self.cls), edges,
                     site=self.site)
        return _wrap_req(g._data, guard, 0)

    def arg_label(self, pos, item=None):
        """How errors name forward's argument pos: "argument 1 ('beta')", or "argument 1"; with
        ``item``, element item of a list argument: "argument 0 ('xs')[2]"."""
        if item is not None:
            return f"{self.arg_label(pos)}[{item}]"
        first_kw = self.n_args - len(self.keywords)
        if pos >= first_kw:
            return f"keyword argument '{self.keywords[pos - first_kw]}'"
        import inspect
        try:
            params = list(inspect.signature(self.cls.forward).parameters.values())[1:]
        except (TypeError, ValueError):
            params = []
        if pos < len(params) and params[pos].kind in (params[pos].POSITIONAL_ONLY,
                                                      params[pos].POSITIONAL_OR_KEYWORD):
            return f"argument {pos} ('{params[pos].name}')"
        return f"argument {pos}"
