"""An elementwise op's C and CUDA kernels from scalar C bodies, written once for both.

The author writes, for one element, f and its derivatives as C expressions (or statements
ending in ``return``) over the inputs and float attributes by name, ``T`` being the float type
and the functions those of ``VOCABULARY``::

    value="x * sigmoid(beta * x)"
    grads=["T s = sigmoid(beta * x); return s * (1 + beta * x * (1 - s));"]   # df/dx_i
    hessian=[["..."]]                                                        # d2f/dx_i dx_j

and the SDK writes the rest: for C, a scalar function per body and dtype (the vocabulary bound
to opsdk/maths.h's ``opsdk_<name>_f32``/``_f64``, which vectorize) and the float32/float64
loops (vectorized, compiled for AVX-512/AVX2/x86-64, OpenMP above a size: opsdk/elementwise.h);
for CUDA, the bodies as ``__device__`` templates in namespace ``opsdk`` (whose overloads in
opsdk/maths.cuh carry the same names) and grid-stride kernels. The functions follow
``Elementwise``'s convention (``<op>_value_f32`` & co.), so the kernels' declarations, cdef,
launch and adapter are derived as for hand-written sources.

Decimal literals become ``T``'s (``0.5`` is a float in the float32 kernels, not a double that
would turn the loop into double maths); integer literals convert by themselves.
"""
import keyword
import re

from opsdk.errors import OpArgumentError

from .c_names import reserved_by_c

# name in a body -> (float32 function, float64 function) in C (the rows form shares it)
C_NAMES = {name: (f"opsdk_{name}_f32", f"opsdk_{name}_f64") for name in (
    "exp", "expm1", "log", "log1p", "tanh", "sigmoid", "softplus", "tanh_softplus",
    "sech2_softplus", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "asinh", "acosh", "atanh", "erf", "erfc", "erfcx", "abs", "pow")}
C_NAMES.update({name: (f"{name}f", name) for name in (
    "floor", "ceil", "fmin", "fmax", "copysign", "atan2")})
VOCABULARY = tuple(sorted(C_NAMES))

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_LOOP_NAMES = frozenset({"T", "i", "n", "lo", "hi", "out"})  # the generated loops' own names
_ARRAY_NAMES = re.compile(r"(?:grad|gg)_")  # the generated loops' gradient arrays
# a decimal literal without a suffix: 0.5, 1., .5, 1e-3, 2.5e+4 (not part of a name or a hex)
DECIMAL = re.compile(r"(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)(?![\w.])")


def array_names(inputs, stage):
    """(arrays read, arrays written) by a stage's kernel, by name, in every language (python
    kernels' argument checks, the C and CUDA loops): value reads the inputs and writes ``out``;
    grad also reads ``grad_out`` and writes ``grad_<input>``; grad2 also reads ``gg_<input>``
    and writes ``grad_<input>`` and ``grad_grad_out``."""
    xs = tuple(inputs)
    grads = tuple(f"grad_{x}" for x in xs)
    if stage == "value":
        return xs, ("out",)
    if stage == "grad":
        return (*xs, "grad_out"), grads
    return (*xs, "grad_out", *(f"gg_{x}" for x in xs)), (*grads, "grad_grad_out")


def reserved_in_body(name):
    """Why ``name`` cannot be an input or attribute of a scalar body, or None."""
    if not _IDENTIFIER.match(name):
        return "not a C identifier"
    if keyword.iskeyword(name):
        return "a keyword of Python (the python kernels take it as an argument)"
    if name in _LOOP_NAMES or _ARRAY_NAMES.match(name) or name.startswith("opsdk"):
        return "a name the generated loops use themselves (T, i, n, lo, hi, out, grad_*, gg_*, opsdk*)"
    if name in C_NAMES:
        return "a maths function of the bodies"
    return reserved_by_c(name)


def check_names(op, kind, names):
    """Refuse input and attribute names a body cannot use as C parameters."""
    for name in names:
        why = reserved_in_body(name)
        if why:
            raise OpArgumentError(
                f"{op}: {kind} name {name!r} cannot be a C parameter of a scalar body: it is "
                f"{why}; expected: another name, e.g. '{name}1'; got: {name!r}")


_WORD = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\s*\()?")
_C_WORDS = frozenset({"T", "return", "if", "else", "const", "float", "double", "int", "long"})
_LOCAL = re.compile(r"\bT\s+([A-Za-z_]\w*)")


def check_body(op, where, body, names):
    """Refuse a body that calls a function outside the vocabulary or reads a name that is no
    input, attribute or local (``T s = ...``), naming it: else the C compiler would, far from here."""
    known = {*names, *_C_WORDS, *_LOCAL.findall(body)}
    text = re.sub(r"(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?", " ", body)  # numbers
    for word, call in _WORD.findall(text):
        if call and word not in C_NAMES and word not in _C_WORDS:
            raise OpArgumentError(
                f"{op}: {where} body calls {word!r}; expected: one of the functions "
                f"{', '.join(VOCABULARY)}; got: {body!r}")
        if not call and word not in known:
            raise OpArgumentError(
                f"{op}: {where} body reads {word!r}; expected: an input, an attribute "
                f"({', '.join(names) or 'none'}) or a local declared as 'T {word} = ...'; "
                f"got: {body!r}")


