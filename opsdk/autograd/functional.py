"""Functional derivatives with Paddle's names and semantics: ``jvp`` and ``vjp``
(``paddle.incubate.autograd``), the lazily evaluated ``Jacobian`` and ``Hessian`` of a function
(``paddle.incubate.autograd``) and of computed tensors (``paddle.autograd.jacobian`` and
``hessian``, with ``batch_axis``).

Forward mode is the double-vjp construction Paddle's dynamic mode uses: with u a dummy output
gradient, g(u) = Jᵀu (recorded) is linear in u, and grad(<g(u), v>, u) = J v. An op takes part
through its backward (differentiable in its incoming gradient) or its own ``jvp``
(autograd.forward); an op with neither raises ForwardModeError naming it.

Example:
    >>> x = opsdk.to_tensor([1.0, 2.0])
    >>> y, jv = opsdk.autograd.jvp(lambda t: t * t, x, opsdk.to_tensor([1.0, 0.0]))
    >>> jv.numpy()                                    # 2 x v
    array([2., 0.], dtype=float32)
"""
from collections.abc import Sequence

import numpy as np

from ..errors import DoubleBackwardError, ForwardModeError, TangentError
from ..functional.creation import zeros_like
from ..functional.shape import concat, reshape
from ..tensor import Tensor, _wrap
from .grad_api import grad

__all__ = ["jvp", "vjp", "Jacobian", "Hessian", "jacobian", "hessian"]


# -- helpers --------------------------------------------------------------------------------
def _is_seq(xs):
    return isinstance(xs, Sequence) and not isinstance(xs, Tensor)


def _check_inputs(func, xs, v, api):
    if not callable(func):
        raise TypeError(f"{api}: expected: 'func' a callable; got: {type(func).__name__}")
    if not isinstance(xs, Tensor) and not (_is_seq(xs) and all(isinstance(x, Tensor)
                                                               for x in xs)):
        raise TypeError(f"{api}: expected: 'xs' a Tensor or a sequence of Tensors; got: "
                        f"{type(xs).__name__}")
    if v is not None and not isinstance(v, Tensor) and not (
            _is_seq(v) and all(isinstance(e, Tensor) for e in v)):
        raise TypeError(f"{api}: expected: 'v' a Tensor, a sequence of Tensors or None; got: "
                        f"{type(v).__name__}")


def _check_v_shape(v, refs, api, of):
    if v is None:
        return
    vs = list(v) if _is_seq(v) else [v]
    rs = list(refs) if _is_seq(refs) else [refs]
    if len(vs) != len(rs):
        raise TangentError(f"{api}: 'v' must hold one Tensor per {of}; expected: {len(rs)}; "
                              f"got: {len(vs)}")
    for i, (e, r) in enumerate(zip(vs, rs)):
        if list(e.shape) != list(r.shape):
            raise TangentError(f"{api}: v[{i}] must have the shape of {of} {i}; expected: "
                                  f"{list(r.shape)}; got: {list(e.shape)}")


def _separate_one(x):
    """A fresh input for func: a graph-connected copy of one that needs a gradient (gradients
    also reach the caller's tensor), else a detached view that needs one (Paddle's _separate)."""
    if x is None:
        return None
    if not x.stop_gradient:
        from .record import clone
        return clone(x)
    t = x.detach()
    t.stop_gradient = False
    return t


def _separate(xs):
    return tuple(_separate_one(x) for x in xs) if _is_seq(xs) else _separate_one(xs)


def _zeros_for_none(gs, refs):
    if gs is None:
        z = zeros_like(refs)
        z.stop_gradient = refs.stop_gradient
        return z
    if _is_seq(gs):
        return tuple(_zeros_for_none(g, r) for g, r in zip(gs, refs))
    return gs


def _grad(ys, xs, v=None):
    """opsdk.grad with create_graph and allow_unused, zeros for unreachable inputs, and a single
    Tensor back for a single Tensor xs (Paddle's functional _grad)."""
    if _is_seq(v):
        v = list(v)
    outs = list(ys) if _is_seq(ys) else ys
    ins = list(xs) if _is_seq(xs) else xs
    gs = grad(outs, ins, v, create_graph=True, allow_unused=True)
    if isinstance(xs, Tensor):
        gs = gs[0]
    return _zeros_for_none(gs if isinstance(xs, Tensor) else tuple(gs), xs)


