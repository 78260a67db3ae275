"""A multi op's forward or backward for one element, as statements: read, checked, and written
as C and CUDA.

One statement a line (or separated by ``;``), ``#`` starting a comment::

    T s = sigmoid(gate_i)                     # a local: a value of this element
    new_cell = old_cell + s * tanh(gate_c)    # an output of the stage, once each
    new_h = tanh(new_cell) * sigmoid(gate_o)  # an output may read one assigned above

An expression is C over the arrays the stage reads (each at the current element), the
attributes, the locals and outputs assigned above it, ``T`` (the float type) and the functions
of the elementwise vocabulary (``opsdk/maths.h`` in C, ``opsdk/maths.cuh`` in CUDA). Decimal
literals become ``T``'s, so float32 kernels stay in float32.

For each stage and dtype the SDK writes one function ``<op>_<stage>_f32`` / ``_f64`` whose
parameters are the arrays read (``const T *``), the arrays written (``T *``), ``n`` and the
attributes: the convention of ``opsdk.kernels.adapters``, from which the cdef, the adapter and
the CUDA launch follow. C: a vectorized loop compiled for AVX-512/AVX2/x86-64 (OPSDK_CLONES),
on the OpenMP team above OPSDK_OMP_MIN elements (opsdk/elementwise.h); CUDA: a grid-stride loop
with 64-bit indices.
"""
import re

from opsdk.errors import OpArgumentError
from opsdk.kernels.elementwise.bodies import C_NAMES, DECIMAL, VOCABULARY

_STATEMENT = re.compile(r"(?:(T)\s+)?([A-Za-z_]\w*)\s*=(?!=)\s*(.+)\Z", re.S)
_WORD = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\s*\()?")
_NUMBER = re.compile(r"((?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?)")
_INDEX = "opsdk_k"  # the element index of the written loops; locals become opsdk_v_<name>


class Program:
    """The statements of one stage, checked against what it reads and must write.

    Args:
        op: the op's name (for messages).
        stage: ``"forward"`` or ``"backward"``.
        body: the statements.
        reads: the arrays the stage reads, in the kernel's order.
        attrs: the attributes' names.
        writes: the arrays it writes, in order, each exactly once.
    """

    def __init__(self, op, stage, body, reads, attrs, writes):
        self.op, self.stage = op, stage
        self.reads, self.attrs, self.writes = tuple(reads), tuple(attrs), tuple(writes)
        if not isinstance(body, str):
            raise OpArgumentError(f"{op}: the {stage} statements must be a string; expected: lines "
                                  f"like 'y = x * x'; got: {type(body).__name__}")
        self.steps = []  # (name, expression)
        assigned = []
        for text in (" ".join(part.split()) for line in body.splitlines()
                     for part in line.split("#", 1)[0].split(";")):
            if not text:
                continue
            match = _STATEMENT.match(text)
            if not match:
                raise self._error("'NAME = EXPR' (an output) or 'T NAME = EXPR' (a local)",
                                  "a statement of another form", text)
            local, name, expr = match.groups()
            if not local and name not in self.writes:
                raise self._error(f"an output ({', '.join(self.writes)}) or a local declared "
                                  f"'T {name} = ...'", f"{name!r} assigned", text)
            if name in assigned or (local and name in ("T", *self.reads, *self.attrs, *self.writes)):
                raise self._error("a new name for each local and one statement per output",
                                  f"{name!r} assigned again", text)
            self._check(expr, text, assigned)
            assigned.append(name)
            self.steps.append((name, expr))
        unwritten = ", ".join(w for w in self.writes if w not in assigned)
        if unwritten:
            raise self._error(f"one statement per output ({', '.join(self.writes)})", f"none for {unwritten}", body)

    def _error(self, expected, got, text):
        """The error of a statement: the op, the stage, what was expected, what was found where."""
        return OpArgumentError(f"{self.op}: {self.stage} statements: expected: {expected}; got: {got} in {text!r}")

    def _check(self, expr, text, assigned):
        """Refuse a call outside the vocabulary or a read of a name not known here."""
        known = {"T", *self.reads, *self.attrs, *assigned}
        for word, call in _WORD.findall(_NUMBER.sub(" ", expr)):
            if call and word not in VOCABULARY:
                raise self._error(f"one of the functions {', '.join(VOCABULARY)}", f"a call of {word!r}", text)
            if not call and word not in known:
                raise self._error(f"a name defined before: {', '.join(sorted(known - {'T'}))}",
                                  f"{word!r} read", text)

    def rewrite(self, expr):
        """``expr`` as C: arrays read at the current element, locals and outputs as the loop's
        values, decimal literals as ``T``'s."""
        def word(match):
            name, call = match.groups()
            if call or name == "T" or name in self.attrs:
                return match.group(0)
            if name in self.reads:
                return f"{name}[{_INDEX}]"
            return f"opsdk_v_{name}"

        parts = _NUMBER.split(expr)
        return "".join(DECIMAL.sub(r"((T)\1)", part) if i % 2 else _WORD.sub(word, part)
                       for i, part in enumerate(parts))

    def body(self):
        """The loop's statements: each value, then the stores."""
        values = [f"const T opsdk_v_{name} = (T)({self.rewrite(expr)});" for name, expr in self.steps]
        return " ".join(values + [f"{w}[{_INDEX}] = opsdk_v_{w};" for w in self.writes])

    def parameters(self, T, restrict=""):
        return ([f"const {T} *{restrict}{a}" for a in self.reads]
                + [f"{T} *{restrict}{a}" for a in self.writes])

    def unused(self):
        """Every parameter marked used (a stage need not read all it is given)."""
        return " ".join(f"(void){p};" for p in (*self.reads, *self.attrs))


