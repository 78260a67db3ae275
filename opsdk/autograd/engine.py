"""The reverse-mode engine: runs recorded nodes in dependency order.

First-order backward runs every rule on raw arrays; with ``create_graph=True`` it runs them on
Tensors and records the backward ops themselves, so the gradients can be differentiated again,
to any order (autograd.record says how a rule reads its values in either mode).
"""
import sys
from collections import deque

import numpy as np

from ..dtypes import REAL_FLOAT_CLASSES
from ..errors import GraphFreedError, InplaceModifiedError, UnreachableInputError, UnsupportedError
from ..exclusive import is_lent
from ..tensor import Tensor, _wrap, _wrap_req, as_array, version_total
from . import grad_mode
from .node import OutputWritten
from .record import OUTPUT, clone, unbroadcast
from .saved_hooks import Packed

_state = grad_mode._state


def _freed_error(node):
    return GraphFreedError(
        f"backward through '{node.name}' a second time: its saved tensors were freed after the "
        "first backward. Pass retain_graph=True to the first backward() (or opsdk.grad) if you "
        "need to run backward through the same graph again.")


def _complex(g, multi):
    """Whether a node's incoming gradient is complex (a list of them for a multi-output node)."""
    if multi:
        return any(_complex(x, False) for x in g if x is not None)
    dtype = getattr(g, "dtype", None)
    return dtype is not None and getattr(dtype, "kind", None) == "c"


def _complex_error(node):
    # the rules are written for real values: on complex ones they would give gradients without
    # the conjugate Paddle's convention takes (x * y: Paddle's grad_x is grad * conj(y)), so a
    # wrong answer; a PyLayer's own backward (complex_ok) decides for itself
    return UnsupportedError(
        f"backward through '{node.name}' on complex values: opsdk's gradient rules are for real "
        "values (see docs/paddle.md); expected: real (float) tensors where gradients are needed, "
        "or a PyLayer whose backward handles complex values")


def _check_versions(node):
    site = f"\n  forward was called at: {node.site}" if node.site else ""
    for t, version in node.saved:
        if type(t) is OutputWritten:
            raise InplaceModifiedError(
                f"'{node.name}' reads its own output (shape {list(t.shape)}, dtype {t.dtype}) "
                "in backward, and that output was modified in place after forward. Modify a "
                f"clone() instead, or do the in-place update after backward.{site}")
        now = version_total(t)
        if now != version:
            raise InplaceModifiedError(
                f"'{node.name}' saved a tensor for backward (shape {list(t._data.shape)}, dtype "
                f"{t._data.dtype}) that was modified in place afterwards; expected: version "
                f"{version}; got: version {now} (Paddle's words: received tensor_version:{now} "
                f"!= wrapper_version_snapshot:{version}). Modify a clone() instead, or do the "
                f"in-place update after backward.{site}")


def _dependencies(roots, needed=None, blocked=None):
    """Count, for each node reachable from roots, how many edges point at it.

    Every node is expanded once, also a root that another root reaches. Edges into nodes not
    ``needed``, and ``blocked`` edges (opsdk.grad's no_grad_vars), do not count.
    """
    deps = {}
    seen = set(roots)
    stack = list(seen)
    if needed is None and not blocked:
        # Tensor.backward: every reachable node counts (the hot path). The list of nodes to
        # expand only grows (a loop over it sees what is appended): a stack popped empty at
        # every node of a chain would reallocate its memory twice per node
        for node in stack:
            for edge in node.edges:
                # an edge's index is -1 for a leaf tensor, an output index for a node
                if edge is not None and edge[1] >= 0:
                    target = edge[0]
                    if target in deps:
                        deps[target] += 1
                    else:
                        deps[target] = 1
                        if target not in seen:  # seen: the roots, counted, expanded once
                            stack.append(target)
        return deps
    while stack:
        node = stack.pop()
        for edge in node.edges:
            if edge is not None and edge[1] >= 0:
                target = edge[0]
                if needed is not None and target not in needed:
                    continue
                if blocked and edge in blocked:
                    continue
                deps[target] = deps.get(target, 0) + 1
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
    return deps


def node_needs_run(node, needed, leaf_ids):
    """A captured target node runs its rule only if something upstream is requested too."""
    for edge in node.edges:
        if edge is not None:
            target = edge[0]
            if (target in needed) if edge[1] >= 0 else (id(target) in leaf_ids):
                return True
    return False


