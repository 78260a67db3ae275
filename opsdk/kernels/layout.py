"""Declared adapters for kernels whose arrays are not all of one shape: ``kernel.c(source,
"stem", outputs=..., sizes=...)`` and ``kernel.cuda(source, "stem", ..., threads=...)``.

The declaration of ``<stem>_<suffix>`` still says which parameters are inputs (``const T *``),
outputs (``T *``) and numbers; what it cannot say is given as functions of the inputs (and of the
attributes, as keyword-only parameters), named by their parameters::

    kernel.c(SOURCE, "argmin_rows",
             outputs={"values": lambda x: x.shape[:-1], "index": lambda x: x.shape[:-1]},
             sizes={"rows": lambda x: x.size // x.shape[-1], "cols": lambda x: x.shape[-1]})

- ``outputs``: an output's shape (default: the first input's);
- ``sizes``: an integer parameter's value (``n``, where declared and not given, is the first
  input's element count);
- ``zeroed``: outputs that start at zero (a scatter that adds into them with atomics);
- ``scratch``: work arrays, ``{name: dtype}``: output parameters the adapter allocates (shape
  from ``outputs``, zero where also ``zeroed``) and passes, but does not return (a kernel's
  partial sums and counters);
- ``threads`` (CUDA): how many threads the grid-stride launch covers (default: ``n``).

A pointer's C type fixes its array's dtype: one that is the same in every dtype's function
(``int64_t *index``) is that dtype (``int64``) for every call; one that follows the function
(``float`` in ``_f32``, ``double`` in ``_f64``) is the kernel's float dtype, read from the first
such input. Inputs are checked against that and made C-contiguous; what the kernel reads
beyond the sizes it is given is its own affair (``opsdk check`` runs C under its bounds checks
on the CUDA simulator).
"""
import inspect

import numpy

from opsdk.errors import KernelArgumentError, KernelBuildError
from opsdk.kernels import outputs as _outputs
from opsdk.kernels.functions import function_name

# a pointer's C type -> the dtype of its array, where it does not follow the function's dtype
FIXED = {"float": "float32", "double": "float64", "int64_t": "int64", "long long": "int64",
         "long long int": "int64", "long": "int64", "int32_t": "int32", "int": "int32",
         "uint8_t": "uint8", "unsigned char": "uint8", "int8_t": "int8", "char": "int8",
         "bool": "bool", "uint32_t": "uint32", "unsigned int": "uint32", "unsigned": "uint32"}


class Layout:
    """``outputs``, ``sizes``, ``zeroed``, ``scratch`` and ``threads`` of a declared adapter, as given."""

    def __init__(self, outputs=None, sizes=None, zeroed=(), threads=None, scratch=None):
        self.outputs = dict(outputs or {})
        self.sizes = dict(sizes or {})
        self.zeroed = tuple(zeroed)
        self.scratch = dict(scratch or {})
        self.threads = threads

    def __bool__(self):
        return bool(self.outputs or self.sizes or self.zeroed or self.scratch or self.threads is not None)