def _dummy_like(ys):
    """The dummy output gradients of the double-vjp construction: any values work (g(u) is
    linear); fixed pseudo-random ones, so no op's gradient at them is zero by accident."""
    rng = np.random.default_rng(0)

    def one(y):
        data = rng.standard_normal(tuple(y.shape)).astype(y._data.dtype) \
            if y._data.dtype.kind == "f" else np.zeros(tuple(y.shape), y._data.dtype)
        if type(y._data) is not np.ndarray:
            from ..device import cupy_module
            data = cupy_module().asarray(data)
        t = _wrap(data)
        t.stop_gradient = False
        return t
    return [one(y) for y in ys] if _is_seq(ys) else one(ys)


def _double_backward(ys, xs, v):
    u = _dummy_like(ys)
    try:
        xs_grad = _grad(ys, xs, u)
        return _grad(xs_grad, u, v)
    except DoubleBackwardError as error:
        name = getattr(error, "op_name", None)
        if name is None:
            raise
        raise ForwardModeError(
            f"forward mode (jvp) through '{name}': the op has no jvp and its backward is "
            f"first-order only, so its Jacobian-vector product is unknown. expected: a jvp "
            f"(define jvp(ctx, *tangents) on the Function) or a backward written with opsdk "
            f"ops; got: {error}") from error


# -- jvp and vjp ----------------------------------------------------------------------------
def vjp(func, xs, v=None):
    """``func(xs)`` and the vector-Jacobian product vᵀJ (paddle.incubate.autograd.vjp).

    Args:
        func: a function of the Tensors xs returning a Tensor or a sequence of Tensors.
        xs: a Tensor or a sequence of Tensors.
        v: cotangents shaped like func's outputs (ones when None).

    Returns:
        ``(ys, vjp)``: vjp a Tensor for a Tensor xs, else a tuple, one per input.
    """
    _check_inputs(func, xs, v, "vjp")
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if _is_seq(xs) else func(xs)
    _check_v_shape(v, ys, "vjp", "output")
    return ys, _grad(ys, xs, v)


def jvp(func, xs, v=None):
    """``func(xs)`` and the Jacobian-vector product J v (paddle.incubate.autograd.jvp).

    Args:
        func: a function of the Tensors xs returning a Tensor or a sequence of Tensors.
        xs: a Tensor or a sequence of Tensors.
        v: tangents shaped like xs (ones when None).

    Returns:
        ``(ys, jvp)``: jvp a Tensor for a Tensor output, else a tuple, one per output; both
        stay in the graph, so they can be differentiated again.
    """
    _check_inputs(func, xs, v, "jvp")
    xs, v = _separate(xs), _separate(v)
    ys = func(*xs) if _is_seq(xs) else func(xs)
    _check_v_shape(v, xs, "jvp", "input")
    return ys, _double_backward(ys, xs, v)


# -- lazily evaluated Jacobians -------------------------------------------------------------
def _multi_index(indexes, shape):
    """Any index as one int or slice per axis, non-negative (Paddle's: no Ellipsis)."""
    indexes = tuple(indexes) if isinstance(indexes, tuple) else (indexes,)
    if any(i is Ellipsis for i in indexes):
        raise IndexError("Ellipsis index currently is not supported.")
    indexes = indexes + (slice(0, None, None),) * (len(shape) - len(indexes))
    out = []
    for i, index in enumerate(indexes):
        if isinstance(index, slice):
            start = index.start or 0
            stop = index.stop or shape[i]
            out.append(slice(start + shape[i] if start < 0 else start,
                             stop + shape[i] if stop < 0 else stop, index.step or 1))
        elif isinstance(index, (int, np.integer)):
            out.append(int(index) + shape[i] if index < 0 else int(index))
        else:
            raise TypeError(f"Not supported index type {index}.")
    return tuple(out)


