"""Function declarations read from C and CUDA sources: a CSource's cdef, and the prototypes adapters follow.

pycparser (which cffi ships) parses each declaration; the source itself is only scanned: comments
and preprocessor lines are dropped and every function defined at file level (outside braces) is
taken, except ``static`` ones. Functions that macros define are invisible to the scan: give their
declarations (``cdef=``) instead.
"""

import functools
import re
from dataclasses import dataclass

from opsdk.errors import KernelBuildError

# pycparser knows C's own types only; these are the ones kernels take from <stdint.h> and friends
_PRELUDE = "".join(f"typedef int {name};\n" for name in (
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "intptr_t", "uintptr_t", "size_t", "ptrdiff_t", "bool"))
_PRELUDE_LINES = _PRELUDE.count("\n")
# qualifiers and attributes cffi's cdef does not take (they change nothing for the caller)
_DROPPED = r"\b(?:inline|__inline__|__inline|restrict|__restrict__|__restrict|__extension__)\b"
_ATTRIBUTE = r"\b__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)"
_CUDA_KERNEL = (r'extern\s+"C"\s+__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+'
                r'(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(([^)]*)\)')


@dataclass(frozen=True)
class Param:
    """One parameter of a kernel function.

    Attributes:
        name: its name in the declaration.
        ctype: its base C type, e.g. ``"float"``, ``"int64_t"``, ``"long long"``.
        pointer: whether it is a pointer (an array).
        const: for a pointer, whether what it points to is const (an input, not an output).
    """

    name: str
    ctype: str
    pointer: bool
    const: bool


@dataclass(frozen=True)
class Prototype:
    """A function's name and parameters, in order."""

    name: str
    params: tuple

    @property
    def inputs(self):
        """The ``const T *`` parameters: arrays the function reads."""
        return tuple(p for p in self.params if p.pointer and p.const)

    @property
    def outputs(self):
        """The ``T *`` parameters: arrays the function writes."""
        return tuple(p for p in self.params if p.pointer and not p.const)

    @property
    def scalars(self):
        """The parameters that are not pointers."""
        return tuple(p for p in self.params if not p.pointer)

    def shape(self):
        """What one adapter needs of every dtype's function: each parameter's name and kind."""
        return tuple((p.name, p.pointer, p.const) for p in self.params)


def strip_comments(code, keep_strings=False):
    """``code`` with comments replaced by a space (and string literals emptied unless ``keep_strings``)."""
    pattern = r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''

    def blank(match):
        text = match.group(0)
        if text.startswith("/"):
            return " " + "\n" * text.count("\n")  # keep line numbers for messages
        return text if keep_strings else text[0] * 2

    return re.sub(pattern, blank, code, flags=re.S)


def _drop_preprocessor(code):
    """``code`` without preprocessor directives (continuation lines included), lines kept."""
    lines, continued = [], False
    for line in code.split("\n"):
        directive = continued or line.lstrip().startswith("#")
        continued = directive and line.rstrip().endswith("\\")
        lines.append("" if directive else line)
    return "\n".join(lines)


def _file_level_heads(code):
    """(text, line) of what precedes each ``{`` outside braces: function heads, struct heads, ..."""
    heads, depth, start = [], 0, 0
    for at, char in enumerate(code):
        if char == "{":
            if depth == 0:
                heads.append((code[start:at], code.count("\n", 0, at) + 1))
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                start = at + 1
        elif char == ";" and depth == 0:
            start = at + 1
    return heads


def _function_head(head):
    """The head cleaned for pycparser if it defines a non-static function, else None."""
    text = re.sub(_ATTRIBUTE, " ", head)
    text = re.sub(_DROPPED, " ", text)
    text = " ".join(text.split())
    if not text.endswith(")") or "(" not in text or "=" in text:
        return None  # an initializer, a struct / enum / union, an extern "C" block
    before = text[: text.index("(")].split()
    if not before or "static" in before or before[0] in ("struct", "union", "enum", "typedef"):
        return None
    return text


def _parse(declarations, where, shown=None):
    """The pycparser AST of ``declarations`` (with the stdint typedefs in front)."""
    import pycparser  # shipped with cffi; only reading declarations pays for importing it

    try:
        return pycparser.CParser().parse(_PRELUDE + declarations, filename=where)
    except pycparser.c_parser.ParseError as exc:
        problem = _renumbered(str(exc))
        raise KernelBuildError(
            f"cannot read the function declarations of {where}\n"
            f"  expected: plain C declarations, e.g. 'void scale_f64(const double *x, double *y, int64_t n, "
            f"double alpha)' (or give them: CSource(..., cdef=\"...\"))\n"
            f"  got: {f'{shown!r}: ' + problem.split(': ', 1)[-1] if shown else problem}"
        ) from None