class ShapedCall:
    """The checks, allocations and argument values of one declared function family."""

    def __init__(self, kernel, backend, stem, prototypes, dtypes, layout):
        self.kernel, self.backend, self.stem = kernel, backend, stem
        found = {d: prototypes.get(function_name(stem, d)) for d in dtypes}
        missing = [function_name(stem, d) for d, p in found.items() if p is None]
        if missing:
            raise self._build(f"one function per dtype ({', '.join(function_name(stem, d) for d in dtypes)})",
                              f"no {', '.join(missing)}")
        first = next(iter(found.values()))
        for proto in found.values():
            if proto.shape() != first.shape():
                raise self._build(f"{proto.name} with the parameters of {first.name}",
                                  f"{proto.name} has others")
        self.names = {d: p.name for d, p in found.items()}
        self.order = tuple(p.name for p in first.params)
        self.inputs = tuple(p.name for p in first.inputs)
        self.outputs = tuple(p.name for p in first.outputs)
        # per pointer: None where its type follows the function's dtype, else its fixed dtype
        self.fixed = {}
        for p in (*first.inputs, *first.outputs):
            types = {proto.params[self.order.index(p.name)].ctype for proto in found.values()}
            self.fixed[p.name] = numpy.dtype(FIXED[p.ctype]) if len(types) == 1 and p.ctype in FIXED \
                and not (len(found) == 1 and p.ctype in ("float", "double")) else None
        self.scalar_types = {d: {p.name: p.ctype for p in proto.scalars} for d, proto in found.items()}
        following = [x for x in self.inputs if self.fixed[x] is None]
        if not self.inputs or not following:
            raise self._build("a const pointer input whose type follows the dtype (float in _f32, "
                              "double in _f64): it chooses the function", ", ".join(self.inputs) or "no inputs")
        self.lead = following[0]
        scalars = [p.name for p in first.scalars]
        self.attrs = tuple(s for s in scalars if s not in layout.sizes and s != "n")
        for role, given in (("outputs", layout.outputs), ("sizes", layout.sizes)):
            known = self.outputs if role == "outputs" else scalars
            for name in given:
                if name not in known:
                    raise self._build(f"{role} naming {'outputs' if role == 'outputs' else 'number parameters'} "
                                      f"of {first.name} ({', '.join(known) or 'none'})", repr(name))
        for role, names in (("zeroed", layout.zeroed), ("scratch", layout.scratch)):
            for name in names:
                if name not in self.outputs:
                    raise self._build(f"{role} naming outputs of {first.name} ({', '.join(self.outputs)})", repr(name))
        try:
            self.scratch = {name: numpy.dtype(dtype) for name, dtype in layout.scratch.items()}
        except TypeError as exc:
            raise self._build("scratch dtypes NumPy knows ({name: 'float64'})", str(exc)) from None
        # keyword-only parameters of the layout's functions that no C parameter takes: attributes
        # the adapter reads itself (a table's row count), never passed to the kernel
        self.extra = tuple(dict.fromkeys(
            p.name for fn in (*layout.outputs.values(), *layout.sizes.values(), layout.threads)
            if callable(fn) for p in inspect.signature(fn).parameters.values()
            if p.kind is p.KEYWORD_ONLY and p.name not in self.attrs and p.name not in self.inputs))
        self.shape_of = {name: self._reader(f"outputs[{name!r}]", fn) for name, fn in layout.outputs.items()}
        self.size_of = {name: self._reader(f"sizes[{name!r}]", fn) for name, fn in layout.sizes.items()}
        self.threads = None if layout.threads is None else self._reader("threads", layout.threads)
        self.zeroed = frozenset(layout.zeroed)
        self.counted = "n" in scalars and "n" not in layout.sizes

    def _reader(self, where, fn):
        """``fn`` and the names it reads, which must be inputs (positional) or attributes."""
        if not callable(fn):
            raise self._build(f"{where}: a function of the inputs and attributes (e.g. lambda x: x.shape[0])",
                              type(fn).__name__)
        params = tuple(inspect.signature(fn).parameters)
        signature = inspect.signature(fn).parameters
        unknown = [p for p in params if p not in self.inputs and p not in self.attrs
                   and signature[p].kind is not signature[p].KEYWORD_ONLY]
        if unknown:
            raise self._build(f"{where} reading inputs ({', '.join(self.inputs)}) or attributes "
                              f"({', '.join(self.attrs) or 'none'}; others keyword-only) by name",
                              ", ".join(unknown))
        return fn, params

    def _build(self, expected, got):
        return KernelBuildError(f"kernel {self.kernel!r} (backend {self.backend!r}): cannot call "
                                f"{self.stem}_<dtype> for you\n  expected: {expected}\n  got: {got}")

    def _argument(self, name, expected, got):
        return KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): argument "
                                   f"{name!r}\n  expected: {expected}\n  got: {got}")

    def arrays(self, arrays, attrs, array_type, contiguous):
        """(dtype, the inputs by name made C-contiguous, outputs by name, sizes by name)."""
        if len(arrays) != len(self.inputs):
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): takes "
                                      f"{len(self.inputs)} array(s) ({', '.join(self.inputs)})\n  got: {len(arrays)}")
        wanted = (*self.attrs, *self.extra)
        unknown = sorted(set(attrs) - set(wanted))
        if unknown:
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): attributes of "
                                      f"{self.stem}_<dtype>\n  expected: {', '.join(wanted) or 'none'}\n"
                                      f"  got: {', '.join(unknown)}")
        missing = [a for a in wanted if a not in attrs]
        if missing:
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): attributes of "
                                      f"{self.stem}_<dtype>\n  expected: {', '.join(wanted)}\n"
                                      f"  got: no {', '.join(missing)}")
        given = dict(zip(self.inputs, arrays))
        for name, value in given.items():
            if not isinstance(value, array_type):
                raise self._argument(name, f"a {array_type.__module__}.{array_type.__name__}",
                                     f"{type(value).__module__}.{type(value).__name__}")
        dtype = given[self.lead].dtype
        if dtype not in self.names:
            raise self._argument(self.lead, f"one of dtypes {', '.join(d.name for d in self.names)}",
                                 f"{dtype.name}; cast it first, or force the python backend")
        for name, value in given.items():
            want = self.fixed[name] or dtype
            if value.dtype != want:
                why = f" (as {self.lead!r})" if self.fixed[name] is None else " (its C type)"
                raise self._argument(name, f"dtype {want.name}{why}", f"{value.dtype.name}; cast it first")
        given = {k: v if v.flags.c_contiguous else contiguous(v) for k, v in given.items()}
        env = {**given, **attrs}
        sizes = {name: self._size(name, fn, params, env) for name, (fn, params) in self.size_of.items()}
        if self.counted:
            sizes["n"] = given[self.lead].size
        outs = {}
        for name in self.outputs:
            shape = self._shape(name, env) if name in self.shape_of else given[self.lead].shape
            out = _outputs.empty(shape, self.scratch.get(name) or self.fixed[name] or dtype, like=given[self.lead])
            if name in self.zeroed:
                out.fill(0)
            outs[name] = out
        return dtype, given, outs, sizes

    def _size(self, name, fn, params, env):
        value = fn(**{p: env[p] for p in params})
        if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)) or value < 0:
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): sizes[{name!r}]\n"
                                      f"  expected: an integer >= 0\n  got: {value!r}")
        return int(value)

    def _shape(self, name, env):
        fn, params = self.shape_of[name]
        shape = fn(**{p: env[p] for p in params})
        shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
        if not all(isinstance(s, (int, numpy.integer)) and not isinstance(s, bool) and s >= 0 for s in shape):
            raise KernelArgumentError(f"kernel {self.kernel!r} (backend {self.backend!r}): outputs[{name!r}]\n"
                                      f"  expected: a shape (integers >= 0)\n  got: {shape!r}")
        return tuple(int(s) for s in shape)

    def thread_count(self, env, sizes):
        """The threads a CUDA launch covers: ``threads(...)`` where given, else n, else the lead's size."""
        if self.threads is not None:
            return self._size("threads", *self.threads, env)
        return sizes.get("n", env[self.lead].size)

    def result(self, outs):
        values = tuple(outs[name] for name in self.outputs if name not in self.scratch)
        return values[0] if len(values) == 1 else values


