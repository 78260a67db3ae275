"""Checks on what a PyLayer's backward returns: count, type, device, dtype and shape."""
import numpy as np

from ..errors import BackwardReturnError
from ..tensor import Tensor, _wrap, as_array
from .record import unbroadcast


def _fail(rule, what, expected, got, fix=""):
    site = f" (forward called at {rule.site})" if rule.site is not None else ""
    fix = f". {fix}" if fix else ""
    raise BackwardReturnError(f"{rule.name}.backward{site} {what}; expected: {expected}; "
                              f"got: {got}{fix}")


def _as_tuple(result, rule):
    if result is None or isinstance(result, Tensor) or _is_array(result):
        return (result,)
    if isinstance(result, (tuple, list)):
        return tuple(result)
    _fail(rule, "returned an unexpected value", "a Tensor, None, or a tuple of them",
          type(result).__name__)


def _is_array(x):
    return isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "__cuda_array_interface__")


def _pick(rule, grads):
    """One grad per Tensor input, from one per Tensor input or one per forward argument (a
    list or tuple of them for an argument holding Tensors in a list)."""
    n_tensors = len(rule.inputs)
    lists = rule.list_args
    if len(grads) == n_tensors and not (
            lists and len(grads) == rule.n_args
            and any(isinstance(grads[p], (list, tuple)) for p in lists)):
        return grads
    if len(grads) == rule.n_args:
        picked = []
        for pos, g in enumerate(grads):
            count = lists.get(pos)
            if count is not None:
                if g is None:
                    g = (None,) * count
                if not isinstance(g, (list, tuple)) or len(g) != count:
                    _fail(rule, f"returned {_kind(g)} as the gradients of {rule.arg_label(pos)}",
                          f"a list of {count} (one per Tensor in it)", _kind(g))
                picked.extend(g)
            elif pos in rule.tensor_pos:
                picked.append(g)
            elif g is not None:
                _fail(rule, f"returned a gradient for {rule.arg_label(pos)}, which is not a "
                      "Tensor", "None there", type(g).__name__)
        return tuple(picked)
    _fail(rule, "returned the wrong number of gradients",
          f"one per Tensor input ({n_tensors}) or one per forward argument ({rule.n_args}, "
          "None for non-Tensors)", len(grads))


def _kind(g):
    return f"a {type(g).__name__} of {len(g)}" if isinstance(g, (list, tuple)) else \
        type(g).__name__


def _label(rule, index):
    """How errors name Tensor input index: its argument, and its place in a list argument."""
    pos = rule.tensor_pos[index]
    if pos not in rule.list_args:
        return rule.arg_label(pos)
    return rule.arg_label(pos, rule.tensor_pos[:index].count(pos))


def _broadcasts_to(shape, target):
    """True when an array of ``shape`` broadcasts to ``target`` (so target reduces back)."""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(shape[::-1], target[::-1]))


def _check_one(rule, index, meta, g):
    if g is None or not meta.needs_grad:
        return None
    # the label (inspect.signature, some 20 us) is built only for an error message
    if not isinstance(g, Tensor):
        if not _is_array(g):
            _fail(rule, f"returned a {type(g).__name__} as the gradient of {_label(rule, index)}",
                  "a Tensor (or None)", type(g).__name__)
        g = _wrap(as_array(g))
    data = g._data
    if (type(data) is np.ndarray) != meta.on_cpu:
        where = ("cpu", "gpu") if meta.on_cpu else ("gpu", "cpu")
        _fail(rule, f"returned the gradient of {_label(rule, index)} on the wrong device",
              f"{where[0]} (where the input lives)", where[1])
    if data.dtype != meta.dtype:
        if data.dtype.kind != "f" or meta.dtype.kind != "f":
            _fail(rule, f"returned the gradient of {_label(rule, index)} with the wrong dtype",
                  meta.dtype, data.dtype, f"Cast it: grad.astype('{meta.dtype}')")
        if meta.cast:
            # another float precision is cast to the input's, as Paddle does
            g = g.astype(meta.dtype)
    shape = tuple(data.shape)
    if shape != meta.shape:
        if not _broadcasts_to(meta.shape, shape):
            fix = ("Same number of elements: a missing reshape or transpose?"
                   if data.size == int(np.prod(meta.shape)) else "")
            _fail(rule, f"returned the gradient of {_label(rule, index)} with the wrong shape",
                  f"{list(meta.shape)} (the input's shape, or a shape it broadcasts to)",
                  list(shape), fix)
        # a gradient of the broadcast shape is summed back, as the core ops do
        g = unbroadcast(g, meta.shape)
    return g


def check_grads(rule, result):
    """backward's result as one checked Tensor (or None) per Tensor input of the op."""
    grads = _pick(rule, _as_tuple(result, rule))
    return tuple(_check_one(rule, i, meta, g) for i, (meta, g) in enumerate(zip(rule.inputs, grads)))
