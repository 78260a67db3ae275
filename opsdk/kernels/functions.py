"""One C or CUDA function per dtype, named ``<stem>_<suffix>``: the suffixes, and finding the function."""

import numpy

from opsdk.errors import KernelArgumentError

SUFFIXES = {
    numpy.dtype(name): suffix
    for name, suffix in (
        ("float16", "f16"), ("float32", "f32"), ("float64", "f64"),
        ("int8", "i8"), ("int16", "i16"), ("int32", "i32"), ("int64", "i64"),
        ("uint8", "u8"), ("uint16", "u16"), ("uint32", "u32"), ("uint64", "u64"), ("bool", "b8"),
    )
}

_c_found = {}  # (id(lib), stem, dtype) -> (lib, function)
_cuda_found = {}  # (id(module), stem, dtype) -> (module, function)


def dtype_suffix(dtype):
    """The suffix of a dtype's function: ``"f32"`` for float32, ``"f64"`` for float64, ...

    Example:
        >>> dtype_suffix("float32")
        'f32'
    """
    try:
        return SUFFIXES[numpy.dtype(dtype)]
    except (KeyError, TypeError):
        raise KernelArgumentError(f"dtype_suffix: expected: one of dtypes "
                                  f"{', '.join(d.name for d in SUFFIXES)}\n  got: {dtype!r}") from None


def function_name(stem, dtype):
    """``<stem>_<suffix>``, e.g. ``function_name("scale", "float64") == "scale_f64"``."""
    return f"{stem}_{dtype_suffix(dtype)}"


def c_function(lib, stem, dtype):
    """The function of a compiled C source for one dtype: ``lib.<stem>_f32`` for float32, ...

    Args:
        lib: the ``lib`` a C adapter receives.
        stem: the name without its dtype suffix.
        dtype: the dtype of the arrays the function takes.

    Returns:
        The cffi function (looked up once per lib, stem and dtype).

    Raises:
        KernelArgumentError: the source defines no such function.

    Example:
        >>> c_function(lib, "scale", x.dtype)(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size, 2.0)  # doctest: +SKIP
    """
    key = (id(lib), stem, dtype)
    found = _c_found.get(key)
    if found is not None and found[0] is lib:
        return found[1]
    name = function_name(stem, dtype)
    try:
        fn = getattr(lib, name)
    except AttributeError:
        known = sorted(n for n in dir(lib) if n.startswith(stem))
        raise KernelArgumentError(f"c_function: no C function {name!r} for dtype {numpy.dtype(dtype).name}\n"
                                  f"  expected: {name} defined in the C source\n"
                                  f"  got: {', '.join(known) or 'no function named ' + stem + '_*'}") from None
    _c_found[key] = (lib, fn)
    return fn


def cuda_function(module, stem, dtype):
    """The kernel of a CUDA module for one dtype: ``<stem>_f32`` for float32, ...

    Example:
        >>> launch_1d(cuda_function(module, "scale", x.dtype), x.size, (x, y, numpy.int64(x.size)))  # doctest: +SKIP
    """
    key = (id(module), stem, dtype)
    found = _cuda_found.get(key)
    if found is not None and found[0] is module:
        return found[1]
    fn = module.get_function(function_name(stem, dtype))
    _cuda_found[key] = (module, fn)
    return fn