class _Lazy:
    """Rows of a flattened Jacobian, each computed (one reverse pass) when first indexed and
    cached. ``batched``: axis 0 is a batch axis and the rows run along axis 1."""

    def __init__(self, ys, xs, batched):
        self.batched = batched
        self._xs = xs
        self._fys = self._flatten(ys)
        self._fxs = self._flatten(xs)
        self._cache = {}
        self.lazy_axis = 1 if batched else 0
        if batched:
            self.inner_shape = [self._fxs.shape[0], self._fys.shape[1], self._fxs.shape[1]]
        else:
            self.inner_shape = [self._fys.shape[0], self._fxs.shape[0]]

    def _flatten(self, xs):
        parts = list(xs) if _is_seq(xs) else [xs]
        if self.batched:
            return concat([reshape(x, (x.shape[0], -1)) for x in parts], 1)
        return concat([reshape(x, (-1,)) for x in parts])

    def row(self, k):
        if k not in self._cache:
            y = self._fys[:, k] if self.batched else self._fys[k]
            self._cache[k] = self._flatten(_grad(y, self._xs))
        return self._cache[k]

    def get(self, indexes):
        indexes = _multi_index(indexes, self.inner_shape)
        axis = self.lazy_axis
        idx = indexes[axis]
        rest = indexes[:axis] + indexes[axis + 1:]
        if isinstance(idx, int):
            return self.row(idx)[rest]
        rows = range(idx.start, idx.stop, idx.step)
        shape = list(self.inner_shape)
        shape[axis] = len(rows)
        part = reshape(concat([self.row(k) for k in rows], axis), shape)
        shifted = indexes[:axis] + (slice(0, len(rows), 1),) + indexes[axis + 1:]
        return part[shifted]


class _Evaluated:
    """Arithmetic and attributes of a Jacobian act on its whole matrix (as in Paddle)."""

    def _whole(self):
        raise NotImplementedError(f"{type(self).__name__} does not say what its whole matrix is: a class on "
                                  f"_Evaluated defines _whole")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._whole(), name)

    def _binary(op):
        def method(self, other):
            rhs = other._whole() if isinstance(other, _Evaluated) else other
            return getattr(self._whole(), op)(rhs)
        method.__name__ = op
        return method

    for _op in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__",
                "__floordiv__", "__matmul__", "__eq__", "__ne__", "__lt__", "__le__",
                "__gt__", "__ge__"):
        locals()[_op] = _binary(_op)
    del _op, _binary
    __hash__ = object.__hash__


class Jacobian(_Evaluated):
    """The Jacobian of computed Tensors ys with respect to xs (paddle.autograd.jacobian's
    result): ``J[:]`` the whole matrix, ``J[i]`` (or ``J[:, i]`` batched) one row, computed
    row by row by reverse passes when indexed, and cached.

    Without a batch axis ys and xs are 0-D or 1-D and ``shape`` is ``[M, N]`` (a 0-D side
    drops its axis); with ``batch_axis=0`` they are 1-D or 2-D and ``shape`` is ``[B, M, N]``.
    """

    def __init__(self, ys, xs, is_batched=False):
        lo, hi = (1, 2) if is_batched else (0, 1)
        what = "is_batched=True" if is_batched else "is_batched=False"
        for name, t in (("xs", xs), ("ys", ys)):
            if not lo <= len(t.shape) <= hi:
                raise ValueError(f"{name}.ndim should be {lo} or {hi} when {what} but got "
                                 f"{len(t.shape)}")
        self._ys_shape, self._xs_shape = list(ys.shape), list(xs.shape)
        if not is_batched and len(ys.shape) == 0:
            ys = reshape(ys, (-1,))
        if is_batched and len(ys.shape) == 1:
            ys = reshape(ys, (-1, 1))
        xs_flat = xs if not (is_batched and len(xs.shape) == 1) else xs
        self._lazy = _Lazy(ys, xs_flat, is_batched)
        if is_batched:
            self.shape = [self._lazy.inner_shape[0], *self._ys_shape[1:2], *self._xs_shape[1:2]]
        else:
            self.shape = [*self._ys_shape[0:1], *self._xs_shape[0:1]]
        self._batched = is_batched

    def __getitem__(self, indexes):
        if not self._batched:
            if len(self.shape) == 0:
                raise IndexError("0-D tensor can not be indexed.")
            if len(self.shape) == 1:
                indexes = (0, indexes) if len(self._ys_shape) == 0 else (indexes, 0)
        else:
            if len(self.shape) == 1:
                indexes = (indexes, 0, 0)
            elif len(self.shape) == 2:
                if isinstance(indexes, slice):
                    indexes = (indexes, slice(None, None, None))
                else:
                    indexes = ((indexes[0], 0, indexes[1]) if len(self._ys_shape) == 1
                               else (indexes[0], indexes[1], 0))
        result = self._lazy.get(indexes)
        while len(result.shape) > len(self.shape) and result.shape[-1] == 1:
            result = reshape(result, result.shape[:-1])
        return result

    def _whole(self):
        if len(self.shape) == 0:
            return reshape(self._lazy.row(0), [])
        return self[:]


