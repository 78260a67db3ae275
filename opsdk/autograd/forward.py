"""Forward mode for PyLayers: a Function's own ``jvp``, and the nodes that let the engine use it.

opsdk computes a Jacobian-vector product as Paddle does, by the double-vjp construction
(``opsdk.autograd.jvp``): with u a dummy output gradient that needs a gradient,
g(u) = Jᵀu is linear in u, and the gradient of <g(u), v> with respect to u is J v. Every op
whose backward is differentiable in its incoming gradient gets forward mode from that.

A Function that defines ``jvp(ctx, *tangents)`` supplies the derivative of its backward with
respect to the incoming gradient itself: when a backward runs with ``create_graph`` and its
incoming gradients are in the graph, the gradients it returns get a *linear node* on top
(``linear_node``) whose rule, given cotangents w of those gradients, is the op's jvp of w. The
backward itself then runs on detached incoming gradients, so its graph holds only its
dependence on the op's inputs (a first-order-only backward: a guard that refuses to be
differentiated). The jvp's own results get the transposed node, whose rule is the op's
backward, so forward and reverse compose to any order the op's rules allow.
"""
from ..device import cupy_module
from ..errors import DoubleBackwardError, PyLayerError
from ..tensor import Tensor, _wrap, _wrap_req
from .node import Node
from .record import edge_to

import numpy as np


def has_jvp(cls):
    """Whether the Function class defines its own jvp."""
    return callable(getattr(cls, "jvp", None))


def jvp_first_order(cls):
    """A jvp marked once_differentiable (or on a once_differentiable class) runs raw kernels:
    its results are guarded like a first-order backward's."""
    return bool(cls.once_differentiable) or getattr(
        getattr(cls, "jvp", None), "_opsdk_once_differentiable", False)


def _zeros(shape, dtype, kind):
    return _wrap((np if kind is np.ndarray else cupy_module()).zeros(shape, dtype))


def _detached(g):
    return None if g is None else _wrap(g._data)


def _tracked(t):
    """A constant copy of t that needs a gradient: a jvp written with opsdk ops returns tangents
    connected to it, one that left the graph (raw kernels) does not."""
    if t is None:
        return None
    p = _wrap(t._data)
    p._req = True
    return p


def _jvp_on_tracked(rule, tangents):
    if jvp_first_order(rule.cls):
        from . import grad_mode
        state = grad_mode._state
        state.enabled = False
        try:
            out = run_jvp(rule, [_detached(t) for t in tangents])
        finally:
            state.enabled = True
        return [None if t is None else (t, True) for t in out]
    out = run_jvp(rule, [_tracked(t) for t in tangents])
    # a nonzero tangent cut from the graph came from raw kernels: its derivative is unknown
    return [None if t is None else (t, not t._req and bool(t._data.any())) for t in out]


def _guarded(rule, marked, node):
    """The jvp's tangents, those cut from the graph behind a node that refuses to be
    differentiated (its edges reach the op's inputs, those of ``node``)."""
    edges = tuple(e for e in node.edges if e is not None)
    out = []
    for item in marked:
        if item is None:
            out.append(None)
            continue
        t, cut = item
        if cut:
            guard = Node(f"{rule.name}.jvp", _first_order_jvp(rule.name, rule.site), edges,
                         site=rule.site)
            t = _wrap_req(t._data, guard, 0)
        out.append(t)
    return out


def _first_order_jvp(name, site):
    def refuse(g):
        raise DoubleBackwardError(
            f"'{name}' has a first-order jvp: the derivative of its jvp with respect to the op's "
            f"inputs was asked (forward called at {site}), and the jvp left the graph (raw "
            "kernels or once_differentiable), so it is unknown. expected: a jvp written with "
            "opsdk ops; got: a second derivative through a first-order jvp")
    return refuse


def _zeros_as(data):
    """Zeros like ``data``: an array in a first-order pass, a Tensor under create_graph."""
    from . import grad_mode

    z = (np if type(data) is np.ndarray else cupy_module()).zeros_like(data)
    return _wrap(z) if grad_mode._state.enabled else z


def linear_node(name, values, lin_tensors, lin_rule):
    """``values`` (Tensors, None skipped) with one node on top that routes a cotangent both ways:
    on to each value's own graph unchanged, and to the tensors ``lin_tensors`` (those needing a
    gradient) through ``lin_rule(ws)`` (ws one cotangent or None per value; it returns one
    gradient or None per lin_tensor).

    The values are linear in the lin_tensors; their own graphs hold the rest of their
    dependence (on the op's inputs)."""
    kept = [i for i, v in enumerate(values) if v is not None]
    n = len(kept)

    def rule(g):
        ws = [None] * len(values)
        parts = [g] if n == 1 else list(g)
        for i, w in zip(kept, parts):
            ws[i] = w
        # zeros, not None, on every edge: the engine leaves a node a None reached waiting, and
        # with it any node upstream that another path shares
        passed = [w if w is not None else _zeros_as(datas[i]) for i, w in zip(kept, parts)]
        lin = [t if t is not None or e is None else _zeros_as(like)
               for t, e, like in zip(lin_rule(ws), lin_edges, lin_likes)]
        return passed + lin

    lin_edges = [edge_to(t) for t in lin_tensors]
    datas = [None if v is None else v._data for v in values]
    # the gradients' data only: the rule must not keep the tensors (and their graphs) alive
    lin_likes = [None if t is None else t._data for t in lin_tensors]
    edges = tuple([edge_to(values[i]) for i in kept] + lin_edges)
    node = Node(name, rule, edges, (), None, n_out=n)
    out = list(values)
    for k, i in enumerate(kept):
        out[i] = _wrap_req(values[i]._data, node, k)
    return tuple(out)


