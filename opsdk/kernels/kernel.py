"""Kernel: one name, up to three implementations (python, c, cuda), dispatched per call."""

import threading
import warnings
from functools import partial

import numpy

from opsdk.errors import BackendUnavailableError, CacheUnusableError, KernelArgumentError, OpsdkWarning
from opsdk.kernels import unwritten
from opsdk.kernels.adapters import CAdapter, CudaAdapter
from opsdk.kernels.layout import Layout
from opsdk.kernels.arrays import device_of, mixed_dtypes_error
from opsdk.kernels.cbuild import build_c, c_buildable
from opsdk.kernels.cuda import cuda_status, load_module
from opsdk.kernels.dispatch import (BACKENDS, PREFERENCE, _env_backend, _env_get, _env_key,
                                    _forced_get, _validate)
from opsdk.kernels.sources import CSource, CudaSource

_registry = {}  # name -> Kernel, the latest created under each name
_ndarray = numpy.ndarray
_DEVICES = ("cpu", "gpu")
_ADAPTER_LEADING = {"c": 2, "cuda": 1}  # (lib, ffi) / (module) come before the kernel's own arguments
_cache_warnings = set()  # causes of an unusable kernel cache already warned about


def _forget_plans(kernels=()):
    """Every kernel remakes its dispatch plan (check mode turned on or off)."""
    for k in list(_registry.values()) + list(kernels):
        k._plans = {}


unwritten.on_switch(_forget_plans)


def _last_line(exc):
    """The last line of an error message (its 'got: ...' part)."""
    return str(exc).strip().splitlines()[-1].strip()


def all_kernels():
    """Every Kernel created in this process, by name (the latest one for a reused name).

    Returns:
        A list of Kernel objects sorted by name.

    Example:
        >>> k = Kernel("doc.example_all")
        >>> k in all_kernels()
        True
    """
    return [_registry[name] for name in sorted(_registry)]


