"""What every op of the pack does around its kernels: argument checks, tensors, dispatch."""
import numpy

import opsdk
from opsdk.errors import DTypeError, OpArgumentError
from opsdk.kernels import array_module, array_of  # noqa: F401 - the pack's ops take them from here
from opsdk.kernels import tensor_of as tensor

# the dtypes the C and CUDA kernels take; others (float16) run the python kernel
NATIVE = frozenset((numpy.dtype("float32"), numpy.dtype("float64")))


def float_input(t, op, arg):
    """The array of a float Tensor argument, or an error naming the op and argument."""
    if not isinstance(t, opsdk.Tensor):
        raise OpArgumentError(f"{op}: argument '{arg}' must be a Tensor; expected: opsdk.Tensor; "
                              f"got: {type(t).__name__}")
    array = t._data
    if array.dtype.kind != "f":
        raise DTypeError(f"{op}: argument '{arg}' must be a float tensor; expected: float16, "
                         f"float32 or float64; got: {array.dtype}")
    return array


def same_dtype(array, like, op, arg):
    """Raise unless ``array`` has ``like``'s dtype (kernels read both through one pointer type)."""
    if array.dtype != like.dtype:
        raise DTypeError(f"{op}: argument '{arg}' must have the dtype of 'x'; expected: "
                         f"{like.dtype}; got: {array.dtype}")
    return array


def grad_like(g, like):
    """An incoming gradient as an array of ``like``'s dtype and shape (engines may hand over
    broadcast views or another float dtype; kernels need exactly the forward's layout)."""
    array = g._data
    if array.dtype != like.dtype:
        array = array.astype(like.dtype)
    if array.shape != like.shape:
        array = array_module(array).broadcast_to(array, like.shape)
    return array


def run(kernel, *arrays, **params):
    """Call a kernel: dispatched for float32/float64, the python kernel for other dtypes."""
    if arrays[0].dtype in NATIVE:
        return kernel(*arrays, **params)
    return kernel.run("python", *arrays, **params)


def check_axis(axis, ndim, op):
    """``axis`` as a non-negative int, or an error naming the op."""
    if isinstance(axis, (bool, numpy.bool_)) or not isinstance(axis, (int, numpy.integer)):
        raise OpArgumentError(f"{op}: argument 'axis' must be an int; got: {type(axis).__name__}")
    bound = max(ndim, 1)
    if not -bound <= axis < bound:
        raise OpArgumentError(f"{op}: argument 'axis' is out of range; expected: an int in "
                              f"[{-bound}, {bound}) for a {ndim}-D input; got: {axis}")
    return int(axis) % bound


def creating_graph():
    """True inside a backward that records itself (create_graph=True): rules must then be
    written with opsdk ops so the gradient they return can be differentiated again."""
    return opsdk.is_grad_enabled()