def _needed_nodes(roots, leaf_ids, node_targets, blocked=None):
    """The nodes whose backward leads to a requested input (post-order, no recursion)."""
    needed = {}
    stack = [(r, False) for r in roots]
    while stack:
        node, done = stack.pop()
        if done:
            flag = False
            for edge in node.edges:
                if edge is None or (blocked and edge in blocked):
                    continue
                target = edge[0]
                if edge[1] >= 0:
                    if needed.get(target) or target in node_targets:
                        flag = True
                elif id(target) in leaf_ids:
                    flag = True
            needed[node] = flag
            continue
        if node in needed:
            continue
        needed[node] = False
        stack.append((node, True))
        for edge in node.edges:
            if (edge is not None and edge[1] >= 0 and edge[0] not in needed
                    and not (blocked and edge in blocked)):
                stack.append((edge[0], False))
    return {n for n, flag in needed.items() if flag}


def run_backward(outputs, grad_outputs, retain_graph, create_graph, inputs=None,
                 allow_unused=False, blocked=None):
    """Backpropagate from ``outputs``.

    Without ``inputs`` gradients accumulate into the ``.grad`` of leaves (Tensor.backward);
    with ``inputs`` they are returned in that order and no ``.grad`` is touched (opsdk.grad),
    and gradients never flow along the ``blocked`` edges (its no_grad_vars).
    ``grad_outputs`` are arrays (first order) or Tensors (create_graph).
    """
    _wrap = _wrap_array

    capture = inputs is not None
    leaf_ids = {}
    node_targets = {}
    if capture:
        for pos, t in enumerate(inputs):
            if not t._req:
                continue
            if t._node is None:
                leaf_ids.setdefault(id(t), []).append(pos)
            else:
                node_targets.setdefault(t._node, []).append((t._out_idx, pos))
        results = [None] * len(inputs)

    # a single-output node's pending gradient is stored bare; a multi-output node's as a list
    grads = {}
    leaf_grads = {}
    cut_leaves = None  # ids of leaves given a gradient computed in a PyLayer's backward
    roots = []
    for t, g in zip(outputs, grad_outputs):
        node = t._node
        if node is None:
            key = id(t)
            leaf_grads[key] = (t, g if key not in leaf_grads else leaf_grads[key][1] + g)
            continue
        if node not in grads:
            roots.append(node)
        _add_pending(grads, node, t._out_idx, g)

    needed = None
    if capture:
        needed = _needed_nodes(roots, leaf_ids, node_targets, blocked)
        needed.update(node_targets)
    deps = _dependencies(roots, needed, blocked)
    # the nodes whose gradients are complete, last in first out; a deque, as in a chain it
    # holds one node at a time, and a list emptied and refilled reallocates each time
    ready = deque([r for r in roots if r not in deps])

    prev_mode = _state.enabled
    _state.enabled = create_graph
    try:
        while ready:
            node = ready.pop()
            g = grads.pop(node)
            multi = type(g) is list  # (the pending gradients of a multi-output node)
            if node.pre_hooks is not None:
                g = _apply_pre_hooks(node, g, multi, create_graph, _wrap)
            if capture:
                if node in node_targets:
                    for idx, pos in node_targets[node]:
                        results[pos] = g[idx] if multi else g
                if node not in needed or not node_needs_run(node, needed, leaf_ids):
                    continue
            rule = node.rule
            if rule is None:
                raise _freed_error(node)
            saved = node.saved
            if saved is not None:
                for t, version in saved:
                    b = t._base
                    if (t._version if b is None else b._version) != version:
                        _check_versions(node)
            # what the rule reads: a list holds saved Tensors or the node's own output, read
            # as arrays (first order) or as Tensors (create_graph); a tuple only constants
            args = node.args
            if type(args) is list:
                if node.packed:
                    args = [a.unpacked() if type(a) is Packed else a for a in args]
                if create_graph:
                    args = [_wrap_req(node.out, node, 0) if a is OUTPUT else a for a in args]
                else:
                    values = []  # (a loop: in CPython 3.11 cheaper than a comprehension)
                    for a in args:
                        values.append(a._data if isinstance(a, Tensor) else
                                      (node.out if a is OUTPUT else a))
                    args = values
            edges = node.edges
            if multi:
                complex_g = _complex(g, True)
            else:
                try:
                    dtype = g.dtype
                    complex_g = type(dtype) not in REAL_FLOAT_CLASSES and dtype.kind == "c"
                except AttributeError:  # a Python number
                    complex_g = False
            if complex_g and not getattr(rule, "complex_ok", False):
                raise _complex_error(node)
            if type(rule) is not tuple:
                in_grads = rule(g, *args)
                if node.cut_grads is not None and not capture:  # a PyLayer's, set as it ran
                    cut_leaves = _cut_leaves(node, cut_leaves)
            elif len(edges) == 1:
                in_grads = (rule[0](g, *args),)
            else:
                in_grads = [None if e is None else r(g, *args) for e, r in zip(edges, rule)]
            if node.shapes is not None:
                in_grads = [gi if s is None or gi is None else unbroadcast(gi, s)
                            for gi, s in zip(in_grads, node.shapes)]
            if not retain_graph:
                node.rule = node.args = node.saved = node.out = None
            for edge, g in zip(edges, in_grads):
                if edge is None:
                    continue
                target, idx = edge
                if idx < 0:
                    if g is None or (capture and (blocked and edge in blocked)):
                        continue
                    key = id(target)
                    old = leaf_grads.get(key)
                    leaf_grads[key] = (target, g if old is None else old[1] + g)
                    continue
                if capture and (target not in needed or (blocked and edge in blocked)):
                    continue
                if g is not None:
                    if target.n_out == 1:
                        old = grads.get(target)
                        grads[target] = g if old is None else old + g
                    else:
                        _add_pending(grads, target, idx, g)
                # a None gradient (a rule saying "no gradient for this input") still settles
                # the edge: a node waiting on it, or upstream of it, must run with what the
                # other paths sent
                left = deps[target] - 1
                deps[target] = left
                if left == 0:
                    if g is not None or target in grads:
                        ready.append(target)
                    else:
                        _release(target, deps, grads, ready, needed if capture else None, blocked)
    finally:
        _state.enabled = prev_mode

    if capture:
        # Paddle applies a leaf's hooks in backward() only, never under paddle.grad
        for key, (leaf, g) in leaf_grads.items():
            for pos in leaf_ids.get(key, ()):
                results[pos] = g
        return _results(inputs, results, create_graph, allow_unused, grad_outputs)

    # the last rule's result must not keep a gradient alive: _accumulate takes over a buffer
    # only when nothing else refers to it
    in_grads = g = None
    while leaf_grads:
        key, (leaf, g) = leaf_grads.popitem()
        _accumulate(leaf, g, create_graph, _wrap, cut_leaves is not None and key in cut_leaves)
    return None


