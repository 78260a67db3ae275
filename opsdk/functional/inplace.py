"""In-place ops: ``x op= y``, ``x[idx] = v`` and the ``op_`` methods (``add_``, ``tanh_``, ...).

Outside the graph (no_grad, or nothing involved needs a gradient) they write x's memory and
bump its version, so a node that saved x refuses to run backward. Inside the graph:

- ``x += y`` (and ``-= *= /=``) rebinds x to a new tensor ``x + y``, as Paddle does (Paddle's
  Tensor has no ``__iadd__``); under no_grad it updates x in place (opsdk keeps the update
  ``w -= lr * w.grad`` of the seed programs working);
- ``x.add_(y)`` and the other ``op_`` methods, and ``x[idx] = v``, write x's memory (its views
  and its base see the values, as in Paddle) and move x to the new value's place in the graph
  (views.write); on a leaf that needs a gradient they raise, as in Paddle.
"""
import numpy as np

from ..autograd.grad_mode import no_grad
from ..autograd.record import clone, needs_grad, record
from ..errors import ArgumentTypeError, IndexOutOfRangeError, OpArgumentError, ShapeError
from ..tensor import Tensor, bump_version, int_result
from . import indexing, maths, views
from .creation import full, to_tensor


def _tensors(args, kwargs):
    """The Tensors among an op's arguments."""
    return [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]


def in_graph(t, args=(), kwargs=None):
    """True when an in-place op on t must be a graph op (not a plain write)."""
    others = needs_grad(*_tensors(args, kwargs or {}))
    if not (others or needs_grad(t)):
        return False
    # constants written through a view of a leaf are new values of the leaf, as in Paddle
    return others or not views.view_of_leaf(t)


def _broadcast_error(op, t, od):
    return ShapeError(f"{op}: operand of shape {list(np.shape(od))} does not broadcast to the "
                      f"tensor's shape {list(t.shape)}")


def plain_ufunc(t, ufunc, other, op):
    """t = ufunc(t, other) written into t's memory (no graph)."""
    od = other._data if isinstance(other, Tensor) else other
    try:
        ufunc(t._data, od, out=t._data, casting="same_kind")
    except ValueError:
        raise _broadcast_error(op, t, od) from None
    except TypeError:
        # a result of another kind (int tensor /= 2): computed, then cast into t's dtype
        res = ufunc(t._data, od)
        if np.shape(res) != t._data.shape:
            raise _broadcast_error(op, t, od) from None
        t._data[...] = res.astype(t._data.dtype)
    bump_version(t)
    return t


def plain_result(t, r, op, reshapes=False):
    """t's memory takes the values of r (computed without a graph); ``reshapes`` as in
    views.write."""
    if tuple(r._data.shape) != tuple(t._data.shape):
        if not reshapes:
            raise views.shape_error(t, r, op)
        if r._data.dtype != t._data.dtype:
            r = r.astype(t._data.dtype)
        return views.take_result(t, r, op, graph=False)
    views._copy_into(t._data, r._data)
    bump_version(t)
    return t


def augmented(fn, ufunc, op):
    """``x op= y``: a new tensor in the graph (Paddle), an in-place update outside it."""
    def method(self, other):
        if needs_grad(self, other if isinstance(other, Tensor) else None):
            return fn(self, other)
        return plain_ufunc(self, ufunc, other, op)
    method.__name__ = op
    return method


def inplace_method(fn, name, ufunc=None, reads_input=True, reshapes=False, writes=1):
    """``x.name(*args)``: fn(x, *args) written into x (see the module docstring).

    ``reads_input``: fn's backward reads x's values, so the graph gets a copy of the old x.
    ``reshapes``: x takes the result's shape where it has another (Paddle's ``cumsum_``
    without an axis flattens x); else that is an error.
    ``writes``: how many in-place writes Paddle makes (its ``hypot_`` is ``pow_``, ``add_``,
    ``sqrt_``: 3), so x's ``inplace_version`` advances by as many.
    """
    def method(self, *args, **kwargs):
        if in_graph(self, args, kwargs):
            if self._node is None and self._req and self._base is None:
                # a leaf that needs a gradient: Paddle writes the values, then refuses
                with no_grad():
                    plain_result(self, fn(self, *args, **kwargs), name, reshapes)
            views.check_writable(self, name)
            r = fn(views.alias(self, copy=reads_input), *args, **kwargs)
            _steps_before(self, writes)
            return views.write(self, r, name, reshapes)
        if ufunc is not None and len(args) == 1 and not kwargs:
            _steps_before(self, writes)
            return plain_ufunc(self, ufunc, args[0], name)
        with no_grad():
            r = fn(self, *args, **kwargs)
        _steps_before(self, writes)
        return plain_result(self, r, name, reshapes)
    method.__name__ = name
    method.__doc__ = f"In-place {name[:-1]}: writes the result into this tensor and returns it."
    method.__wrapped__ = fn  # inspect.signature shows fn's parameters (computed only when asked)
    return method


def _steps_before(t, writes):
    """Paddle makes some in-place ops of ``writes`` in-place steps: t's version counts the
    steps before the last one (whose write, here the op's one, counts itself)."""
    if writes > 1:
        owner = t if t._base is None else t._base
        owner._version += writes - 1