# exp(-abs(u)) in a body (the whole argument): never positive, so its float32 exp needs no
# overflow side (a select fewer per element); the C code calls that exp for it
EXP_NONPOSITIVE = ("opsdk_exp_neg_f32", "exp")
_MINUS_ABS = re.compile(r"\bexp\s*\(\s*-\s*abs\s*\(")


def exp_of_minus_abs(body):
    """``body`` with each ``exp(-abs(...))`` whose argument is exactly ``-abs(...)`` calling
    ``opsdk_exp_nonpositive``."""
    out, pos = [], 0
    for match in _MINUS_ABS.finditer(body):
        depth, end = 1, match.end()
        while end < len(body) and depth:  # the abs( ... ) that the match opened
            depth += {"(": 1, ")": -1}.get(body[end], 0)
            end += 1
        rest = body[end:].lstrip()
        if depth == 0 and rest.startswith(")") and match.start() >= pos:
            out.append(body[pos:match.start()] + "opsdk_exp_nonpositive" + body[match.start() + 3:end])
            pos = end
    return "".join(out) + body[pos:]


def statements(body):
    """A body as C statements: an expression becomes ``return (expr);``; literals become T's."""
    body = DECIMAL.sub(r"((T)\1)", body.strip())
    if "return" not in body:
        return f"return ({body.rstrip(';')});"
    return body if body.endswith((";", "}")) else body + ";"