def _release(node, deps, grads, ready, needed, blocked):
    """Settle the edges of a node that no gradient reached (every edge into it carried None):
    it does not run, and the nodes it points at stop waiting for it."""
    stack = [node]
    while stack:
        for edge in stack.pop().edges:
            if edge is None or edge[1] < 0:
                continue
            target = edge[0]
            if needed is not None and (target not in needed or (blocked and edge in blocked)):
                continue
            left = deps[target] - 1
            deps[target] = left
            if left == 0:
                if target in grads:
                    ready.append(target)
                else:
                    stack.append(target)


def _cut_leaves(node, cut):
    """cut plus the leaves that node (a PyLayer's) gave a gradient computed in its backward."""
    for edge, c in zip(node.edges, node.cut_grads):
        if c and edge is not None and edge[1] < 0:
            cut = set() if cut is None else cut
            cut.add(id(edge[0]))
    return cut


def _writeable(a):
    """A NumPy array's own flag; other arrays (CuPy) are taken as not ours to hand out."""
    return type(a) is np.ndarray and a.flags.writeable


def _results(inputs, results, create_graph, allow_unused, seeds):
    """opsdk.grad's answer: one fresh gradient (input's dtype) or None per input."""
    _wrap = _wrap_array
    out = []
    taken = {id(s) for s in seeds}
    for pos, (t, g) in enumerate(zip(inputs, results)):
        if g is None:
            if not allow_unused:
                why = ("has stop_gradient=True" if not t._req else
                       "is not reachable from the outputs")
                raise UnreachableInputError(
                    f"opsdk.grad: inputs[{pos}] (shape {list(t.shape)}) {why}, so it has no "
                    "gradient; pass allow_unused=True to get None for it")
            out.append(None)
            continue
        if create_graph:
            if g._data.dtype != t._data.dtype:
                g = g.astype(t._data.dtype)
            if id(g) in taken or not _writeable(g._data):
                # a gradient that is a grad_outputs tensor, or another input's, gets its own copy
                g = clone(g)
            taken.add(id(g))
            out.append(g)
            continue
        if type(g) is not np.ndarray:
            g = _wrap(g)._data
        if g.dtype != t._data.dtype:
            g = g.astype(t._data.dtype)
        elif id(g) in taken or (g.base is not None and not is_lent(g)) or not _writeable(g):
            g = g.copy()  # a view may alias what others hold; a pooled output is the holder's own
        taken.add(id(g))
        out.append(_wrap(g))
    return out


def _add_pending(grads, node, idx, g):
    """Add g to the pending gradient of output idx of node."""
    if node.n_out == 1:
        old = grads.get(node)
        grads[node] = g if old is None else old + g
        return
    slot = grads.get(node)
    if slot is None:
        slot = grads[node] = [None] * node.n_out
    slot[idx] = g if slot[idx] is None else slot[idx] + g


