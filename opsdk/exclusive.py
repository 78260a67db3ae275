"""Arrays lent out whole from a recycled buffer (the kernels' output pool, opsdk.kernels.outputs).

Such an array is a view (of the pool's buffer), yet as much its holder's own as a fresh array:
the pool hands the buffer out again only once nothing references it. ``opsdk.grad`` copies the
views it returns, since a view may alias memory someone else holds; a lent array it can hand out
as it is, which spares a copy of every large gradient (a 40 MB copy costs as much as the kernel
that wrote it).
"""
import weakref

_lent = {}  # id(array) -> a weak reference to it, while it lives


def lend(array):
    """Mark ``array`` (the whole of a recycled buffer, referenced by nobody else) as lent."""
    key = id(array)
    _lent[key] = weakref.ref(array, lambda _, key=key: _lent.pop(key, None))
    return array


def is_lent(array):
    """Whether ``array`` is itself an array ``lend`` marked (not a view of one, not another array)."""
    ref = _lent.get(id(array))
    return ref is not None and ref() is array
