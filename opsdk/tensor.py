"""The Tensor: an array (NumPy on CPU, CuPy on GPU) plus what autograd needs.

This file holds the data a Tensor carries and its conversions. Its operators and math methods
(``__mul__``, ``sum``, ``reshape``, ...) and ``backward`` come from the one table in
``opsdk/tensor_methods.py``, which the layers above the Tensor fill in.
"""
import itertools
import weakref

import numpy as np

from . import device as _device
from .dtypes import convert_dtype, default_float
from .dtypes import shown as _shown
from .size import Size
from .errors import (ArgumentTypeError, BackwardError, IndexOutOfRangeError, NoneArgumentError,
                     OpArgumentError, ScalarConversionError, ZeroDimLengthError)

_new = object.__new__


class HookHandle:
    """Returned by register_hook; ``remove()`` takes the hook off."""

    _next_id = 0

    def __init__(self, table):
        HookHandle._next_id += 1
        self.id = HookHandle._next_id
        self._table = table

    def remove(self):
        """Take the hook off; True if it was still registered (as Paddle's handle)."""
        return self._table.pop(self.id, None) is not None


_NAMES = itertools.count()


# np.array2string's options for a tensor's repr (opsdk.set_printoptions sets them)
PRINT_OPTIONS = {}


class Tensor:
    """A multi-dimensional array that can record how it was computed, for backward.

    Users create tensors with ``opsdk.to_tensor`` and the creation functions; they start with
    ``stop_gradient=True`` (no gradient), as in Paddle.
    """

    # the three attributes every op touches are slots (set on every creation); the rest are
    # class-level defaults, so a new tensor pays only for what differs
    __slots__ = ("_data", "_node", "_req", "__dict__", "__weakref__")
    _out_idx = 0
    # in-place writes counted per memory owner: a view reads (and bumps) its base's counter
    _version = 0
    _base = None  # the tensor owning the memory this one views (never itself a view)
    _view_fn = None  # base -> this view, as graph ops (views made in grad mode; see views.py)
    _views = None  # on a base: weak references to its views that have a _view_fn
    _detached = False  # made by detach(): shares memory, never the graph
    _grad_cleared = False  # on a leaf: clear_gradient() zeroed .grad; the next gradient replaces it
    _clears_to_none = False  # as a .grad: clear_gradient() leaves None (a sparse gradient)
    _hooks = None
    # an integer tensor asked for stop_gradient=False reports it (as Paddle) but gets no gradient
    _sg_off = False
    # such a tensor computed by an op from inputs that need gradients: not a leaf (Paddle)
    _op_result = False
    grad = None
    persistable = False
    __hash__ = object.__hash__
    # numpy must hand `ndarray op Tensor` to our reflected operators
    __array_ufunc__ = None

    def __init__(self, data=None, dtype=None, place=None, stop_gradient=True):
        self._data = to_array(data, dtype, place)
        self._node = None
        self.stop_gradient = stop_gradient

    # The array this tensor holds (NumPy on CPU, CuPy on GPU): its memory, not a copy. Code
    # outside the core reads it here; reading is as fast as the slot itself (it is the slot).
    # Assigning replaces the storage without any autograd bookkeeping (loaders, device moves).

    # -- basic attributes -------------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)  # a list that prints as Paddle's ('paddle.Size([2, 3])')

    @property
    def dtype(self):
        # Paddle's face ('paddle.float32'); it stands for the NumPy dtype everywhere
        return _shown(self._data.dtype)

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    @property
    def size(self):
        return int(self._data.size)

    def numel(self):
        """The number of elements, as a 0-d int64 tensor (as Paddle returns; ``.size`` is the
        Python int)."""
        return _wrap(np.asarray(self._data.size, dtype=np.int64))

    @property
    def place(self):
        return _device.place_of(self._data)

    @property
    def stop_gradient(self):
        return not (self._req or self._sg_off)

    @stop_gradient.setter
    def stop_gradient(self, value):
        want = not value
        # integer and bool tensors never carry gradients; the flag is kept for what it reports
        self._req = want and self._data.dtype.kind in "fc"
        if want != self._req or self._sg_off:
            self._sg_off = want and not self._req

    @property
    def is_leaf(self):
        return self._node is None and not self._op_result

    @property
    def grad_fn(self):
        return self._node

    @property
    def inplace_version(self):
        """How many in-place writes the memory of this tensor has seen (shared with its views)."""
        return version_total(self)

    @property
    def name(self):
        """The tensor's name: one given (a Parameter's), else ``generated_tensor_N`` (Paddle)."""
        d = self.__dict__
        if "_name" not in d:
            d["_name"] = f"generated_tensor_{next(_NAMES)}"
        return d["_name"]

    @name.setter
    def name(self, value):
        self.__dict__["_name"] = value

    @property
    def type(self):
        """The kind of tensor, as Paddle names it: always a dense one here."""
        return "VarType.DENSE_TENSOR"

    # -- conversion -------------------------------------------------------------------------
    def numpy(self, *paddle_flags):
        """The values as a new NumPy array (a copy, as in Paddle: later writes do not show).

        Paddle's optional flag (``x.numpy(False)``) is accepted; the result is the same."""
        d = self._data
        return d.copy() if type(d) is np.ndarray else d.get()

    def _host(self):
        """The values as a NumPy array without a copy on the CPU (read-only use inside opsdk)."""
        d = self._data
        return d if type(d) is np.ndarray else d.get()

    def item(self, *index):
        d = self._host()
        if index:
            # one int is a flat index (item(4) of a [2, 3] tensor is its fifth element), several
            # a position, as in Paddle (and NumPy's ndarray.item)
            try:
                return d.item(*index)
            except IndexError as e:
                raise IndexOutOfRangeError(f"Tensor.item(): index {index} out of range for a tensor "
                                           f"of shape {list(self.shape)}; got: {e}") from None
        if d.size != 1:
            raise OpArgumentError(f"Tensor.item(): only a tensor with one element converts to a "
                                  f"Python number; got: shape {list(self.shape)}")
        return d.reshape(()).item()

    def tolist(self):
        return self._host().tolist()

    def __array__(self, dtype=None, copy=None):
        # np.asarray(t, copy=False) asks for the memory itself; anything else gets a copy
        a = self._host() if copy is False else self.numpy()
        return a if dtype is None else a.astype(dtype, copy=copy is not False)

    def __dlpack__(self, stream=None, **kwargs):
        return self._data.__dlpack__(**({} if stream is None else {"stream": stream}), **kwargs)

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()

    def _python_scalar(self, what, allow_dims=False):
        """The one value of self for float()/int()/complex()/bool()/an index, as Paddle allows:
        bool() takes any one-element tensor, the others only a 0-d one."""
        d = self._host()
        if d.size != 1:
            raise ScalarConversionError(f"{what}: only a tensor with one element converts to a "
                                        f"Python scalar; got: shape {list(self.shape)}")
        if d.ndim and not allow_dims:
            raise ScalarConversionError(
                f"{what}: only a 0-d tensor converts to a Python scalar (as in Paddle with NumPy "
                f"2.4); got: shape {list(self.shape)}. Use t.item() or t.reshape([])")
        return d.reshape(()).item()

    def __float__(self):
        return float(self._python_scalar("float()"))

    def __int__(self):
        return int(self._python_scalar("int()"))

    def __complex__(self):
        return complex(self._python_scalar("complex()"))

    def __bool__(self):
        return bool(self._python_scalar("bool()", allow_dims=True))

    def __index__(self):
        if self._data.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index; got: {self.dtype}")
        return int(self._python_scalar("a tensor used as an index"))

    def __len__(self):
        if self._data.ndim == 0:
            raise ZeroDimLengthError("len() of a 0-d tensor; expected: a tensor with at least "
                                     "1 dimension (Paddle asserts there)")
        return self._data.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        body = np.array2string(self._host(), separator=", ", prefix="       ", **PRINT_OPTIONS)
        return (f"Tensor(shape={list(self._data.shape)}, dtype={self._data.dtype}, place={self.place}, "
                f"stop_gradient={self.stop_gradient},\n       {body})")

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.size == 1 and spec:
            return format(self.item(), spec)
        return repr(self)

    # -- autograd (backward() and retain_grads() are methods from autograd.grad_api) ------
    def gradient(self):
        """The gradient as a NumPy array (which also answers ``.numpy()``), or None."""
        return None if self.grad is None else self.grad.numpy().view(GradientArray)

    def clear_gradient(self, set_to_zero=True):
        """Reset the gradient (to zeros, as Paddle does; None with set_to_zero=False)."""
        if self.grad is None:
            return
        if set_to_zero and self.grad._node is None and not self.grad._clears_to_none:
            self.grad._data[...] = 0
            bump_version(self.grad)
            # Paddle: the zeroed tensor stays zero (a reference to it keeps reading zeros); the
            # next backward gives .grad a new tensor
            self._grad_cleared = True
        else:
            self.grad = None

    def clear_grad(self):
        """Reset the gradient to zeros (Paddle's clear_grad takes no set_to_zero: see
        clear_gradient)."""
        self.clear_gradient(True)

    def detach(self):
        """A tensor sharing this one's data, cut from the graph (stop_gradient=True)."""
        t = _new(Tensor)
        t._data = self._data
        t._node = None
        t._req = False
        t._base = self._base if self._base is not None else self
        t._detached = True
        return t

    def detach_(self):
        self._node = None
        self._req = False
        return self

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new grad.

        Returns a handle whose ``remove()`` takes the hook off.
        """
        if not self._req:
            raise BackwardError("register_hook: the tensor has stop_gradient=True, so no gradient "
                                "will ever reach the hook; set stop_gradient=False first")
        if self._node is None:
            if self._hooks is None:
                self._hooks = {}
            handle = HookHandle(self._hooks)
            self._hooks[handle.id] = hook
            return handle
        node, idx = self._node, self._out_idx
        if node.pre_hooks is None:
            node.pre_hooks = {}
        if node.n_out != 1:
            if node.hooked_outputs is None:
                node.hooked_outputs = {}
            xp = _device.array_module(self._data)
            node.hooked_outputs[idx] = (xp.zeros, self._data.shape, self._data.dtype)
        table = {}
        handle = HookHandle(table)
        table[handle.id] = hook
        node.pre_hooks.setdefault(idx, []).append(lambda g, table=table, hid=handle.id:
                                                  table[hid](g) if hid in table else None)
        return handle


class GradientArray(np.ndarray):
    """The array ``Tensor.gradient()`` returns: a NumPy array that also has ``numpy()``.

    Paddle code written as ``w.gradient().numpy()`` (seen in the seed articles) keeps working.
    """

    def numpy(self):
        return self.view(np.ndarray)


def bump_version(t):
    """Record an in-place write into t's memory (the counter its base and views share).

    A node whose backward reads its own output learns here that the output changed.
    """
    node = t._node
    if node is not None and node.reads_output:
        node.output_written(t)
    b = t._base
    if b is None:
        t._version += 1
        return
    node = b._node
    if node is not None and node.reads_output:
        node.output_written(b)
    b._version += 1


def version_total(t):
    """A number that changes whenever t's memory is written in place, through t or a view."""
    b = t._base
    return t._version if b is None else b._version


