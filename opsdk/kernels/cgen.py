"""Generate the cffi extension's C file, with #line directives pointing errors at the user's source."""

import io

from opsdk.errors import KernelBuildError

_END_MARKER = "/* opsdk: end of user source */"


def generate_c(source, code, module_name, c_name, kernel=None):
    """The text of the extension's .c file (cffi API mode) for source.

    The user's code is preceded by ``#line 1 "<their file>"`` so compiler errors name their file
    and line; after it another ``#line`` hands the rest back to the generated file ``c_name``.
    """
    import cffi  # the compiler half of cffi: only ever imported to build

    ffi = cffi.FFI()
    try:
        ffi.cdef(source.cdef)
    except (cffi.CDefError, cffi.FFIError) as exc:
        who = f"kernel {kernel!r}: " if kernel else ""
        raise KernelBuildError(
            f"{who}the cdef of {source.display_name} cannot be parsed\n"
            f"  expected: C declarations of the functions Python calls, e.g. "
            f"'void scale(const double *x, double *y, int64_t n);'\n"
            f"  got: {exc}"
        ) from None
    preamble = f"{source.line_directive()}\n{code}\n{_END_MARKER}\n"
    ffi.set_source(module_name, preamble, compiler_verbose=False)
    out = io.StringIO()
    ffi.emit_c_code(out)
    lines = out.getvalue().split("\n")
    at = len(lines) - 1 - lines[::-1].index(_END_MARKER)  # the last one: user code may quote it
    # the directive names the line after it: 1-based number of the marker's successor
    lines[at] = source.line_directive(at + 2, c_name)
    return "\n".join(lines)
