"""Array helpers for kernels: which device an array lives on, typed cffi pointers for C adapters."""

import numpy

from opsdk.errors import KernelArgumentError

_ndarray = numpy.ndarray

C_TYPES = {
    numpy.dtype(name): ctype
    for name, ctype in (
        ("float32", "float[]"), ("float64", "double[]"),
        # C has no portable half type: kernels get the raw bits
        ("float16", "uint16_t[]"),
        ("int8", "int8_t[]"), ("int16", "int16_t[]"), ("int32", "int32_t[]"), ("int64", "int64_t[]"),
        ("uint8", "uint8_t[]"), ("uint16", "uint16_t[]"), ("uint32", "uint32_t[]"), ("uint64", "uint64_t[]"),
        ("bool", "_Bool[]"),
    )
}


def is_gpu_array(value):
    """True for a CuPy array (found by its type's module, so CuPy is never imported here)."""
    return type(value).__module__.startswith("cupy")


def device_of(args):
    """'gpu' if the first array among args is a CuPy array, else 'cpu'."""
    for value in args:
        if type(value) is _ndarray:
            return "cpu"
        if hasattr(value, "__cuda_array_interface__") and is_gpu_array(value):
            return "gpu"
    return "cpu"


def c_pointer(ffi, array, *, writable=False):
    """A typed cffi pointer to a NumPy array's data, without a copy.

    Args:
        ffi: the ``ffi`` an adapter receives.
        array: a C-contiguous NumPy array of a dtype in ``C_TYPES``.
        writable: require a writable array (the kernel writes through the pointer).

    Returns:
        A cdata ``T[]`` usable wherever the C function takes ``T *``.

    Example:
        >>> y = numpy.empty(16)
        >>> lib.scale_f64(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), y.size, 2.0)  # doctest: +SKIP
    """
    # from_buffer itself refuses non-contiguous and (with writable) read-only arrays, so the
    # common case costs one dict lookup; the checks below only word the error
    try:
        return ffi.from_buffer(C_TYPES[array.dtype], array, writable)
    except (AttributeError, KeyError, TypeError, ValueError, BufferError):
        raise _pointer_error(array, writable) from None


def _pointer_error(array, writable):
    """KernelArgumentError saying why c_pointer cannot point at array."""
    if not isinstance(array, _ndarray):
        got = f"{type(array).__module__}.{type(array).__name__}"
        return KernelArgumentError(f"c_pointer: expected: a numpy.ndarray\n  got: {got}")
    if array.dtype not in C_TYPES:
        return KernelArgumentError(
            f"c_pointer: expected: one of dtypes {', '.join(d.name for d in C_TYPES)}\n  got: {array.dtype}"
        )
    if not array.flags.c_contiguous:
        return KernelArgumentError(
            f"c_pointer: expected: a C-contiguous array (numpy.ascontiguousarray)\n"
            f"  got: strides {array.strides} for shape {array.shape}"
        )
    if writable and not array.flags.writeable:
        return KernelArgumentError("c_pointer: expected: a writable array\n  got: a read-only array")
    return KernelArgumentError(f"c_pointer: cannot point at this array\n  got: {array!r:.200}")


def mixed_dtypes_error(kernel, backend, first, first_dtype, name, dtype):
    """KernelArgumentError for two array arguments of different float dtypes (C and CUDA kernels
    compute in one precision)."""
    return KernelArgumentError(
        f"kernel {kernel!r} (backend {backend!r}): arguments {first!r} and {name!r} have different float dtypes\n"
        f"  expected: one float dtype for every array argument (the kernel computes in one precision)\n"
        f"  got: {first} {first_dtype}, {name} {dtype}; cast first, e.g. {name}.astype({first}.dtype)")