def used_functions(programs):
    """The vocabulary functions the statements call."""
    text = " ".join(expr for p in programs for _, expr in p.steps)
    return {name: fns for name, fns in C_NAMES.items() if re.search(rf"\b{name}\s*\(", text)}


def _c_functions(short, p, T):
    """One stage's vectorized range loop and exported function, for the float type ``T``."""
    sfx = {"float": "f32", "double": "f64"}[T]
    loop = f"opsdk_multi_{short}_{p.stage}_{sfx}"
    attrs, names = "".join(f", {a}" for a in p.attrs), ", ".join([*p.reads, *p.writes])
    return [f"OPSDK_CLONES static void {loop}({', '.join(p.parameters('T', 'restrict '))}, int64_t lo, int64_t hi"
            f"{''.join(f', T {a}' for a in p.attrs)}) {{\n    {p.unused()}\n"
            f"    OPSDK_SIMD for (int64_t {_INDEX} = lo; {_INDEX} < hi; {_INDEX}++) {{ {p.body()} }}\n}}",
            f"void {short}_{p.stage}_{sfx}({', '.join(p.parameters(T))}, int64_t n"
            f"{''.join(f', {T} {a}' for a in p.attrs)}) {{\n"
            f"    OPSDK_PARALLEL(n, lo, hi, {loop}({names}, lo, hi{attrs}));\n}}"]


def c_code(short, programs):
    """The C source of every stage, both dtypes: the same functions between the macros that make
    the statements float's or double's C (T, and the vocabulary's functions of that type)."""
    used = used_functions(programs)
    parts = ['#include "opsdk/elementwise.h"', ""]
    for index, T in enumerate(("float", "double")):
        macros = {"T": T, **{name: fns[index] for name, fns in used.items()}}
        parts += [f"#define {name} {value}" for name, value in macros.items()]
        parts += [f for p in programs for f in _c_functions(short, p, T)]
        parts += [f"#undef {name}" for name in macros] + [""]
    return "\n".join(parts)


def cuda_code(short, programs):
    """The CUDA source: each stage a device template in namespace opsdk::multi_<op> (where the
    vocabulary is opsdk/maths.cuh's overloads), then the extern "C" kernels."""
    space = f"multi_{short}"
    parts = ['#include "opsdk/maths.cuh"', "", f"namespace opsdk {{ namespace {space} {{"]
    for p in programs:
        attrs = "".join(f", T {a}" for a in p.attrs)
        parts.append(f"template <typename T> __device__ void {p.stage}({', '.join(p.parameters('T'))}, "
                     f"long long n{attrs}) {{\n    {p.unused()}\n"
                     f"    for (long long {_INDEX} = (long long)blockIdx.x * blockDim.x + threadIdx.x; {_INDEX} < n;\n"
                     f"         {_INDEX} += (long long)blockDim.x * gridDim.x) {{ {p.body()} }}\n}}")
    parts.append("} }")
    for p in programs:
        for sfx, T in (("f32", "float"), ("f64", "double")):
            names = ", ".join([*p.reads, *p.writes, "n", *p.attrs])
            parts.append(f'extern "C" __global__ void {short}_{p.stage}_{sfx}({", ".join(p.parameters(T))}, '
                         f"long long n{''.join(f', {T} {a}' for a in p.attrs)}) {{\n"
                         f"    opsdk::{space}::{p.stage}<{T}>({names});\n}}")
    return "\n".join(parts) + "\n"
