"""Gather and scatter-add by flat position: the adjoint pair behind the selection ops.

sort, topk, kthvalue, mode, roll, rot90, repeat_interleave, meshgrid, diag and take_along_axis
all pick elements of their input at positions fixed in the forward pass. Their output is
``take(x, flat)``; its gradient is ``put(g, flat)`` (zeros with g added at those positions), and
put's gradient is take again, so every order of derivative is exact.
"""
import numpy as np

from ..autograd.record import record
from ..device import array_module
from ..tensor import as_array
from . import maths


def positions(shape, like=None):
    """Flat positions of an array of ``shape``; NumPy's rearrangements of it say where
    each output element comes from (np.roll(positions(s), 1) is roll's source map).

    ``like``: an array whose module (NumPy, CuPy) holds the positions, for indices on a GPU;
    NumPy's by default."""
    xp = np if like is None else array_module(like)
    return xp.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)


def scatter_add_array(v, flat, shape, unique, fill=0):
    """An array of ``shape`` holding ``fill``, with v added at the flat positions ``flat``."""
    size = int(np.prod(shape, dtype=np.int64))
    idx = flat.reshape(-1)
    vals = v.reshape(-1)
    if unique or idx.size == 0:
        z = np.full_like(v, fill, shape=(size,))
        z[idx] = vals
        return z.reshape(shape)
    if vals.dtype.kind == "f":
        # bincount is many times faster than np.add.at and sums in float64
        z = np.bincount(idx, weights=vals, minlength=size).astype(vals.dtype, copy=False)
    else:
        z = np.zeros_like(v, shape=(size,))
        np.add.at(z, idx, vals)
    if fill != 0:
        hit = np.zeros(size, dtype=bool)
        hit[idx] = True
        z = np.where(hit, z, np.asarray(fill, dtype=z.dtype))
    return z.reshape(shape)


def take(name, x, flat, unique=True):
    """x's elements at the flat positions ``flat`` (an int array, the output's shape); a copy.

    ``unique`` says that no position repeats, so the gradient can be assigned, not summed.
    """
    xd = x._data
    return record(name, xd.reshape(-1)[flat], (x,), _TAKE, (name, flat, xd.shape, unique))


def put(name, v, flat, shape, unique=True, fill=0):
    """An array of ``shape`` filled with ``fill``, v added at ``flat`` (v has flat's shape)."""
    out = scatter_add_array(v._data, flat, tuple(shape), unique, fill)
    return record(name, out, (v,), _PUT, (name, flat, unique))


def taken(v, flat, unique=True, name="take"):
    """take on an array or a Tensor (a rule's maths)."""
    if maths.is_tensor(v):
        return take(name, v, flat, unique)
    return as_array(v.reshape(-1)[flat])


def put_into(v, flat, shape, unique=True, name="put"):
    """put (zeros of ``shape``, v added at ``flat``) on an array or a Tensor (a rule's maths)."""
    if maths.is_tensor(v):
        return put(name, v, flat, shape, unique)
    return scatter_add_array(v, flat, tuple(shape), unique)


# take and put are each other's adjoint, so every order of derivative is exact
_TAKE = (lambda g, name, flat, shape, unique: put_into(g, flat, shape, unique, name),)
_PUT = (lambda g, name, flat, unique: taken(g, flat, unique, name),)

maths.provide(take=taken, put=put_into)