def tangents_per_argument(rule, tangents):
    """jvp's arguments: one per forward argument, the tangent (a Tensor; zeros where none) for
    a Tensor argument, a list of them for a list argument, None for a non-Tensor argument."""
    filled = [t if t is not None else _zeros(m.shape, m.dtype, np.ndarray if m.on_cpu else None)
              for t, m in zip(tangents, rule.inputs)]
    args = [None] * rule.n_args
    k = 0
    for pos in sorted(set(rule.tensor_pos)):
        count = rule.list_args.get(pos)
        if count is None:
            args[pos] = filled[k]
            k += 1
        else:
            args[pos] = filled[k:k + count]
            k += count
    return args


def _fail(rule, what, expected, got):
    raise PyLayerError(f"{rule.name}.jvp {what}; expected: {expected}; got: {got}")


def checked_tangents(rule, result):
    """jvp's result as one Tensor (or None) per Tensor output of forward, checked."""
    outs = rule.outputs
    if isinstance(result, Tensor) or result is None:
        result = (result,)
    if not isinstance(result, (tuple, list)):
        _fail(rule, "returned an unexpected value", "a Tensor or a tuple of them (one per "
              "output of forward)", type(result).__name__)
    if len(result) != len(outs):
        _fail(rule, "returned the wrong number of tangents", f"one per Tensor output of forward "
              f"({len(outs)})", len(result))
    checked = []
    for k, (t, (shape, dtype, _)) in enumerate(zip(result, outs)):
        if t is None:
            checked.append(None)
            continue
        if not isinstance(t, Tensor):
            _fail(rule, f"returned a {type(t).__name__} as the tangent of output {k}",
                  "a Tensor (or None)", type(t).__name__)
        if tuple(t._data.shape) != tuple(shape):
            _fail(rule, f"returned the tangent of output {k} with the wrong shape",
                  list(shape), list(t._data.shape))
        if t._data.dtype != dtype:
            t = t.astype(dtype)
        checked.append(t)
    return tuple(checked)


def run_jvp(rule, tangents):
    """The op's jvp on one tangent (Tensor or None) per Tensor input: one tangent (or None) per
    Tensor output. Runs in the current grad mode."""
    from ..errors import OpBackwardError

    args = tangents_per_argument(rule, tangents)
    try:
        result = rule.cls.jvp(rule.ctx, *args)
    except PyLayerError:
        raise
    except Exception as e:
        raise OpBackwardError(f"in jvp of '{rule.name}' (forward called at {rule.site}): "
                              f"{type(e).__name__}: {e}") from e
    return checked_tangents(rule, result)


def backward_through_jvp(rule, grads):
    """The gradients of a backward run with create_graph whose incoming gradients are in the
    graph, for a Function with its own jvp: their dependence on the incoming gradients is the
    jvp (a linear node), the rest is the backward's own graph (or a first-order guard)."""
    # the op's node: held by the linear node, whose rules reach the op's inputs through it
    # (the rule holds it weakly, and the forward's outputs may be gone by then)
    node = rule._node()
    # the backward on constants: its graph (or guard) holds the dependence on the inputs only
    out = rule.input_grads(tuple(_detached(g) for g in grads), True)

    def transpose(ws, node=node):
        # d<w, g(u)>/du = J w: the op's jvp, tangent w on each input whose gradient got one
        return jvp_any_mode(rule, ws, node)

    return linear_node(f"{rule.name}.jvp", out, grads, transpose)


def jvp_any_mode(rule, tangents, node):
    """run_jvp from an engine rule: arrays in and out in a first-order pass; Tensors, with the
    result's dependence on the tangents routed through the backward (the transpose of a jvp
    is the vjp), under create_graph."""
    from . import grad_mode

    if not grad_mode._state.enabled:
        ts = [None if t is None else _wrap(t) for t in tangents]
        return [None if t is None else t._data for t in run_jvp(rule, ts)]
    t_edges = [edge_to(t) for t in tangents]
    out = _guarded(rule, _jvp_on_tracked(rule, tangents), node)
    if all(e is None for e in t_edges):
        return out

    def transpose(zs, node=node):
        # d<z, J t>/dt = Jᵀ z: the op's backward (node, held here, keeps its edges alive)
        # (arrays in a first-order pass, Tensors under create_graph: the rule takes either)
        return rule(zs)

    return linear_node(f"{rule.name}.vjp", out, tangents, transpose)