def _renumbered(message):
    """A pycparser message with its line number counted without the typedef prelude."""
    match = re.match(r"(.*?):(\d+):(\d+): (.*)", message, flags=re.S)
    if match is None:
        return message
    return f"line {int(match[2]) - _PRELUDE_LINES}: {match[4]}"


def c_declarations(code, where="<C source>"):
    """The cffi ``cdef`` of a C source: one declaration per non-static function defined at file level.

    Args:
        code: the C source text.
        where: its name, for messages.

    Returns:
        The declarations, one per line, e.g. ``"void scale_f64(const double *x, double *y, int64_t n);"``.

    Raises:
        KernelBuildError: a function head that is not plain C, or no function at all.

    Example:
        >>> c_declarations("static int helper(int a) { return a; }\\n"
        ...                "void twice(double *x, long n) { for (long i = 0; i < n; i++) x[i] *= 2; }")
        'void twice(double *x, long n);'
    """
    from pycparser import c_ast, c_generator

    found = []
    for head, line in _file_level_heads(_drop_preprocessor(strip_comments(code))):
        text = _function_head(head)
        if text is not None:
            found.append((text, line))
    if not found:
        raise KernelBuildError(
            f"no function to call in {where}\n"
            f"  expected: at least one non-static function defined at file level (or, when macros "
            f"define them, their declarations: CSource(..., cdef=\"...\"))\n"
            f"  got: none found"
        )
    lines = []
    generator = c_generator.CGenerator()
    for text, line in found:
        ast = _parse(text + ";", f"{where}, the function at line {line}", shown=text)
        decl = ast.ext[-1]
        if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
            continue
        lines.append(generator.visit(decl) + ";")
    return "\n".join(lines)


def _param(decl, where):
    """A Param from a pycparser parameter Decl."""
    from pycparser import c_ast

    node, pointer, const = decl.type, False, False
    if isinstance(node, c_ast.PtrDecl):
        pointer = True
        node = node.type
        const = "const" in getattr(node, "quals", ())
    if not isinstance(node, c_ast.TypeDecl) or not isinstance(node.type, c_ast.IdentifierType):
        raise KernelBuildError(
            f"{where}: parameter {decl.name!r} has a type adapters cannot pass\n"
            f"  expected: a number (double, float, int64_t, ...) or a pointer to one\n"
            f"  got: {type(node).__name__}"
        )
    return Param(decl.name, " ".join(node.type.names), pointer, const)


def _prototypes(ast, where):
    """{name: Prototype} of the function declarations in a pycparser AST."""
    from pycparser import c_ast

    found = {}
    for decl in ast.ext:
        if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
            continue
        args = decl.type.args.params if decl.type.args is not None else []
        params = tuple(_param(p, f"{where}: {decl.name}") for p in args
                       if not (isinstance(p, c_ast.Typename)))  # f(void)
        found[decl.name] = Prototype(decl.name, params)
    return found


def c_prototypes(cdef, where="<cdef>"):
    """{name: Prototype} of the functions declared in a cdef.

    Example:
        >>> c_prototypes("void f(const float *x, float *y, int64_t n);")["f"].inputs[0].name
        'x'
    """
    return dict(_cdef_prototypes(cdef, where))


@functools.lru_cache(maxsize=256)
def _cdef_prototypes(cdef, where):
    # parsing is slow (pycparser, ~0.1 s a cdef) and check mode rebinds adapters for every case
    return _prototypes(_parse(cdef, where), where)


def _cuda_kernels(code):
    """[(name, parameter text)] of the ``extern "C" __global__`` functions of a CUDA source."""
    text = strip_comments(code, keep_strings=True)
    return [(match[1], re.sub(_DROPPED, " ", match[2])) for match in re.finditer(_CUDA_KERNEL, text)]


def cuda_kernel_names(code):
    """The names of the ``extern "C" __global__`` functions a CUDA source defines, in order.

    Example:
        >>> cuda_kernel_names('extern "C" __global__ void k(__half *y) { }')
        ['k']
    """
    return [name for name, _ in _cuda_kernels(code)]


def cuda_prototypes(code, where="<CUDA source>", wanted=None):
    """{name: Prototype} of the ``extern "C" __global__`` functions a CUDA source defines.

    Args:
        code: the CUDA source text.
        where: its name, for messages.
        wanted: names that must be read (their parameters in plain C types); the others are
            read where they can be (a ``__half`` parameter, say, is skipped).

    Raises:
        KernelBuildError: a wanted kernel's parameters cannot be read.

    Example:
        >>> list(cuda_prototypes('extern "C" __global__ void k(float *y, long long n) { }'))
        ['k']
    """
    found = {}
    for name, params in _cuda_kernels(code):
        declaration = f"void {name}({params});"
        try:
            found.update(_cdef_prototypes(declaration, where))  # a check asks again for every case
        except KernelBuildError:
            if wanted is not None and name in wanted:
                raise
    return found
