"""Launch arguments as CuPy passes them, checked against the kernel's parameters.

CuPy turns each argument into bytes (cupy/cuda/function.pyx ``_pointer``): an array is its
device pointer, ``None`` a null pointer, a NumPy scalar its own bytes (``numpy.float32`` four,
``numpy.int64`` eight), a Python ``int`` (``bool`` included) an int64, a ``float`` a double, a
``complex`` a complex128. The GPU reads each parameter's own width from those bytes. So a
``float`` parameter given a Python float reads half a double (garbage), a ``double`` given a
``numpy.float32`` reads four bytes past it: the simulator refuses every such launch, naming the
kernel, the argument, what the parameter expects and what was given. An integer wider than its
parameter is read by its low bytes, which is right when the value fits: that is allowed.
"""
import ctypes
from typing import NamedTuple

import numpy

from opsdk.errors import KernelArgumentError

from . import abi
from .cupy_api.cuda import MemoryPointer, current_device_id
from .cupy_api.ndarray import ndarray

_NUMPY_SCALARS = frozenset(numpy.dtype(c).type for c in "?bhilqBHILQefdFD")
_KIND_NAMES = {abi.KIND_FLOAT: "float", abi.KIND_SINT: "signed integer", abi.KIND_UINT: "unsigned integer",
               abi.KIND_BOOL: "bool"}


class Given(NamedTuple):
    """One argument as CuPy would pass it."""

    pointer: bool
    kind: int          # for scalars: abi.KIND_*; for arrays: the dtype's
    size: int
    dtype: object      # numpy dtype (scalars and arrays)
    value: object      # the Python value (scalars), the array, or None
    raw: bytes         # what CuPy puts in the parameter buffer
    words: object      # how to describe it in an error: a function of no argument (the text is
                       # made only for an error, not at every launch)


class Marshalled(NamedTuple):
    """What a launch hands the runtime, and what it keeps alive and checks afterwards."""

    pointers: object   # ctypes array of void* (one per argument)
    keep: list
    arrays: list       # (position, ndarray) of every array argument


_KINDS = {"f": abi.KIND_FLOAT, "i": abi.KIND_SINT, "u": abi.KIND_UINT, "b": abi.KIND_BOOL,
          "c": abi.KIND_VECTOR}


def _kind_of(dtype):
    return _KINDS.get(dtype.kind, abi.KIND_OTHER)


def given(value):
    """The Given of one launch argument (CuPy's conversion); TypeError for what CuPy refuses."""
    if isinstance(value, ndarray):
        a = value._a
        ptr = a.__array_interface__["data"][0]
        return Given(True, _kind_of(a.dtype), a.itemsize, a.dtype, value,
                     ptr.to_bytes(8, "little"), lambda: f"a {value.dtype} array of shape {value.shape}")
    if value is None:
        return Given(True, abi.KIND_VOID, 0, None, None, bytes(8), lambda: "None (a null pointer)")
    if isinstance(value, MemoryPointer):
        return Given(True, abi.KIND_BYTES, 1, None, value, value.ptr.to_bytes(8, "little"), lambda: "a MemoryPointer")
    if type(value) in _NUMPY_SCALARS:
        scalar = value
        words = lambda: f"numpy.{type(value).__name__} ({scalar.itemsize} bytes)"  # noqa: E731
    elif isinstance(value, int):
        scalar = numpy.int64(value)
        words = lambda: f"a Python {type(value).__name__}, passed by CuPy as an int64 (8 bytes)"  # noqa: E731
    elif isinstance(value, float):
        scalar = numpy.float64(value)
        words = lambda: "a Python float, passed by CuPy as a double (8 bytes)"  # noqa: E731
    elif isinstance(value, complex):
        scalar = numpy.complex128(value)
        words = lambda: "a Python complex, passed by CuPy as a complex128 (16 bytes)"  # noqa: E731
    elif isinstance(value, numpy.ndarray):
        raise KernelArgumentError(
            f"a NumPy (host) array of shape {value.shape} cannot be a kernel argument (CuPy: "
            f"'Unsupported type {type(value)}'): move it to the device with cupy.asarray")
    else:
        raise TypeError(f"Unsupported type {type(value)}")
    return Given(False, _kind_of(scalar.dtype), scalar.itemsize, scalar.dtype, scalar.item(),
                 scalar.tobytes(), words)


def _spelled(param):
    """C++ spelling of a parameter's type from the compiler's __PRETTY_FUNCTION__."""
    text = param.spelling.decode(errors="replace")
    return text.split("T = ", 1)[-1].rstrip("]").strip() if "T = " in text else text


def _expected(param):
    """What a parameter takes, for an error message."""
    t = _spelled(param)
    if param.type.kind == abi.KIND_POINTER:
        p = param.pointee
        if p.kind in (abi.KIND_VOID, abi.KIND_BYTES):
            return f"{t}: a device array of any dtype"
        if p.kind in _KIND_NAMES:
            return f"{t}: a device array of a {p.size * 8}-bit {_KIND_NAMES[p.kind]} dtype"
        return f"{t}: a device array"
    if param.type.kind == abi.KIND_FLOAT:
        names = {4: "numpy.float32", 8: "numpy.float64 or a Python float", 2: "numpy.float16"}
        return f"{t} ({param.type.size} bytes): {names.get(param.type.size, 'a float')}"
    if param.type.kind in (abi.KIND_SINT, abi.KIND_UINT):
        width = param.type.size * 8
        prefix = "numpy.int" if param.type.kind == abi.KIND_SINT else "numpy.uint"
        extra = " or a Python int" if width == 64 and param.type.kind == abi.KIND_SINT else ""
        return f"{t} ({param.type.size} bytes): {prefix}{width}{extra}"
    return f"{t} ({param.type.size} bytes)"