def c_adapter(kernel, stem, prototypes, dtypes, layout, lib, ffi):
    """The C adapter of a shaped declaration (pointers typed per parameter)."""
    call = ShapedCall(kernel, "c", stem, prototypes, dtypes, layout)
    functions = {d: getattr(lib, name) for d, name in call.names.items()}
    pointer_types = {}

    def pointer(name, dtype, array, writable=False):
        ctype = pointer_types.get((name, dtype))
        if ctype is None:
            from opsdk.kernels.arrays import C_TYPES
            ctype = pointer_types[(name, dtype)] = ffi.typeof(C_TYPES[call.fixed[name] or dtype])
        return ffi.from_buffer(ctype, array, writable)

    def adapter(*arrays, **attrs):
        dtype, given, outs, sizes = call.arrays(arrays, attrs, numpy.ndarray, numpy.ascontiguousarray)
        values = {**{k: pointer(k, dtype, v) for k, v in given.items()},
                  **{k: pointer(k, dtype, v, True) for k, v in outs.items()}, **sizes, **attrs}
        try:
            functions[dtype](*(values[p] for p in call.order))
        except (TypeError, OverflowError) as exc:
            raise KernelArgumentError(f"kernel {kernel!r} (backend 'c'): attributes of {stem}_<dtype>\n"
                                      f"  expected: {', '.join(call.attrs) or 'none'} as numbers\n"
                                      f"  got: {attrs} ({exc})") from None
        return call.result(outs)

    return adapter


def cuda_adapter(kernel, stem, prototypes, dtypes, layout, module, scalars):
    """The CUDA adapter of a shaped declaration: a grid-stride launch over ``threads``."""
    from opsdk.kernels.cuda import launch_1d

    call = ShapedCall(kernel, "cuda", stem, prototypes, dtypes, layout)
    unknown = sorted({f"{n} ({t})" for types in call.scalar_types.values() for n, t in types.items()
                      if t not in scalars})
    if unknown:
        raise call._build(f"number parameters of types {', '.join(sorted(scalars))}", ", ".join(unknown))
    functions = {}

    def adapter(*arrays, **attrs):
        import cupy  # only reached for CuPy arrays

        dtype, given, outs, sizes = call.arrays(arrays, attrs, cupy.ndarray, cupy.ascontiguousarray)
        fn = functions.get(dtype)
        if fn is None:
            fn = functions[dtype] = module.get_function(call.names[dtype])
        types = call.scalar_types[dtype]
        try:
            numbers = {k: scalars[types[k]](v) for k, v in {**sizes, **attrs}.items() if k in types}
        except (TypeError, ValueError, OverflowError) as exc:
            raise KernelArgumentError(f"kernel {kernel!r} (backend 'cuda'): attributes of {stem}_<dtype>\n"
                                      f"  expected: {', '.join(call.attrs) or 'none'} as numbers\n"
                                      f"  got: {attrs} ({exc})") from None
        values = {**given, **outs, **numbers}
        launch_1d(fn, call.thread_count({**given, **attrs}, sizes), tuple(values[p] for p in call.order))
        return call.result(outs)

    return adapter