def retype_method(fn, name):
    """``x.name(*args)`` whose result has its own dtype (``equal_`` and the other comparisons
    and logical ops give bool, ``cast_`` the dtype asked): x takes the result, dtype and all,
    as in Paddle; a result of x's dtype is written into x's memory as by inplace_method."""
    def method(self, *args, **kwargs):
        graph = in_graph(self, args, kwargs)
        if graph:
            views.check_writable(self, name)
            r = fn(views.alias(self, copy=True), *args, **kwargs)
            if r._node is None and r.stop_gradient:
                # a bool result: no gradient, but the tensor stays a non-leaf that reports
                # stop_gradient=False, as Paddle's in-place comparisons leave it
                r = int_result(r._data)
        else:
            with no_grad():
                r = fn(self, *args, **kwargs)
        if r._data.shape != self._data.shape:
            raise views.shape_error(self, r, name)
        if r._data.dtype == self._data.dtype:
            return views.write(self, r, name) if graph else plain_result(self, r, name)
        return views.take_result(self, r, name, graph)
    method.__name__ = name
    method.__doc__ = f"In-place {name[:-1]}: this tensor takes the result (its dtype too)."
    method.__wrapped__ = fn
    return method


def _constant_like(x, value):
    """A tensor of x's shape filled with value whose gradient to x is zero (fill_, zero_)."""
    out = np.full_like(x._data, value) if type(x._data) is np.ndarray else x._data * 0 + value
    return record("fill", out, (x,), _ZERO)


_ZERO = (lambda g: maths.zeros_like(g),)


# fill_values_ also takes an array of x's shape (uniform_, normal_ fill with one)
fill_values_ = inplace_method(_constant_like, "fill_", reads_input=False)


def fill_(x, value):
    """Set every element to value, in place (the gradient to the old values is 0)."""
    # Paddle refuses a list, tuple, tensor or string value with a TypeError
    if not isinstance(value, (int, float, np.number, np.bool_)):
        raise ArgumentTypeError(f"fill_: value: expected: an int or float; got: "
                                f"{type(value).__name__}")
    return fill_values_(x, value)


def zero_(self):
    """Set every element to 0, in place."""
    return fill_(self, 0)


def setitem(self, idx, value):
    """``x[idx] = value``: a plain write, or a graph op in grad mode (views.write)."""
    if in_graph(self, (value,)):
        views.check_writable(self, "__setitem__")
        if self._base is not None and not self._detached:
            # through a view: the view's new value out of place, then written through
            views.write(self, indexing.setitem(views.alias(self), idx, value), "__setitem__")
        else:
            indexing.setitem_into(self, idx, value)
        return
    vd = value._data if isinstance(value, Tensor) else value
    try:
        self._data[indexing._plain_index(idx)] = vd
    except IndexError as e:
        raise IndexOutOfRangeError(f"__setitem__: index {idx!r} out of range for a tensor of "
                                   f"shape {list(self.shape)}; got: {e}") from None
    except ValueError as e:
        raise OpArgumentError(f"__setitem__: cannot assign a value of shape "
                              f"{list(np.shape(vd))} at index {idx!r} of a tensor of shape "
                              f"{list(self.shape)}; got: {e}") from None
    bump_version(self)


def shape_method(fn, inverse, name):
    """``x.reshape_(...)`` and friends: x takes a new shape over the same memory.

    ``inverse(x, t)`` maps a tensor of the new shape back to x's old shape (so the views of x
    can still be recomputed from it).
    """
    def method(self, *args, **kwargs):
        graph = needs_grad(self, *_tensors(args, kwargs))
        if graph:
            views.check_writable(self, name)
        old = list(self._data.shape)
        views._regen.active = True  # r is this tensor itself, not one more view of it
        try:
            r = fn(self, *args, **kwargs)
        finally:
            views._regen.active = False
        bump_version(self)
        self._data = r._data
        if graph:
            self._node, self._out_idx, self._req = r._node, r._out_idx, r._req
        back = lambda b, old=old, a=args, k=kwargs: inverse(b, old, a, k)
        if self._view_fn is not None:
            inner = self._view_fn
            self._view_fn = lambda b: fn(inner(b), *args, **kwargs)
        for ref in self._views or ():
            v = ref()
            if v is not None and v._view_fn is not None:
                vf = v._view_fn
                v._view_fn = lambda b, vf=vf: vf(back(b))
        return self
    method.__name__ = name
    method.__doc__ = f"In-place {name[:-1]}: this tensor takes the new shape (same memory)."
    return method


def assign(x, output=None):
    """A copy of x (a Tensor, array, list or number) as a new tensor, or written into output.

    Gradients flow through it, also into ``output`` (which then joins the graph), as Paddle's
    assign. A Python number becomes a tensor of shape [1], and lists and numbers take NumPy's
    dtype (Python floats are float64), as in Paddle.

    Example:
        >>> opsdk.assign([1.0, 2.0]).numpy()
        array([1., 2.])
    """
    if isinstance(x, Tensor):
        r = clone(x)
    else:
        if isinstance(x, (bool, int, float)):
            x = [x]
        r = to_tensor(np.asarray(x))
    if output is None:
        return r
    if not isinstance(output, Tensor):
        raise OpArgumentError(f"assign: argument 'output' must be a Tensor; got: "
                              f"{type(output).__name__}")
    if r._data.dtype != output._data.dtype:
        # Paddle: output becomes x, dtype included (an int64 x makes a float32 output int64)
        return views.take_result(output, r, "assign", graph=in_graph(output, (r,)))
    if in_graph(output, (r,)):
        views.check_writable(output, "assign")
        return views.write(output, r, "assign", reshapes=True)
    return plain_result(output, r, "assign", reshapes=True)


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    """``paddle.tensor.fill_constant``: a tensor of ``shape`` and ``dtype`` filled with ``value``,
    or those values written into ``out`` (as ``assign`` writes).

    Example:
        >>> opsdk.fill_constant([2], "int64", 3).numpy().tolist()
        [3, 3]
    """
    made = full(shape, value, dtype)
    return made if out is None else assign(made, out)