def mismatch(param, g):
    """Why argument ``g`` does not fit parameter ``param`` on a GPU, or None when it does."""
    p = param.type
    if p.kind == abi.KIND_POINTER:
        if not g.pointer:
            return "a scalar where the kernel takes a pointer (the GPU would use its bits as an address)"
        if g.dtype is None:
            return None
        e = param.pointee
        if e.kind in (abi.KIND_VOID, abi.KIND_BYTES, abi.KIND_OTHER, abi.KIND_POINTER):
            return None
        if e.kind == abi.KIND_VECTOR:  # float4 over float32, float2 over complex64, ...
            elementwise = g.kind == e.elem_kind and g.size == e.elem_size
            complex_pairs = g.kind == abi.KIND_VECTOR and g.size == 2 * e.elem_size
            if elementwise or complex_pairs:
                return None
            return f"a {g.dtype} array for a pointer to vectors of {e.elem_size * 8}-bit elements"
        if e.kind == abi.KIND_BOOL and g.size == 1 and g.kind in (abi.KIND_BOOL, abi.KIND_SINT, abi.KIND_UINT):
            return None
        same_kind = g.kind == e.kind or {g.kind, e.kind} <= {abi.KIND_SINT, abi.KIND_UINT}
        if same_kind and g.size == e.size:
            return None
        return (f"a {g.dtype} array ({g.size}-byte elements) where the kernel reads "
                f"{e.size}-byte {_KIND_NAMES.get(e.kind, 'values')}: it would reinterpret the memory")
    if g.pointer:
        return "a device array where the kernel takes a scalar (the GPU would read the pointer's bits)"
    if p.kind in (abi.KIND_SINT, abi.KIND_UINT, abi.KIND_BOOL):
        if g.kind not in (abi.KIND_SINT, abi.KIND_UINT, abi.KIND_BOOL):
            return f"{g.words()}: the kernel would read its bits as an integer"
        if g.size < p.size:
            return f"{g.words()}: the kernel reads {p.size} bytes, past the {g.size} given"
        if g.size > p.size and not _fits(int(g.value), p):
            return f"{g.words()} holding {g.value}, which does not fit in {p.size} bytes"
        return None
    if p.kind == abi.KIND_FLOAT:
        if g.kind != abi.KIND_FLOAT or g.size != p.size:
            return f"{g.words()}: the kernel reads {p.size} bytes of it as a {p.size * 8}-bit float"
        return None
    if g.size < p.size:
        return f"{g.words()}: the kernel reads {p.size} bytes"
    return None


def _fits(value, p):
    bits = 8 * p.size
    if p.kind == abi.KIND_BOOL:
        return value in (0, 1)
    if p.kind == abi.KIND_SINT:
        return -(1 << (bits - 1)) <= value < (1 << (bits - 1))
    return 0 <= value < (1 << bits) or -(1 << (bits - 1)) <= value < 0  # unsigned: same bits


def marshal(handle, args, label):
    """The Marshalled arguments of a launch of kernel ``handle``.

    Raises:
        KernelArgumentError: the count, a type or a width does not fit the kernel's parameters,
            or an array lives on another device than the launch.
    """
    args = tuple(args)
    params = handle.params
    if len(args) != len(params):
        raise KernelArgumentError(
            f"{label}: wrong number of arguments\n  expected: {len(params)} "
            f"({', '.join(_param_name(handle, i) for i in range(len(params)))})\n  got: {len(args)}")
    device = current_device_id()
    arrays, cells = [], []
    for i, (param, value) in enumerate(zip(params, args)):
        try:
            g = given(value)
        except TypeError as exc:
            raise KernelArgumentError(f"{label}: argument {_param_name(handle, i)}: {exc}") from None
        why = mismatch(param, g)
        if why:
            raise KernelArgumentError(
                f"{label}: argument {_param_name(handle, i)} does not fit the kernel's parameter\n"
                f"  expected: {_expected(param)}\n  got: {why}")
        if isinstance(value, ndarray):
            buf = value._buffer()
            if buf.device != device:
                raise KernelArgumentError(
                    f"{label}: argument {_param_name(handle, i)} lives on device {buf.device}, but the "
                    f"kernel launches on device {device} (the current device): on a GPU it reads an "
                    f"illegal address\n  expected: every array on the launch's device (with "
                    f"cupy.cuda.Device({buf.device}): ...)\n  got: device {buf.device}")
            arrays.append((i, value))
        raw = g.raw + bytes(max(0, param.type.size - len(g.raw)))
        cells.append(raw + bytes(-len(raw) % 16))  # each parameter's bytes 16-aligned
    # every parameter's bytes in one buffer (one allocation a launch, not one per argument)
    block = ctypes.create_string_buffer(b"".join(cells) or bytes(16))
    pointers = (ctypes.c_void_p * max(1, len(args)))()
    at = ctypes.addressof(block)
    for i, cell in enumerate(cells):
        pointers[i] = at
        at += len(cell)
    return Marshalled(pointers, [block], arrays)


def _param_name(handle, i):
    name = handle.names[i] if i < len(handle.names) and handle.names[i] else ""
    return f"'{name}' (#{i})" if name else f"#{i}"
