"""Adapters the SDK writes from a function's declaration: ``kernel.c(source, "stem")``, ``kernel.cuda(...)``.

The C (or CUDA) function ``<stem>_<suffix>`` of each dtype (``scale_f32``, ``scale_f64``) follows
one convention, read from its parameters:

- ``const T *name``: an input array, in the order the kernel is called with;
- ``T *name``: an output array, allocated by the SDK like the first input and returned (one
  output as an array, several as a tuple, in declaration order);
- ``n`` (an integer): the number of elements;
- any other number: an attribute, passed by keyword under its own name.

Every input must have the first input's shape and dtype (elementwise kernels); the adapter
checks that, makes inputs C-contiguous and picks the function by dtype. The C adapter is
Python code generated once per kernel, so a call costs little more than the C call itself.
"""

import keyword

import numpy

from opsdk.errors import KernelArgumentError, KernelBuildError
from opsdk.kernels import outputs
from opsdk.kernels.arrays import mixed_dtypes_error
from opsdk.kernels.functions import function_name

_INTEGER_TYPES = {"int", "long", "long long", "int32_t", "int64_t", "size_t", "ptrdiff_t", "intptr_t",
                  "long int", "long long int", "unsigned", "unsigned int", "unsigned long", "uint32_t",
                  "uint64_t"}
# numpy scalar types CuPy passes as each C parameter type
_CUDA_SCALARS = {"float": numpy.float32, "double": numpy.float64, "int": numpy.int32, "int32_t": numpy.int32,
                 "long long": numpy.int64, "long long int": numpy.int64, "int64_t": numpy.int64,
                 "long": numpy.int64, "unsigned int": numpy.uint32, "unsigned": numpy.uint32,
                 "bool": numpy.bool_, "char": numpy.int8}
# what the fast path lets through to the checked path: a non-array, a dtype with no function,
# a non-contiguous array (cffi's from_buffer refuses it), an attribute cffi cannot convert
_FAST_MISSES = (AttributeError, KeyError, TypeError, ValueError, BufferError)


class Convention:
    """The arrays and attributes of ``<stem>_<suffix>``, checked to agree across dtypes."""

    def __init__(self, kernel, backend, stem, prototypes, dtypes):
        self.kernel, self.backend, self.stem = kernel, backend, stem
        found = {dtype: prototypes.get(function_name(stem, dtype)) for dtype in dtypes}
        missing = [function_name(stem, d) for d, p in found.items() if p is None]
        if missing:
            known = sorted(name for name in prototypes if name.startswith(stem))
            raise self._error(f"one function per dtype ({', '.join(function_name(stem, d) for d in dtypes)})",
                              f"no {', '.join(missing)} (found: {', '.join(known) or 'none named ' + stem + '_*'})")
        first = next(iter(found.values()))
        for dtype, proto in found.items():
            if proto.shape() != first.shape():
                raise self._error(f"{proto.name} with the parameters of {first.name}",
                                  f"{_signature(proto)} against {_signature(first)}")
        self.names = {dtype: proto.name for dtype, proto in found.items()}
        self.inputs = tuple(p.name for p in first.inputs)
        self.outputs = tuple(p.name for p in first.outputs)
        sizes = [p for p in first.scalars if p.name == "n"]
        if not self.inputs or not self.outputs or not sizes or sizes[0].ctype not in _INTEGER_TYPES:
            raise self._error("const pointers to the inputs, pointers to the outputs and an integer 'n' "
                              "(the element count)", _signature(first))
        self.attrs = tuple((p.name, p.ctype) for p in first.scalars if p.name != "n")
        # float32 functions may take their attributes as float, float64 ones as double
        self.attr_types = {dtype: {p.name: p.ctype for p in proto.scalars} for dtype, proto in found.items()}
        self.order = tuple(p.name for p in first.params)

    def _error(self, expected, got):
        return KernelBuildError(f"kernel {self.kernel!r} (backend {self.backend!r}): cannot call "
                                f"{self.stem}_<dtype> for you\n  expected: {expected}\n  got: {got}")

    def check_arrays(self, arrays, array_type, contiguous):
        """The inputs made C-contiguous, after checking they are arrays of one dtype and shape."""
        if len(arrays) != len(self.inputs):
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): takes "
                                      f"{len(self.inputs)} array(s) ({', '.join(self.inputs)})\n"
                                      f"  got: {len(arrays)}")
        first = arrays[0]
        for name, value in zip(self.inputs, arrays):
            if not isinstance(value, array_type):
                got = f"{type(value).__module__}.{type(value).__name__}"
                raise self._argument(name, f"a {array_type.__module__}.{array_type.__name__}", got)
            if value.dtype not in self.names:
                raise self._argument(name, f"one of dtypes {', '.join(d.name for d in self.names)}",
                                     f"{value.dtype.name}; cast it first, or force the python backend")
            if value.dtype != first.dtype:
                raise mixed_dtypes_error(self.kernel, self.backend, self.inputs[0], first.dtype, name, value.dtype)
            if value.shape != first.shape:
                raise self._argument(name, f"the shape of {self.inputs[0]!r}: {tuple(first.shape)}",
                                     f"{tuple(value.shape)} (elementwise kernels take arrays of one shape)")
        return tuple(v if v.flags.c_contiguous else contiguous(v) for v in arrays)

    def _argument(self, name, expected, got):
        return KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): argument "
                                   f"{name!r}\n  expected: {expected}\n  got: {got}")

    def attribute_error(self, attrs, exc):
        """KernelArgumentError for attributes the function cannot take."""
        wanted = ", ".join(f"{n} ({t})" for n, t in self.attrs) or "none"
        given = ", ".join(f"{k}={v!r}" for k, v in attrs.items()) or "none"
        return KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): attributes of "
                                   f"{self.stem}_<dtype>\n  expected: {wanted}\n  got: {given} ({exc})")


