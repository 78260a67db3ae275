"""CSource and CudaSource: where a kernel's C or CUDA code lives and how to compile it."""

import os
import sys

from opsdk.errors import KernelBuildError


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
        cdef: C declarations of the functions Python calls (cffi ``cdef`` syntax).
        extra_compile_args: flags after the defaults (``-shared -fPIC -O2``), e.g. ``("-O3",)``.
        extra_link_args: flags for the link step, e.g. ``("-lm",)``.
        include_dirs: more directories for ``#include`` (the source's own directory is always searched).
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

    def __init__(self, path=None, *, code=None, cdef, extra_compile_args=(), extra_link_args=(),
                 include_dirs=(), libraries=(), define_macros=(), openmp=False, _depth=0):
        super().__init__(path, code, _depth + 1)
        self.cdef = cdef
        self.extra_compile_args = tuple(extra_compile_args)
        self.extra_link_args = tuple(extra_link_args)
        self.include_dirs = tuple(os.path.normpath(os.path.join(self.origin_dir, os.fspath(d))) for d in include_dirs)
        self.libraries = tuple(libraries)
        self.define_macros = tuple((m, None) if isinstance(m, str) else tuple(m) for m in define_macros)
        self.openmp = bool(openmp)


class CudaSource(_Source):
    """CUDA source of a kernel, compiled by CuPy (NVRTC) on first use on a GPU.

    Args:
        path: a ``.cu`` file, relative to the Python file that creates the CudaSource.
        code: inline CUDA code instead of a path.
        names: the ``extern "C" __global__`` functions (or template instantiations such as
            ``"axpy<float>"``) the adapter gets from the module.
        options: compiler options for NVRTC (and ``nvcc --ptx`` in compile checks), e.g. ``("-std=c++17",)``.

    Example:
        >>> src = CudaSource(code='extern "C" __global__ void k(float *y) { y[0] = 1; }', names=("k",))
        >>> src.names
        ('k',)
    """

    language = "CUDA"

    def __init__(self, path=None, *, code=None, names=(), options=(), _depth=0):
        super().__init__(path, code, _depth + 1)
        self.names = tuple(names)
        self.options = tuple(options)