class Kernel:
    """An array-level computation with up to three implementations, picked per call.

    Dispatch looks at the device of the array arguments: CPU arrays run ``c`` then ``python``,
    CuPy arrays run ``cuda`` then ``python``; ``use_backend`` / ``OPSDK_BACKEND`` force one.
    Before a ``c`` or ``cuda`` call, array arguments are checked against ``dtypes`` and made
    C-contiguous.

    Args:
        name: qualified name, ``"pack.kernel"``.
        dtypes: dtypes the c and cuda implementations accept for every array argument.
        arg_dtypes: per-argument overrides, e.g. ``{"index": ("int64",)}``.

    Example:
        >>> scale = Kernel("doc.scale")
        >>> @scale.python
        ... def _(x, *, alpha):
        ...     return x * alpha
        >>> scale(numpy.ones(3), alpha=2.0)
        array([2., 2., 2.])
    """

    def __init__(self, name, *, dtypes=("float32", "float64"), arg_dtypes=None):
        self.name = name
        self.dtypes = tuple(numpy.dtype(d).name for d in dtypes)
        self._dtypes = frozenset(numpy.dtype(d) for d in dtypes)
        # one dtype may be given as itself ("int64") as well as in a tuple
        self._arg_dtypes = {arg: frozenset(map(numpy.dtype, (ds,) if isinstance(ds, str) else ds))
                            for arg, ds in (arg_dtypes or {}).items()}
        self.sources = {}  # backend -> CSource / CudaSource
        self._impls = {}  # backend -> adapter function
        self._arguments = {}  # backend -> the array arguments' names, where given apart from fn
        self._plans = {}  # (forced backend, device) -> plan, see _make_plan
        self._lib = None  # (lib, ffi) once the C implementation is built
        self._warned = False
        self._lock = threading.RLock()
        _registry[name] = self

    def __repr__(self):
        return f"Kernel({self.name!r}, backends={self.backends})"

    # -- registering implementations -------------------------------------------------------

    def python(self, fn, arguments=None):
        """Register the array implementation ``fn(*arrays, **params)`` (NumPy and CuPy).

        ``arguments`` names the arrays of an ``fn`` that takes ``*arrays`` (the argument checks'
        errors name them); by default they are ``fn``'s positional parameters."""
        if arguments is not None:
            self._arguments["python"] = tuple(arguments)
        self._register("python", fn, None)
        return fn

    def c(self, source, function=None, *, outputs=None, sizes=None, zeroed=(), scratch=None):
        """Register the C implementation.

        ``kernel.c(source, "stem")`` calls ``stem_f32`` / ``stem_f64`` / ... of the source with an
        adapter the SDK writes from their declarations (see ``opsdk.kernels.adapters``) and
        returns the kernel; ``@kernel.c(source)`` decorates a hand-written
        ``adapter(lib, ffi, *arrays, **params)``. Where the arrays are not all of the first
        input's shape, ``outputs`` (output shapes), ``sizes`` (integer parameters), ``zeroed``
        and ``scratch`` (work arrays not returned) say what the declaration cannot, as functions
        of the inputs (``opsdk.kernels.layout``).
        """
        if not isinstance(source, CSource):
            raise TypeError(f"kernel {self.name!r}: Kernel.c expected: a CSource\n  got: {type(source).__name__}")
        layout = Layout(outputs, sizes, zeroed, scratch=scratch)
        if layout and function is None:
            raise TypeError(f"kernel {self.name!r}: Kernel.c(outputs=, sizes=, zeroed=, scratch=) expected: a function "
                            "stem to write the adapter for\n  got: none (a hand-written adapter sizes its own arrays)")
        if function is not None:
            self._register("c", CAdapter(function, layout), source)
            return self
        return lambda fn: self._register("c", fn, source)

    def cuda(self, source, function=None, *, outputs=None, sizes=None, zeroed=(), threads=None, scratch=None):
        """Register the CUDA implementation: ``kernel.cuda(source, "stem")`` (an adapter the SDK
        writes, launching ``stem_f32`` / ``stem_f64`` / ... over every element; returns the kernel)
        or ``@kernel.cuda(source)`` on a hand-written ``adapter(module, *arrays, **params)``.
        ``outputs``, ``sizes``, ``zeroed``, ``scratch`` as for ``c``; ``threads``: how many threads
        the grid-stride launch covers, a function of the inputs (default: n)."""
        if not isinstance(source, CudaSource):
            raise TypeError(f"kernel {self.name!r}: Kernel.cuda expected: a CudaSource\n  got: {type(source).__name__}")
        layout = Layout(outputs, sizes, zeroed, threads, scratch)
        if layout and function is None:
            raise TypeError(f"kernel {self.name!r}: Kernel.cuda(outputs=, sizes=, zeroed=, threads=, scratch=) expected: "
                            "a function stem to write the adapter for\n  got: none (a hand-written adapter "
                            "sizes its own arrays)")
        if function is not None:
            self._register("cuda", CudaAdapter(function, layout), source)
            return self
        return lambda fn: self._register("cuda", fn, source)

    def _register(self, backend, fn, source):
        """Store an implementation and forget every plan made without it."""
        with self._lock:
            self._impls[backend] = fn
            if source is not None:
                self.sources[backend] = source
            if backend == "c":
                self._lib = None
            self._plans = {}
        return fn

    @property
    def backends(self):
        """The implemented backends, in the order python, c, cuda."""
        return tuple(b for b in BACKENDS if b in self._impls)

    def available_backends(self, device="cpu"):
        """The implemented backends that can run here for arrays on ``device`` ("cpu" or "gpu")."""
        if device not in _DEVICES:
            raise ValueError(f"kernel {self.name!r}: device expected: 'cpu' or 'gpu'\n  got: {device!r}")
        found = []
        for backend in self.backends:
            if backend == "python":
                found.append(backend)
            elif backend == "c" and device == "cpu" and (self._lib is not None or c_buildable(self.sources["c"])[0]):
                found.append(backend)
            elif backend == "cuda" and device == "gpu" and cuda_status()[0]:
                found.append(backend)
        return tuple(found)

    # -- calling ---------------------------------------------------------------------------

    def __call__(self, /, *args, **kwargs):
        """Run the best available (or the forced) implementation for the arguments' device."""
        forced = _forced_get()  # forced_backend(), inlined: this is the per-call hot path
        if forced is None:
            raw = _env_get(_env_key)
            forced = None if raw is None else _env_backend(raw)
        else:
            forced = forced or None
        if args and type(args[0]) is _ndarray:
            device = "cpu"  # the common case, without a call
        else:
            device = device_of(args) if args else device_of(kwargs.values())
        plan = self._plans.get((forced, device))
        if plan is None:
            plan = self._plan(forced, device)
        fn, allowed, array_type, fix = plan
        if array_type is not None:  # c / cuda: check dtypes and layout first
            dtype = None
            for value in args:
                if isinstance(value, array_type):
                    if value.dtype not in allowed or not value.flags.c_contiguous or \
                            (dtype is not None and value.dtype is not dtype):
                        return fix.call(fn, args, kwargs)
                    dtype = value.dtype
            for value in kwargs.values():
                if isinstance(value, array_type) and (value.dtype not in allowed or not value.flags.c_contiguous
                                                      or (dtype is not None and value.dtype is not dtype)):
                    return fix.call(fn, args, kwargs)
        elif fix is not None and (len(args) > 1 or kwargs):
            # python: arrays of one dtype pass at the cost of a type test each
            kind, dtype = fix.array_type, None
            for value in args:
                if type(value) is kind:
                    if dtype is None:
                        dtype = value.dtype
                    elif value.dtype is not dtype:
                        fix.one_float_dtype(args, kwargs)
                        break
            for value in kwargs.values():
                if type(value) is kind:
                    if dtype is None:
                        dtype = value.dtype
                    elif value.dtype is not dtype:
                        fix.one_float_dtype(args, kwargs)
                        break
        return fn(*args, **kwargs)

    def run(self, backend, /, *args, **kwargs):
        """Run one named backend (no fallback); ``BackendUnavailableError`` if it cannot run."""
        if _validate(backend, "Kernel.run") is None:
            raise BackendUnavailableError(
                f"kernel {self.name!r}: Kernel.run expected: a backend name\n  got: {backend!r}"
            )
        device = device_of(args) if args else device_of(kwargs.values())
        plan = self._plans.get((backend, device))
        if plan is None:
            plan = self._plan(backend, device)
        fn, _, array_type, fix = plan
        if array_type is None:
            if fix is not None:  # None: a declared adapter, which checks its arguments itself
                fix.one_float_dtype(args, kwargs)
            return fn(*args, **kwargs)
        return fix.call(fn, args, kwargs)

    def build_c(self):
        """Compile (or load from the cache) the C implementation; returns ``(lib, ffi)``."""
        if "c" not in self._impls:
            raise self._unavailable("c", f"it is not implemented (implemented: {self.backends})")
        with self._lock:
            if self._lib is None:
                self._lib = build_c(self.sources["c"], kernel=self.name)
            return self._lib

    def check_cuda(self, arch=None):
        """Compile-check the CUDA implementation with nvcc (see ``check_cuda_source``)."""
        from opsdk.kernels.nvcc import check_cuda_source

        if "cuda" not in self._impls:
            raise self._unavailable("cuda", f"it is not implemented (implemented: {self.backends})")
        return check_cuda_source(self.sources["cuda"], arch, kernel=self.name)

    # -- planning (once per forced backend and device) -------------------------------------

    def _plan(self, forced, device):
        """Pick and prepare the plan for (forced, device), warn once on a fallback, memoise it."""
        with self._lock:
            if forced is not None:
                plan = self._make_plan(forced, device)
            else:
                plan, skipped = None, []
                for backend in PREFERENCE[device]:
                    if backend not in self._impls:
                        continue
                    try:
                        plan = self._make_plan(backend, device)
                    except BackendUnavailableError as exc:
                        skipped.append((backend, exc))
                        continue
                    if skipped:
                        self._warn_fallback(skipped[0], backend)
                    break
                if plan is None:
                    reasons = "".join(f"; {b}: {_last_line(e)}" for b, e in skipped)
                    raise BackendUnavailableError(
                        f"kernel {self.name!r}: no backend runs on {device} arrays\n"
                        f"  expected: one of {PREFERENCE[device]} implemented and runnable\n"
                        f"  got: implemented {self.backends}{reasons}"
                    )
            self._plans[(forced, device)] = plan
            return plan

    def _warn_fallback(self, skipped, chosen):
        """One OpsdkWarning per kernel when its preferred backend cannot run."""
        if self._warned:
            return
        self._warned = True
        backend, exc = skipped
        message = (f"kernel {self.name!r}: backend {backend!r} is unavailable, falling back to "
                   f"{chosen!r}: {_last_line(exc)}")
        if isinstance(exc, CacheUnusableError):
            # one cause for every C kernel of the process: said once, not once per kernel
            cause = _last_line(exc).removeprefix("got: ")
            if cause in _cache_warnings:
                return
            _cache_warnings.add(cause)
            message = f"C kernels fall back to python (first: {self.name!r}): {cause}"
        warnings.warn(message, OpsdkWarning, stacklevel=4)

    def _unavailable(self, backend, why):
        """A BackendUnavailableError naming the kernel, the backend and why."""
        return BackendUnavailableError(
            f"kernel {self.name!r}: backend {backend!r} cannot run\n"
            f"  expected: an implemented backend that runs here (implemented: {self.backends})\n"
            f"  got: {why}"
        )

    def _make_plan(self, backend, device):
        """The plan (callable, allowed dtypes, array type, fixer) of backend on device."""
        if backend not in self._impls:
            raise self._unavailable(backend, f"{backend!r} is not implemented")
        fn = self._impls[backend]
        declared = isinstance(fn, (CAdapter, CudaAdapter))  # adapters the SDK writes, bound below
        if unwritten.active() and not declared:  # opsdk check: fresh buffers NaN-filled, outputs scanned
            fn = unwritten.watched(self.name, backend, fn)
        if backend == "python":
            kind = _ndarray if device == "cpu" else __import__("cupy").ndarray
            return fn, None, None, _Fixer(self, backend, None, kind)
        dtypes = tuple(map(numpy.dtype, self.dtypes))
        if backend == "c":
            if device != "cpu":
                raise self._unavailable("c", "the C backend runs on NumPy arrays; got CuPy (GPU) arrays")
            if declared:  # checks its arguments itself, in generated code; outputs from opsdk.kernels.outputs
                return self._watched(fn.bind(*self.build_c(), self.sources["c"], self.name, dtypes), "c"), \
                    None, None, None
            call, contiguous, array_type = partial(fn, *self.build_c()), numpy.ascontiguousarray, _ndarray
        else:
            if device != "gpu":
                raise self._unavailable("cuda", "the CUDA backend runs on CuPy (GPU) arrays; got NumPy arrays")
            import cupy

            module = load_module(self.sources["cuda"], self.name)
            bound = fn.bind(module, self.sources["cuda"], self.name, dtypes) if declared else partial(fn, module)
            call = _on_device_of_inputs(self._watched(bound, "cuda") if declared else bound, cupy.ndarray)
            if getattr(cupy, "__opsdk_simulator__", False):
                from opsdk.kernels.cudasim.outputs import refuse_unwritten

                call = refuse_unwritten(self.name, call)
            if declared:
                return call, None, None, None
            contiguous, array_type = cupy.ascontiguousarray, cupy.ndarray
        fix = _Fixer(self, backend, contiguous, array_type)
        # with per-argument dtypes no dtype passes the quick check: every call takes the exact path
        allowed = frozenset() if self._arg_dtypes else self._dtypes
        return call, allowed, array_type, fix

    def _watched(self, fn, backend):
        """A bound declared adapter, scanned for unwritten outputs in check mode (its outputs come
        from opsdk.kernels.outputs, which NaN-fills them there)."""
        return unwritten.watched(self.name, backend, fn) if unwritten.active() else fn

    def _dtype_error(self, backend, argument, value, allowed):
        """KernelArgumentError for an array whose dtype the c/cuda implementation does not take."""
        expected = " or ".join(sorted(d.name for d in allowed))
        return KernelArgumentError(
            f"kernel {self.name!r} (backend {backend!r}): argument {argument!r} has an unsupported dtype\n"
            f"  expected: {expected}\n"
            f"  got: {value.dtype.name} (shape {tuple(value.shape)}); cast it first, "
            f"or force a backend that takes it: use_backend('python')"
        )