class Hessian(Jacobian):
    """The Hessian of a one-element ys (paddle.autograd.hessian's result); indexed as Jacobian."""


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian(s) of ys with respect to xs, evaluated lazily (paddle.autograd.jacobian).

    Args:
        ys: a Tensor or a tuple of Tensors computed from xs.
        xs: a Tensor or a tuple of Tensors that need gradients.
        batch_axis: None, or 0 when axis 0 of ys and xs is a batch axis.

    Returns:
        A Jacobian; a tuple of them for a tuple ys or xs; a tuple of tuples for both.
    """
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    if _is_seq(ys) and _is_seq(xs):
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if _is_seq(ys):
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if _is_seq(xs):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys, xs, batch_axis=None):
    """The Hessian(s) of a one-element ys (per batch row with batch_axis=0) with respect to xs,
    evaluated lazily (paddle.autograd.hessian): a Hessian, or a tuple of tuples for a tuple xs.
    """
    if batch_axis is None:
        if int(np.prod(ys.shape)) > 1:
            raise ValueError(f"Only support ys.numel()({int(np.prod(ys.shape))})==1 when "
                             "batch_axis is None.")
        ys = reshape(ys, ())
    elif isinstance(batch_axis, int) and not isinstance(batch_axis, bool):
        if int(np.prod(ys.shape[1:])) > 1:
            raise ValueError(f"Only support ys[0].numel()({int(np.prod(ys.shape))})==1 when "
                             "batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = reshape(ys, (-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)

    def gradient(j):
        # the gradient, as Paddle's Jacobian object reads when passed as ys: (B, N) batched
        g = j._whole()
        return reshape(g, (g.shape[0], -1)) if batch_axis is not None else g

    if not _is_seq(xs):
        h = jacobian(gradient(first), xs, batch_axis)
        h.__class__ = Hessian
        return h
    out = tuple(jacobian(gradient(j), xs, batch_axis) for j in first)
    for row in out:
        for h in row:
            h.__class__ = Hessian
    return out


# -- paddle.incubate.autograd's Jacobian and Hessian of a function --------------------------
class FunctionJacobian:
    """The Jacobian of ``func`` at xs (paddle.incubate.autograd.Jacobian): ``shape`` is
    ``(M, N)`` over the flattened outputs and inputs, ``(B, M, N)`` with is_batched; indexing
    computes the rows it needs (reverse passes) and caches them."""

    def __init__(self, func, xs, is_batched=False):
        self._xs = _separate(xs)
        self._ys = func(*_as_tuple(self._xs))
        self._lazy = _Lazy(_as_tuple(self._ys), _as_tuple(self._xs), is_batched)

    @property
    def shape(self):
        return tuple(self._lazy.inner_shape)

    def __getitem__(self, indexes):
        return self._lazy.get(indexes)


def _as_tuple(xs):
    return tuple(xs) if _is_seq(xs) else (xs,)


class FunctionHessian:
    """The Hessian of a one-output ``func`` at xs (paddle.incubate.autograd.Hessian): the
    Jacobian of its gradient, indexed the same way."""

    def __init__(self, func, xs, is_batched=False):
        def gradient(*xs):
            jac = FunctionJacobian(func, xs, is_batched=is_batched)
            if (is_batched and jac.shape[1] != 1) or (not is_batched and jac.shape[0] != 1):
                raise RuntimeError("The function given to Hessian should return as single "
                                   "element Tensor or batched single element Tensor.")
            return jac[:, 0, :] if is_batched else jac[0, :]
        self.symbolic = FunctionJacobian(gradient, xs, is_batched=is_batched)

    @property
    def shape(self):
        return self.symbolic.shape

    def __getitem__(self, indexes):
        return self.symbolic[indexes]