def _wrap(data):
    """A new Tensor around an array, without any checks (the engine's hot path)."""
    t = _new(Tensor)
    t._data = data
    t._node = None
    t._req = False
    return t


def int_result(data):
    """An op's integer (or bool) result from inputs that need gradients: no gradient flows into
    it, but it reports stop_gradient=False and is not a leaf, as in Paddle."""
    t = _wrap(data)
    t._sg_off = True
    t._op_result = True
    return t


def _wrap_req(data, node, idx=0):
    t = _new(Tensor)
    t._data = data
    t._node = node
    t._out_idx = idx
    t._req = True
    return t


def is_tensor(x):
    return isinstance(x, Tensor)


# the public name of the ``_data`` slot (see Tensor.__init__); a slot descriptor, not a property
Tensor.array = Tensor.__dict__["_data"]


def as_array(d):
    """NumPy turns 0-d results into scalars; a Tensor always holds an array."""
    if type(d) is np.ndarray:
        return d
    if isinstance(d, np.generic) or not hasattr(d, "__cuda_array_interface__"):
        return np.asarray(d)
    return d


def to_array(data, dtype=None, place=None):
    """Any array-like as a new array of the requested dtype on the requested place.

    Python floats become the default float dtype (float32), as in Paddle.
    """
    dt = convert_dtype(dtype)
    if isinstance(data, Tensor):
        arr = data._data.copy()
    elif isinstance(data, np.ndarray):
        arr = data.copy()
    elif hasattr(data, "__cuda_array_interface__"):
        arr = data.copy()
    else:
        if isinstance(data, (list, tuple)) and any(isinstance(v, Tensor) for v in _flat(data)):
            data = _tensors_to_lists(data)
        try:
            arr = np.array(data)
        except (ValueError, TypeError) as e:
            raise ArgumentTypeError(f"to_tensor: argument 'data' is not array-like; expected: a "
                                  f"number, nested list of equal lengths or an array; got: "
                                  f"{type(data).__name__} ({e})") from None
        if arr.dtype == np.float64 and dt is None:
            arr = arr.astype(default_float())
        elif arr.dtype.kind == "O":
            raise ArgumentTypeError("to_tensor: argument 'data' has ragged or non-numeric "
                                  "elements; expected: a rectangular nested list of numbers")
        elif arr.dtype == np.complex128 and dt is None:
            arr = arr.astype(np.complex64)
    if arr.dtype.kind not in "biufc":  # strings, objects, dates: no tensor of those computes
        # Paddle: "Can't constructs a 'paddle.Tensor' with data type <class 'str'>", a TypeError
        raise ArgumentTypeError(f"to_tensor: argument 'data' is not numeric; expected: numbers or "
                              f"booleans (a number, nested lists of them, a numeric array); got: "
                              f"{type(data).__name__} of dtype {arr.dtype} ({str(data)[:40]!r})")
    if dt is not None and arr.dtype != dt:
        arr = arr.astype(dt)
    if place is not None:
        arr = _device.move_to(arr, _device.parse_place(place))
    return arr


def _flat(seq):
    for v in seq:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def _tensors_to_lists(seq):
    return [(_tensors_to_lists(v) if isinstance(v, (list, tuple))
             else (v.numpy() if isinstance(v, Tensor) else v)) for v in seq]


_SCALARS = (int, float, bool, complex)


def tensor_arg(x, op, arg="x"):
    """An op's argument as a Tensor: lists, arrays and numbers are wrapped (never differentiated).

    Anything else is an error naming the op and the argument: a NoneArgumentError for None
    (Paddle raises TypeError, ValueError or AttributeError there, by op; it is all three), an
    ArgumentTypeError (a ValueError and a TypeError) for another type.
    """
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple, np.ndarray, np.generic) + _SCALARS):
        return _wrap(to_array(x, None, None))
    if hasattr(x, "__cuda_array_interface__"):
        return _wrap(x)
    if x is None:
        raise NoneArgumentError(f"{op}: argument '{arg}' is required; expected: a Tensor; "
                                f"got: None")
    raise ArgumentTypeError(f"{op}: argument '{arg}' must be a Tensor, an array or a number; "
                          f"got: {type(x).__name__}")
