"""CSource and CudaSource: where a kernel's C or CUDA code lives and how to compile it."""

import os
import sys

from opsdk.errors import KernelBuildError

# headers the SDK ships for every C kernel (``#include "opsdk/elementwise.h"``)
SDK_INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
# stands in the cache key for a cdef read from the source (the source is in the key already);
# bump it when declarations.py reads sources differently
_DERIVED_CDEF = "cdef read from the source, v1"


def _caller(depth):
    """(directory, file, line) of the code that created a source object."""
    frame = sys._getframe(depth + 1)
    filename = frame.f_globals.get("__file__")
    if not filename:
        return os.getcwd(), "<interactive>", frame.f_lineno
    filename = os.path.abspath(filename)
    return os.path.dirname(filename), filename, frame.f_lineno


def _c_string(text):
    """text escaped for a C string literal."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


class _Source:
    """Code given either as a path (relative to the creating file) or inline."""

    language = "source"

    def __init__(self, path, code, depth):
        if (path is None) == (code is None):
            raise TypeError(
                f"{type(self).__name__}: give exactly one of a path or code=...\n"
                f"  expected: {type(self).__name__}('file.c', ...) or {type(self).__name__}(code='...', ...)\n"
                f"  got: path={path!r}, code={'None' if code is None else '<text>'}"
            )
        # origin_dir: where the creating file is (relative paths start there);
        # base_dir: where the code is (its quoted #includes start there)
        self.origin_dir, origin_file, origin_line = _caller(depth + 1)
        self.origin = f"{origin_file}:{origin_line}"
        self.code = code
        self.path = None if path is None else os.path.normpath(os.path.join(self.origin_dir, os.fspath(path)))
        self.base_dir = self.origin_dir if self.path is None else os.path.dirname(self.path)

    @property
    def display_name(self):
        """The name compilers report errors against: the file, or where inline code was written."""
        return self.path if self.path is not None else f"<inline {self.language} from {self.origin}>"

    def line_directive(self, line=1, name=None):
        """``#line line "name"`` (default: this source), so compilers report errors against it."""
        name = self.display_name if name is None else name
        return f'#line {line} "{_c_string(name)}"'

    def read(self, kernel=None):
        """The source text; a missing file raises KernelBuildError."""
        if self.code is not None:
            return self.code
        try:
            with open(self.path, encoding="utf-8") as f:
                return f.read()
        except OSError as exc:
            who = f"kernel {kernel!r}: " if kernel else ""
            raise KernelBuildError(
                f"{who}cannot read the {self.language} source\n"
                f"  expected: a readable file at {self.path}\n"
                f"    (a relative path starts at the file that created the source: {self.origin})\n"
                f"  got: {exc}"
            ) from None

    def __repr__(self):
        return f"{type(self).__name__}({self.display_name!r})"


class CSource(_Source):
    """C source of a kernel, compiled with cffi in API mode on first use.

    Args:
        path: a ``.c`` file, relative to the Python file that creates the CSource.
        code: inline C code instead of a path.
        cdef: C declarations of the functions Python calls (cffi ``cdef`` syntax); by default
            they are read from the source: every non-static function defined at file level.
        extra_compile_args: flags after the defaults (``-shared -fPIC -O2``), e.g. ``("-O3",)``.
        extra_link_args: flags for the link step, e.g. ``("-lm",)``.
        include_dirs: more directories for ``#include`` (the source's own directory and the SDK's
            headers, e.g. ``"opsdk/elementwise.h"``, are always searched).
        libraries: libraries to link, e.g. ``("m",)``.
        define_macros: ``(("NAME", "VALUE"), ...)`` or ``("NAME", ...)`` passed as ``-D``.
        openmp: compile and link with ``-fopenmp``.

    Example:
        >>> src = CSource(code="void twice(double *x, long n) { for (long i = 0; i < n; i++) x[i] *= 2; }",
        ...               cdef="void twice(double *x, long n);")
        >>> src.openmp
        False
    """

    language = "C"

    def __init__(self, path=None, *, code=None, cdef=None, extra_compile_args=(), extra_link_args=(),
                 include_dirs=(), libraries=(), define_macros=(), openmp=False, _depth=0):
        super().__init__(path, code, _depth + 1)
        self._cdef = cdef
        self._derived = (None, None)  # (source text, the cdef read from it)
        self.extra_compile_args = tuple(extra_compile_args)
        self.extra_link_args = tuple(extra_link_args)
        self.include_dirs = (*(os.path.normpath(os.path.join(self.origin_dir, os.fspath(d)))
                               for d in include_dirs), SDK_INCLUDE_DIR)
        self.libraries = tuple(libraries)
        self.define_macros = tuple((m, None) if isinstance(m, str) else tuple(m) for m in define_macros)
        self.openmp = bool(openmp)

    @property
    def cdef(self):
        """The declarations cffi binds: the ``cdef`` given, or those read from the source."""
        if self._cdef is not None:
            return self._cdef
        from opsdk.kernels.declarations import c_declarations

        code = self.read()
        if self._derived[0] != code:
            self._derived = (code, c_declarations(code, self.display_name))
        return self._derived[1]

    @property
    def cdef_given(self):
        """Whether the declarations were given (``cdef=``) rather than read from the source."""
        return self._cdef is not None

    def key_cdef(self):
        """What the cdef adds to the cache key: a read cdef follows from the source, already there."""
        return self._cdef if self._cdef is not None else _DERIVED_CDEF


class CudaSource(_Source):
    """CUDA source of a kernel, compiled by CuPy (NVRTC) on first use on a GPU.

    Args:
        path: a ``.cu`` file, relative to the Python file that creates the CudaSource.
        code: inline CUDA code instead of a path.
        names: the ``extern "C" __global__`` functions (or template instantiations such as
            ``"axpy<float>"``) the adapter gets from the module; by default every
            ``extern "C" __global__`` function the source defines.
        options: compiler options for NVRTC (and ``nvcc --ptx`` in compile checks), e.g. ``("-std=c++17",)``.

    Example:
        >>> src = CudaSource(code='extern "C" __global__ void k(float *y) { y[0] = 1; }', names=("k",))
        >>> src.names
        ('k',)
    """

    language = "CUDA"

    def __init__(self, path=None, *, code=None, names=(), options=(), _depth=0):
        super().__init__(path, code, _depth + 1)
        self._names = tuple(names)
        self.options = tuple(options)

    @property
    def names(self):
        """The kernel names: those given, or every ``extern "C" __global__`` function in the source."""
        if self._names:
            return self._names
        from opsdk.kernels.declarations import cuda_kernel_names

        return tuple(cuda_kernel_names(self.read()))

    def prototypes(self, wanted=None):
        """{name: Prototype} of the ``extern "C" __global__`` functions the source defines
        (``wanted``: names whose parameters must be readable)."""
        from opsdk.kernels.declarations import cuda_prototypes

        return cuda_prototypes(self.read(), self.display_name, wanted)