def _on_device_of_inputs(call, array_type):
    """``call`` run with the device of its first CuPy array current (outputs go there, and the
    kernel launches there), on that device's current stream."""

    def run(*args, **kwargs):
        for value in args:
            if isinstance(value, array_type):
                device = getattr(value, "device", None)
                if device is None or not hasattr(device, "__enter__"):
                    break  # an array type without CuPy's device (a stand-in): run as it is
                with device:
                    return call(*args, **kwargs)
        return call(*args, **kwargs)

    return run


class _Fixer:
    """Checks array arguments of a call by name (one float dtype; c/cuda: dtypes, C-contiguous)."""

    def __init__(self, kernel, backend, contiguous, array_type):
        impl = kernel._impls[backend]
        code = getattr(impl, "__code__", None)
        skip = _ADAPTER_LEADING.get(backend, 0)
        # an implementation taking *arrays is given their names (Elementwise's are)
        self.positional = kernel._arguments.get(backend) or (
            code.co_varnames[skip:code.co_argcount] if code is not None else ())
        self.kernel, self.backend = kernel, backend
        self.contiguous, self.array_type = contiguous, array_type

    def call(self, fn, args, kwargs):
        """fn on the checked, contiguous arguments."""
        self.one_float_dtype(args, kwargs)
        return fn(*self(args), **self.named(kwargs))

    def one_float_dtype(self, args, kwargs):
        """KernelArgumentError when arrays of two float dtypes the kernel implements are mixed.

        An implementation computes in one precision: C and CUDA adapters pick the function from
        one array's dtype and read every pointer as that type. Arguments with their own dtypes
        (``arg_dtypes``) and dtypes the kernel does not implement (float16 on python) are exempt.
        """
        kernel, first = self.kernel, None
        names = (*self.positional, *(f"#{i}" for i in range(len(self.positional), len(args))))
        for name, value in (*zip(names, args), *kwargs.items()):
            dtype = getattr(value, "dtype", None)
            if dtype is None or dtype.kind != "f" or name in kernel._arg_dtypes or dtype not in kernel._dtypes \
                    or isinstance(value, numpy.generic):
                continue
            if first is None:
                first = (name, dtype)
            elif dtype != first[1]:
                raise mixed_dtypes_error(kernel.name, self.backend, first[0], first[1], name, dtype)

    def __call__(self, args):
        """The positional arguments, checked and contiguous."""
        names = (*self.positional, *(f"#{i}" for i in range(len(self.positional), len(args))))
        return tuple(self.checked(value, name) for value, name in zip(args, names))

    def named(self, kwargs):
        """The keyword arguments, checked and contiguous."""
        return {key: self.checked(value, key) for key, value in kwargs.items()}

    def checked(self, value, argument):
        """value, made C-contiguous, if it is an array of an accepted dtype; else an error."""
        if not isinstance(value, self.array_type):
            return value
        allowed = self.kernel._arg_dtypes.get(argument, self.kernel._dtypes)
        if value.dtype not in allowed:
            raise self.kernel._dtype_error(self.backend, argument, value, allowed)
        return value if value.flags.c_contiguous else self.contiguous(value)