class Bodies:
    """The scalar bodies of an op with k inputs: value, k partial derivatives, a k x k hessian."""

    def __init__(self, op, inputs, attrs, value, grads, hessian):
        k = len(inputs)
        grads = [grads] if isinstance(grads, str) else list(grads)
        hessian = [[hessian]] if isinstance(hessian, str) else [
            [row] if isinstance(row, str) else list(row) for row in hessian]
        if len(grads) != k or len(hessian) != k or any(len(row) != k for row in hessian):
            raise OpArgumentError(
                f"{op}: scalar bodies: expected: {k} grad bod{'y' if k == 1 else 'ies'} and a "
                f"{k} x {k} hessian (one per input: {', '.join(inputs)}); got: {len(grads)} "
                f"and {[len(row) for row in hessian]}")
        check_names(op, "input", inputs)
        check_names(op, "attribute", attrs)
        names = (*inputs, *attrs)
        check_body(op, "value", value, names)
        for i, b in enumerate(grads):
            check_body(op, f"grad[{i}]", b, names)
        for i, row in enumerate(hessian):
            for j, b in enumerate(row):
                check_body(op, f"grad2[{i}][{j}]", b, names)
        self.short = op.rsplit(".", 1)[-1]
        self.inputs, self.attrs = tuple(inputs), tuple(attrs)
        self.value = statements(value)
        self.grads = [statements(b) for b in grads]
        self.hessian = [[statements(b) for b in row] for row in hessian]

    # -- the functions both languages share -------------------------------------------------

    def _scalars(self, prefix, signature, rewrite=lambda body: body):
        """Every body as a function of the inputs and attributes (each marked used: a body
        that does not read one, like a constant second derivative, compiles without a warning)."""
        funcs = [(f"{prefix}value", self.value)]
        funcs += [(f"{prefix}d{i}", b) for i, b in enumerate(self.grads)]
        funcs += [(f"{prefix}h{i}_{j}", b) for i, row in enumerate(self.hessian)
                  for j, b in enumerate(row)]
        used = " ".join(f"(void){p};" for p in (*self.inputs, *self.attrs))
        return [f"{signature(name)} {{ {used} {rewrite(body)} }}" for name, body in funcs]

    def _args(self):
        """The scalar call's arguments: each input's element, then the attributes."""
        return ", ".join([f"{x}[i]" for x in self.inputs] + list(self.attrs))

    def _loops(self, T, call, pointer, const):
        """The three loop bodies over i (value, grad, grad2) as (parameters, statements), over
        the arrays ``array_names`` names."""
        k = len(self.inputs)

        def parameters(stage):
            reads, writes = array_names(self.inputs, stage)
            return [f"{const}{T} *{pointer}{a}" for a in reads] + [f"{T} *{pointer}{a}" for a in writes]

        _, (out,) = array_names(self.inputs, "value")
        reads, grads = array_names(self.inputs, "grad")
        dy = reads[k]
        reads2, writes2 = array_names(self.inputs, "grad2")
        ggs, ddy = reads2[k + 1:], writes2[k]
        value = f"{out}[i] = {call('value')};"
        grad = " ".join(f"{g}[i] = {dy}[i] * {call(f'd{j}')};" for j, g in enumerate(grads))

        def curvature(j):  # sum_i gg_i d2f/dx_i dx_j
            return " + ".join(f"{gg}[i] * {call(f'h{i}_{j}')}" for i, gg in enumerate(ggs))
        gx = " ".join(f"{g}[i] = {dy}[i] * ({curvature(j)});" for j, g in enumerate(writes2[:k]))
        gdy = " + ".join(f"{gg}[i] * {call(f'd{i}')}" for i, gg in enumerate(ggs))
        return {"value": (parameters("value"), value), "grad": (parameters("grad"), grad),
                "grad2": (parameters("grad2"), f"{gx} {ddy}[i] = {gdy};")}

    # -- C ------------------------------------------------------------------------------------

    def c_code(self):
        """The C source: scalar functions, vectorized range loops and the exported functions."""
        parts = ['#include "opsdk/elementwise.h"', ""]
        text = " ".join([self.value, *self.grads, *(b for row in self.hessian for b in row)])
        used = {name: fns for name, fns in C_NAMES.items() if re.search(rf"\b{name}\b", text)}
        for sfx, (T, index) in (("f32", ("float", 0)), ("f64", ("double", 1))):
            parts.append(f"#define T {T}")
            parts += [f"#define {name} {fns[index]}" for name, fns in used.items()]
            params = ", ".join(f"T {p}" for p in (*self.inputs, *self.attrs))
            prefix = f"opsdk_{self.short}_"
            parts.append(f"#define opsdk_exp_nonpositive {EXP_NONPOSITIVE[index]}")
            parts += self._scalars(prefix, lambda name: f"static inline OPSDK_ALWAYS_INLINE T {name}_{sfx}({params})",
                                   exp_of_minus_abs)
            parts += [f"#undef {name}" for name in (*used, "opsdk_exp_nonpositive")]
            parts.append("#undef T")
            attrs = "".join(f", {T} {a}" for a in self.attrs)
            call = lambda stage: f"{prefix}{stage}_{sfx}({self._args()})"  # noqa: E731
            for stage, (arrays, body) in self._loops(T, call, "restrict ", "const ").items():
                names = ", ".join(a.rsplit("*", 1)[1].replace("restrict ", "") for a in arrays)
                parts.append(
                    f"OPSDK_CLONES static void {prefix}{stage}_range_{sfx}({', '.join(arrays)}, "
                    f"int64_t lo, int64_t hi{attrs}) {{\n"
                    f"    OPSDK_SIMD for (int64_t i = lo; i < hi; i++) {{ {body} }}\n}}")
                plain = ", ".join(a.replace("restrict ", "") for a in arrays)
                attr_names = "".join(f", {a}" for a in self.attrs)
                parts.append(
                    f"void {self.short}_{stage}_{sfx}({plain}, int64_t n{attrs}) {{\n"
                    f"    OPSDK_PARALLEL(n, lo, hi, {prefix}{stage}_range_{sfx}({names}, lo, hi"
                    f"{attr_names}));\n}}")
            parts.append("")
        return "\n".join(parts)

    # -- CUDA ---------------------------------------------------------------------------------

    def cuda_code(self):
        """The CUDA source: the bodies as device templates in namespace opsdk, grid-stride
        loops, and one extern "C" kernel per stage and dtype."""
        space = f"op_{self.short}"
        params = ", ".join(f"T {p}" for p in (*self.inputs, *self.attrs))
        parts = ['#include "opsdk/maths.cuh"', "", f"namespace opsdk {{ namespace {space} {{"]
        parts += self._scalars("", lambda name: (
            f"template <typename T> __device__ __forceinline__ T {name}({params})"))
        call = lambda stage: f"{stage}<T>({self._args()})"  # noqa: E731
        attrs = "".join(f", T {a}" for a in self.attrs)
        loops = self._loops("T", call, "", "const ")
        for stage, (arrays, body) in loops.items():
            parts.append(
                f"template <typename T> __device__ void {stage}_loop({', '.join(arrays)}, "
                f"long long n{attrs}) {{\n"
                "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                "         i += (long long)blockDim.x * gridDim.x) { " + body + " }\n}")
        parts.append("} }")
        for sfx, T in (("f32", "float"), ("f64", "double")):
            attrs = "".join(f", {T} {a}" for a in self.attrs)
            for stage, (arrays, _) in self._loops(T, call, "", "const ").items():
                names = ", ".join(a.rsplit("*", 1)[1] for a in arrays)
                parts.append(
                    f'extern "C" __global__ void {self.short}_{stage}_{sfx}({", ".join(arrays)}, '
                    f"long long n{attrs}) {{\n"
                    f"    opsdk::{space}::{stage}_loop({names}, n"
                    f"{''.join(f', {a}' for a in self.attrs)});\n}}")
        return "\n".join(parts) + "\n"