def _signature(proto):
    return f"{proto.name}({', '.join(_param_text(p) for p in proto.params)})"


def _param_text(p):
    return f"{'const ' if p.const else ''}{p.ctype} {'*' if p.pointer else ''}{p.name}"


class CAdapter:
    """The C implementation of a kernel, written by the SDK from ``<stem>_<suffix>``'s declarations
    (and a ``Layout`` where its arrays are not all of one shape: opsdk.kernels.layout)."""

    def __init__(self, stem, layout=None):
        self.stem = stem
        self.layout = layout

    def bind(self, lib, ffi, source, kernel, dtypes):
        """The fast adapter for a compiled source: Python code generated for this function."""
        from opsdk.kernels.declarations import c_prototypes

        if self.layout:
            from opsdk.kernels.layout import c_adapter
            return c_adapter(kernel, self.stem, c_prototypes(source.cdef, source.display_name), dtypes,
                             self.layout, lib, ffi)
        convention = Convention(kernel, "c", self.stem, c_prototypes(source.cdef, source.display_name), dtypes)
        table = {dtype: (getattr(lib, name), ffi.typeof(_c_array(ffi, dtype))) for dtype, name in convention.names.items()}
        return _generate_c_adapter(convention, table, ffi.from_buffer)

    def __repr__(self):
        return f"CAdapter({self.stem!r})"


def _c_array(ffi, dtype):
    """The cffi array type of a dtype (``"double[]"``)."""
    from opsdk.kernels.arrays import C_TYPES

    return C_TYPES[dtype]