def _wrap_array(g):
    """A Tensor around a gradient array (0-d numpy results come back as scalars: re-wrap)."""
    return _wrap(g if type(g) is np.ndarray else as_array(g))


def _apply_pre_hooks(node, g, multi, create_graph, _wrap):
    """Run the hooks registered on a non-leaf tensor (an output of node) on its gradient."""
    gs = list(g) if multi else [g]
    for idx, hooks in node.pre_hooks.items():
        gi = gs[idx]
        if gi is None:
            # an output of a multi-output node that got no gradient: its hooks see zeros, as
            # in Paddle (a retained gradient of an unused split part is zero, not None)
            meta = node.hooked_outputs.get(idx) if node.hooked_outputs else None
            if meta is None:
                continue
            gi = meta[0](meta[1], meta[2])
            if create_graph:
                gi = _wrap(gi)
        for fn in hooks:
            r = fn(gi if create_graph else _wrap(gi))
            if r is not None:
                gi = r if create_graph else r._data
        gs[idx] = gi
    return gs if multi else gs[0]


def _apply_leaf_hooks(leaf, g, create_graph, _wrap):
    """A leaf's hooks on its gradient g (an array; a Tensor under create_graph). As Paddle, a
    first-order gradient reaches the hooks as a tensor with stop_gradient=False, with recording
    on: what a hook computes from it is a graph result (``x.grad.is_leaf`` False). Returns an
    array, or that Tensor when a hook recorded."""
    hooks = leaf._hooks
    if not hooks:
        return g
    if create_graph:
        for fn in list(hooks.values()):
            r = fn(g)
            if r is not None:
                g = r
        return g
    gt = new_grad(g)
    prev, _state.enabled = _state.enabled, True
    try:
        for fn in list(hooks.values()):
            r = fn(gt)
            if r is not None:
                gt = r
    finally:
        _state.enabled = prev
    if gt._node is not None:
        return gt
    return g if gt._data is g else gt._data


def _count(a):
    return sys.getrefcount(a)


def _sole_owner(a):
    """True when the caller of the caller (run_backward) holds the only other reference to a,
    and a owns writable memory: the engine made it and nothing else can see it."""
    return (type(a) is np.ndarray and a.base is None and a.flags.writeable
            and _count(a) - _SOLE <= 2)


def _calibrate(a):
    return _count(a)


# references _count sees from inside a function given a temporary (no reference elsewhere)
_SOLE = _calibrate(np.empty(1))


def new_grad(arr, cut=False):
    """A leaf's .grad: a leaf tensor that reports stop_gradient=False, as in Paddle, or True
    when ``cut`` (a gradient computed in a PyLayer's backward, under no_grad)."""
    t = _wrap(arr)
    t._req = not cut and arr.dtype.kind in "fc"
    return t


def _accumulate(leaf, g, create_graph, _wrap, cut=False):
    """Add g into leaf.grad, taking over g's buffer when the engine owns it alone."""
    if leaf._grad_cleared:
        # the zeros clear_gradient() left stay with whoever holds them; .grad starts anew (Paddle)
        leaf._grad_cleared = False
        if leaf.grad is not None and leaf.grad._node is None:
            leaf.grad = None
    if type(g) is not np.ndarray and getattr(g, "is_sparse_rows", False):
        if not leaf._hooks:
            # a row-sparse gradient (sparse embedding) stays sparse in leaf.grad
            from .sparse_rows import accumulate_rows
            accumulate_rows(leaf, g.rows, g.values)
            return
        g = g.to_dense()
    own = True
    if leaf._hooks:
        hooked = _apply_leaf_hooks(leaf, g, create_graph, _wrap)
        # a hook's result may be held by the hook: never take its buffer over
        own = hooked is g
        g = hooked
        del hooked
    dtype = leaf._data.dtype
    if create_graph or isinstance(g, Tensor):
        # a Tensor here without create_graph: what a hook recorded, kept as Paddle keeps it
        prev, _state.enabled = _state.enabled, True
        try:
            if g.dtype != dtype:
                g = g.astype(dtype)
            leaf.grad = g if leaf.grad is None else leaf.grad + g
        finally:
            _state.enabled = prev
        return
        if g.dtype != dtype:
            g = g.astype(dtype)
        leaf.grad = g if leaf.grad is None else leaf.grad + g
        return
    if type(g) is not np.ndarray:
        g = _wrap(g)._data
    grad = leaf.grad
    if grad is None or grad._node is not None:
        if g.dtype != dtype:
            arr = g.astype(dtype)
        elif own and _sole_owner(g):
            arr = g
        else:
            arr = g.copy()
        if grad is not None:
            arr += grad._data
        leaf.grad = new_grad(arr, cut)
    else:
        acc = grad._data
        acc += g
        grad._version += 1
