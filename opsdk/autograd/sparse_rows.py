"""Row-sparse gradients, an engine type: what ``Embedding(sparse=True)`` leaves in ``weight.grad``.

A ``SparseRowGrad`` holds ``rows`` (int64 [k]) and ``values`` ([k, *row_shape]) standing for a
dense [n, *row_shape] gradient that is zero outside ``rows`` (repeated rows add up). The
optimizers apply it row by row, without ever building the dense array.

How it reaches ``weight.grad``: the embedding op's first-order rule returns a SparseRowGrad
for the weight; the engine sees ``is_sparse_rows`` and calls ``accumulate_rows`` instead of
densifying (opsdk.grad, which returns dense Tensors, gets the dense view). Everything else
reading the gradient (``.numpy()``, printing, arithmetic) sees the dense values.
"""
import numpy as np

from .. import device as _device
from ..errors import OpsdkError
from ..tensor import Tensor, _wrap


def coalesce_rows(rows, values):
    """(unique rows, summed values): one entry per row, rows sorted."""
    if rows.size == 0:
        return rows, values
    order = np.argsort(rows, kind="stable")
    srows = rows[order]
    starts = np.flatnonzero(np.r_[True, srows[1:] != srows[:-1]])
    if starts.size == srows.size:
        return srows, values[order]
    return srows[starts], np.add.reduceat(values[order], starts, axis=0)


class SparseRowGrad:
    """A dense-shaped gradient stored as (rows, values); see the module docstring."""

    __slots__ = ("rows", "values", "shape")

    def __init__(self, rows, values, shape):
        self.rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        self.values = values
        self.shape = tuple(shape)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def coalesce(self):
        """A copy with unique, sorted rows (repeated rows summed)."""
        rows, values = coalesce_rows(self.rows, self.values)
        return SparseRowGrad(rows, values, self.shape)

    def to_dense(self):
        """The dense gradient as an ndarray."""
        out = np.zeros(self.shape, dtype=self.values.dtype)
        rows, values = coalesce_rows(self.rows, self.values)
        out[rows] += values
        return out

    # the dense view, for everything that only reads the gradient
    def __array__(self, dtype=None, copy=None):
        d = self.to_dense()
        return d if dtype is None else d.astype(dtype)

    def get(self):
        return self.to_dense()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # numpy math (np.isnan(grad), dense += grad, ...) runs on the dense view
        if any(isinstance(o, SparseRowGrad) for o in kwargs.get("out", ())):
            return NotImplemented
        inputs = [i.to_dense() if isinstance(i, SparseRowGrad) else i for i in inputs]
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name):
        # only reached for names SparseRowGrad lacks: reductions, reshape, ... on the dense view
        if name.startswith("_") or name in SparseRowGrad.__slots__:
            raise AttributeError(name)
        return getattr(self.to_dense(), name)

    def astype(self, dtype, copy=True):
        return SparseRowGrad(self.rows.copy(), self.values.astype(dtype, copy=True), self.shape)

    def copy(self):
        return self.astype(self.values.dtype)

    # tells the engine to hand this gradient to accumulate_rows instead of densifying it
    is_sparse_rows = True

    def __add__(self, other):
        if isinstance(other, SparseRowGrad):
            return SparseRowGrad(np.concatenate([self.rows, other.rows]),
                                 np.concatenate([self.values, other.values.astype(
                                     self.values.dtype, copy=False)]), self.shape)
        return self.to_dense() + other

    def __radd__(self, other):
        return other + self.to_dense()

    def add_rows(self, rows, values):
        """Append rows in place (a later coalesce sums repeats)."""
        self.rows = np.concatenate([self.rows, np.asarray(rows, dtype=np.int64).reshape(-1)])
        self.values = np.concatenate([self.values, values.astype(self.values.dtype, copy=False)])

    def __iadd__(self, other):
        if isinstance(other, SparseRowGrad):
            self.add_rows(other.rows, other.values)
            return self
        # a dense contribution (the weight also used outside the embedding): every row counts now
        dense = np.asarray(other, dtype=self.values.dtype) + self.to_dense()
        self.rows = np.arange(self.shape[0], dtype=np.int64)
        self.values = dense
        return self

    def __setitem__(self, key, value):
        # Tensor.clear_gradient() writes grad[...] = 0
        if key is Ellipsis and np.all(np.asarray(value) == 0):
            self.rows = self.rows[:0]
            self.values = self.values[:0]
            return
        raise OpsdkError("a row-sparse gradient can only be cleared in place (grad[...] = 0); "
                         "expected: grad.to_dense() for other writes; got: item assignment")

    def __repr__(self):
        return (f"SparseRowGrad(rows={self.rows.tolist()}, dense shape={list(self.shape)}, "
                f"dtype={self.dtype})")