def _generate_c_adapter(convention, table, from_buffer):
    """Write and compile ``adapter(inputs..., *, attrs...)``: checks, allocation, pointers, the call."""
    inputs, outputs_, attrs = convention.inputs, convention.outputs, [a for a, _ in convention.attrs]
    # the code uses the C names, but a C parameter may be called `in` or `lambda`: such arrays are
    # renamed, such attributes come through **_attrs (the adapter's own names start with _)
    arrays = {name: name if _plain(name) else f"_in{at}" for at, name in enumerate(inputs)}
    arrays.update({name: name if _plain(name) else f"_out{at}" for at, name in enumerate(outputs_)})
    plain = all(_plain(a) for a in attrs)
    attr_code = {a: a if plain else f"_attrs[{a!r}]" for a in attrs}
    first = arrays[inputs[0]]
    signature = ", ".join(arrays[v] for v in inputs)
    if attrs:
        signature += ", *, " + ", ".join(attrs) if plain else ", **_attrs"
    forwarded = ", ".join(arrays[v] for v in inputs) + ("".join(f", {a}={a}" for a in attrs) if plain else
                                                         ", **_attrs" if attrs else "")
    same = " and ".join([f"{arrays[v]}.dtype is {first}.dtype and {arrays[v]}.shape == {first}.shape"
                         for v in inputs[1:]] or ["True"])
    pointers = {**{v: f"_fb(_ct, {arrays[v]})" for v in inputs}, **{v: f"_fb(_ct, {arrays[v]}, True)" for v in outputs_}}
    args = [pointers.get(p, f"{first}.size" if p == "n" else attr_code.get(p, p)) for p in convention.order]
    result = arrays[outputs_[0]] if len(outputs_) == 1 else "(" + ", ".join(arrays[o] for o in outputs_) + ")"
    code = (
        f"def {convention.stem if _plain(convention.stem) else '_adapter'}({signature}):\n"
        f"    try:\n"
        f"        _fn, _ct = _table[{first}.dtype]\n"
        f"        if {same}:\n"
        + "".join(f"            {arrays[o]} = _empty({first})\n" for o in outputs_) +
        f"            _fn({', '.join(args)})\n"
        f"            return {result}\n"
        f"    except _MISSES:\n"
        f"        pass\n"
        f"    return _checked({forwarded})\n"
    )

    def checked(*arrays, **given):
        arrays = convention.check_arrays(arrays, numpy.ndarray, numpy.ascontiguousarray)
        fn, ctype = table[arrays[0].dtype]
        outs = tuple(outputs.empty_like(arrays[0]) for _ in outputs_)
        values = {**dict(zip(inputs, (from_buffer(ctype, a) for a in arrays))),
                  **dict(zip(outputs_, (from_buffer(ctype, o, True) for o in outs))),
                  "n": arrays[0].size, **given}
        try:
            fn(*(values[p] for p in convention.order))
        except (KeyError, TypeError) as exc:
            raise convention.attribute_error(given, exc) from None
        return outs[0] if len(outs) == 1 else outs

    namespace = {"_table": table, "_fb": from_buffer, "_empty": outputs.empty_like, "_MISSES": _FAST_MISSES,
                 "_checked": checked}
    exec(compile(code, f"<opsdk C adapter of {convention.kernel!r}>", "exec"), namespace)
    adapter = namespace[convention.stem if _plain(convention.stem) else "_adapter"]
    adapter.source = code
    return adapter


def _plain(name):
    """Whether a C name can be the same name in the adapter's Python code."""
    return name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_")


class CudaAdapter:
    """The CUDA implementation of a kernel: a grid-stride ``<stem>_<suffix>`` launched over n elements."""

    def __init__(self, stem, layout=None):
        self.stem = stem
        self.layout = layout

    def bind(self, module, source, kernel, dtypes):
        """The adapter for a loaded CUDA module."""
        from opsdk.kernels.cuda import launch_1d

        wanted = {function_name(self.stem, d) for d in dtypes}
        if self.layout:
            from opsdk.kernels.layout import cuda_adapter
            return cuda_adapter(kernel, self.stem, source.prototypes(wanted), dtypes, self.layout, module,
                                _CUDA_SCALARS)
        convention = Convention(kernel, "cuda", self.stem, source.prototypes(wanted), dtypes)
        unknown = sorted({f"{n} ({t})" for types in convention.attr_types.values() for n, t in types.items()
                          if t not in _CUDA_SCALARS})
        if unknown:
            raise convention._error(f"attributes of types {', '.join(sorted(_CUDA_SCALARS))}", ", ".join(unknown))
        functions = {}

        def adapter(*arrays, **attrs):
            import cupy  # only reached for CuPy arrays

            arrays = convention.check_arrays(arrays, cupy.ndarray, cupy.ascontiguousarray)
            first = arrays[0]
            fn = functions.get(first.dtype)
            if fn is None:
                fn = functions[first.dtype] = module.get_function(convention.names[first.dtype])
            outs = tuple(outputs.empty_like(first) for _ in convention.outputs)
            values = {**dict(zip(convention.inputs, arrays)), **dict(zip(convention.outputs, outs)),
                      "n": numpy.int64(first.size)}
            try:
                types = convention.attr_types[first.dtype]
                values.update((k, _CUDA_SCALARS[types[k]](v)) for k, v in attrs.items() if k != "n")
                launch_1d(fn, first.size, tuple(values[p] for p in convention.order))
            except (KeyError, TypeError, ValueError) as exc:
                raise convention.attribute_error(attrs, exc) from None
            return outs[0] if len(outs) == 1 else outs

        return adapter

    def __repr__(self):
        return f"CudaAdapter({self.stem!r})"