def _dense_binop(name):
    def op(self, other):
        other = other.to_dense() if isinstance(other, SparseRowGrad) else other
        return getattr(self.to_dense(), name)(other)
    op.__name__ = name
    return op


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__pow__", "__eq__", "__ne__", "__lt__", "__le__",
              "__gt__", "__ge__", "__getitem__"):
    setattr(SparseRowGrad, _name, _dense_binop(_name))
SparseRowGrad.__neg__ = lambda self: -self.to_dense()
SparseRowGrad.__abs__ = lambda self: np.abs(self.to_dense())
SparseRowGrad.__hash__ = None


class SparseGradTensor(Tensor):
    """The Tensor in ``weight.grad`` of a sparse embedding: Paddle's SelectedRows.

    As Paddle reports it, it holds one row per looked-up id: ``shape`` and ``numpy()`` are
    those rows' values ([k, *row_shape]) and ``rows()`` lists their ids (repeats included);
    ``to_dense()`` gives the dense [num_embeddings, *row_shape] gradient. Arithmetic on it
    (``grad * 2``, ``opsdk.sum(grad)``) reads the dense view.
    """

    # Paddle: clearing a SelectedRows gradient leaves None, whatever set_to_zero says
    _clears_to_none = True

    @property
    def place(self):
        return _device.place_of(self._data.values)

    @property
    def shape(self):
        return [int(s) for s in self._data.values.shape]

    @property
    def size(self):
        return int(self._data.values.size)

    def rows(self):
        """The ids of the stored rows, in order (a list, as Paddle's SelectedRows.rows())."""
        return self._data.rows.tolist()

    @property
    def values(self):
        return self._data.values

    @property
    def height(self):
        """The number of rows of the dense gradient (num_embeddings)."""
        return int(self._data.shape[0])

    def to_dense(self):
        """The dense gradient as a Tensor."""
        return _wrap(self._data.to_dense())

    def is_selected_rows(self):
        return True

    def numpy(self):
        return np.array(self._data.values, copy=True)

    def __repr__(self):
        return (f"SparseGradTensor(rows={self.rows()}, height={self.height}, "
                f"dtype={self.dtype}, values=\n{self._data.values})")

    __str__ = __repr__


def _sparse_grad_tensor(rows, values, shape):
    t = object.__new__(SparseGradTensor)
    t._data = SparseRowGrad(rows, values, shape)
    t._node = None
    t._req = True  # Paddle: a fresh SelectedRows gradient reports stop_gradient=False
    return t


def accumulate_rows(weight, rows, values):
    """Add a row-sparse gradient into weight.grad (sparse if it is empty or sparse, else dense)."""
    grad = weight.grad
    if grad is None:
        weight.grad = _sparse_grad_tensor(rows, values.astype(weight._data.dtype),
                                          weight._data.shape)
    elif isinstance(grad._data, SparseRowGrad):
        grad._data.add_rows(rows, values)
        grad._version += 1
        grad._req = False  # Paddle: an accumulated SelectedRows gradient reports stop_gradient=True
    elif grad._node is None:
        np.add.at(grad._data, rows, values.astype(grad._data.dtype, copy=False))
        grad._version += 1
    else:
        # weight.grad is in a graph (create_graph): the rows join it as a dense constant
        dense = np.zeros(weight._data.shape, dtype=values.dtype)
        np.add.at(dense, rows, values)
        weight.grad = grad + _wrap(dense)
