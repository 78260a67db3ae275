"""The C and CUDA sources of a rows op, written from its statements (see ``statements``).

For each stage (forward, backward) and dtype, one exported function
``<op>_<stage>_f32`` / ``_f64`` whose parameters are the arrays the stage reads (``const T *``),
the arrays it writes (``T *``), ``rows``, ``K`` and the attributes, so the declared adapters of
``opsdk.kernels.layout`` call it (``sizes=`` rows and K, ``outputs=`` the per-row and per-feature
shapes).

- C: the rows in chunks on the OpenMP team above OPSDK_OMP_MIN elements (OPSDK_PARALLEL_CHUNKS),
  each row's reductions and element loops vectorized (``omp simd``, sums in double), compiled for
  AVX-512/AVX2/x86-64 (OPSDK_CLONES); per-feature outputs in a column pass of their own, blocks of
  64 features summed in double over the rows in order (deterministic, no two threads write one
  element).
- CUDA: a block per row (grid-stride over rows), block reductions by warp shuffles and shared
  memory (``opsdk/rows.cuh``), then blocks of features, a thread per feature summing over rows in
  double (neighbouring threads read neighbouring features: coalesced).
"""
import re

from opsdk.kernels.elementwise.bodies import C_NAMES

BLOCK = 256  # threads per CUDA block: the declared adapter's launch (launch_1d's default)
COLUMNS = 64  # features per block of the C column pass
_IDENTITY = {"max": "-INFINITY", "min": "INFINITY"}


class Stage:
    """One stage's arrays and statements: ``reads`` {name: kind}, ``writes`` {name: kind}, attrs."""

    def __init__(self, short, stage, program, reads, writes, attrs):
        self.short, self.stage, self.program = short, stage, program
        self.reads, self.writes, self.attrs = dict(reads), dict(writes), tuple(attrs)
        self.function = f"{short}_{stage}"
        self.columns = [s for s in program.steps if s.what == "output" and s.how == "feature"]

    def parameters(self, T, restrict=""):
        arrays = [f"const {T} *{restrict}{a}" for a in self.reads]
        arrays += [f"{T} *{restrict}{a}" for a in self.writes]
        return arrays

    def _unused(self):
        return " ".join(f"(void){a};" for a in self.attrs)

    # -- C ------------------------------------------------------------------------------------

    def _c_rows(self):
        """The statements of one row, in C (inside ``for r``; ``o`` is the row's offset)."""
        p, lines, group = self.program, [], []

        def flush():
            if group:
                lines.append("OPSDK_SIMD for (int64_t j = 0; j < K; j++) { " + " ".join(group) + " }")
                group.clear()
        for step in p.steps:
            if step.what == "output" and step.how == "element":
                group.append(f"{step.name}[o + j] = (T)({p.rewrite(step.expr)});")
                continue
            if step.what == "each" or step.how == "feature":
                continue
            flush()
            acc, value = f"opsdk_a_{step.name}", f"opsdk_v_{step.name}"
            if step.what == "reduce" and step.how == "sum":
                lines += [f"double {acc} = 0.0;", f"#pragma omp simd reduction(+:{acc})",
                          f"for (int64_t j = 0; j < K; j++) {acc} += (double)({p.rewrite(step.expr)});",
                          f"const T {value} = (T){acc};"]
            elif step.what == "reduce":
                cmp = ">" if step.how == "max" else "<"
                lines += [f"T {acc} = {_IDENTITY[step.how]};", f"#pragma omp simd reduction({step.how}:{acc})",
                          f"for (int64_t j = 0; j < K; j++) {{ const T opsdk_e = (T)({p.rewrite(step.expr)}); "
                          f"{acc} = opsdk_e {cmp} {acc} ? opsdk_e : {acc}; }}", f"const T {value} = {acc};"]
            else:
                lines.append(f"const T {value} = (T)({p.rewrite(step.expr)});")
                if step.how == "row":
                    lines.append(f"{step.name}[r] = {value};")
        flush()
        return lines

    def _c_columns(self):
        p = self.program
        accs = [f"double opsdk_a_{s.name}[{COLUMNS}] = {{0.0}};" for s in self.columns]
        adds = " ".join(f"opsdk_a_{s.name}[j - j0] += (double)({p.rewrite(s.expr)});" for s in self.columns)
        stores = " ".join(f"{s.name}[j] = (T)opsdk_a_{s.name}[j - j0];" for s in self.columns)
        return [f"for (int64_t j0 = lo; j0 < hi; j0 += {COLUMNS}) {{",
                f"    const int64_t j1 = j0 + {COLUMNS} < hi ? j0 + {COLUMNS} : hi;", *("    " + a for a in accs),
                "    for (int64_t r = 0; r < rows; r++) {", "        const int64_t o = r * K; (void)o;",
                f"        OPSDK_SIMD for (int64_t j = j0; j < j1; j++) {{ {adds} }}", "    }",
                f"    for (int64_t j = j0; j < j1; j++) {{ {stores} }}", "}"]

    def c_functions(self, sfx, T):
        """The static row (and column) functions and the exported one, for one dtype."""
        prefix = f"opsdk_rows_{self.function}"
        params = ", ".join(self.parameters("T", "restrict "))
        attrs = "".join(f", T {a}" for a in self.attrs)
        names = ", ".join([*self.reads, *self.writes])
        attr_names = "".join(f", {a}" for a in self.attrs)
        body = "\n".join("        " + line for line in self._c_rows())
        parts = [f"OPSDK_CLONES static void {prefix}_rows_{sfx}({params}, int64_t lo, int64_t hi, int64_t K{attrs}) {{\n"
                 f"    {self._unused()}\n    for (int64_t r = lo; r < hi; r++) {{\n"
                 f"        const int64_t o = r * K; (void)o;\n{body}\n    }}\n}}"]
        calls = [f"    OPSDK_PARALLEL_CHUNKS(rows, rows * K, 1, lo, hi, {prefix}_rows_{sfx}({names}, lo, hi, K{attr_names}));"]
        if self.columns:
            cols = "\n".join("    " + line for line in self._c_columns())
            parts.append(f"OPSDK_CLONES static void {prefix}_cols_{sfx}({params}, int64_t rows, int64_t lo, "
                         f"int64_t hi, int64_t K{attrs}) {{\n    {self._unused()}\n{cols}\n}}")
            calls.append(f"    OPSDK_PARALLEL_CHUNKS(K, rows * K, {COLUMNS}, lo, hi, "
                         f"{prefix}_cols_{sfx}({names}, rows, lo, hi, K{attr_names}));")
        exported = ", ".join(self.parameters(T))
        plain_attrs = "".join(f", {T} {a}" for a in self.attrs)
        parts.append(f"void {self.function}_{sfx}({exported}, int64_t rows, int64_t K{plain_attrs}) {{\n"
                     + "\n".join(calls) + "\n}")
        return parts

    # -- CUDA -----------------------------------------------------------------------------------

    def _cuda_rows(self):
        p, lines = self.program, []
        how = {"sum": 0, "max": 1, "min": 2}
        for step in p.steps:
            if step.what == "each" or step.how == "feature":
                continue
            acc, value = f"opsdk_a_{step.name}", f"opsdk_v_{step.name}"
            loop = "for (long long j = threadIdx.x; j < K; j += blockDim.x)"
            if step.what == "output" and step.how == "element":
                lines.append(f"{loop} {step.name}[o + j] = (T)({p.rewrite(step.expr)});")
            elif step.what == "reduce":
                lines += [f"double {acc} = rows_identity({how[step.how]});",
                          f"{loop} {acc} = rows_combine({acc}, (double)({p.rewrite(step.expr)}), {how[step.how]});",
                          f"const T {value} = (T)rows_reduce({acc}, {how[step.how]}, red);"]
            else:
                lines.append(f"const T {value} = (T)({p.rewrite(step.expr)});")
                if step.how == "row":
                    lines.append(f"if (threadIdx.x == 0) {step.name}[r] = {value};")
        return lines

    def cuda_function(self):
        """The stage as a device template in namespace opsdk::rows_<op>."""
        p = self.program
        params = ", ".join(self.parameters("T"))
        attrs = "".join(f", T {a}" for a in self.attrs)
        body = "\n".join("            " + line for line in self._cuda_rows())
        tasks = "rows + (K + blockDim.x - 1) / blockDim.x" if self.columns else "rows"
        text = (f"template <typename T> __device__ void {self.stage}({params}, long long rows, long long K{attrs}, "
                f"double *red) {{\n    {self._unused()} (void)red;\n"
                f"    for (long long t = blockIdx.x; t < {tasks}; t += gridDim.x) {{\n"
                "        if (t < rows) {\n            const long long r = t, o = r * K; (void)o;\n"
                f"{body}\n        }}")
        if self.columns:
            accs = " ".join(f"double opsdk_a_{s.name} = 0.0;" for s in self.columns)
            adds = " ".join(f"opsdk_a_{s.name} += (double)({p.rewrite(s.expr)});" for s in self.columns)
            stores = " ".join(f"{s.name}[j] = (T)opsdk_a_{s.name};" for s in self.columns)
            text += (" else {\n            const long long j = (t - rows) * blockDim.x + threadIdx.x;\n"
                     f"            if (j < K) {{\n                {accs}\n"
                     "                for (long long r = 0; r < rows; r++) {\n"
                     f"                    const long long o = r * K; (void)o; {adds}\n                }}\n"
                     f"                {stores}\n            }}\n        }}")
        return text + "\n    }\n}"

    def cuda_kernels(self, space):
        parts = []
        for sfx, T in (("f32", "float"), ("f64", "double")):
            attrs = "".join(f", {T} {a}" for a in self.attrs)
            names = ", ".join([*self.reads, *self.writes, "rows", "K", *self.attrs, "red"])
            parts.append(f'extern "C" __global__ void {self.function}_{sfx}({", ".join(self.parameters(T))}, '
                         f"long long rows, long long K{attrs}) {{\n    __shared__ double red[33];\n"
                         f"    opsdk::{space}::{self.stage}<{T}>({names});\n}}")
        return parts


def used_functions(stages):
    """The vocabulary functions the stages' statements call."""
    text = " ".join(s.expr for stage in stages for s in stage.program.steps)
    return {name: fns for name, fns in C_NAMES.items() if re.search(rf"\b{name}\s*\(", text)}


def c_code(stages):
    """The C source of every stage, both dtypes."""
    used = used_functions(stages)
    parts = ['#include "opsdk/elementwise.h"', ""]
    for sfx, (T, index) in (("f32", ("float", 0)), ("f64", ("double", 1))):
        parts.append(f"#define T {T}")
        parts += [f"#define {name} {fns[index]}" for name, fns in used.items()]
        for stage in stages:
            parts += stage.c_functions(sfx, T)
        parts += [f"#undef {name}" for name in used]
        parts += ["#undef T", ""]
    return "\n".join(parts)


def cuda_code(short, stages):
    """The CUDA source of every stage: device templates, then the extern "C" kernels."""
    space = f"rows_{short}"
    parts = ['#include "opsdk/maths.cuh"', '#include "opsdk/rows.cuh"', "", f"namespace opsdk {{ namespace {space} {{"]
    parts += [stage.cuda_function() for stage in stages]
    parts.append("} }")
    for stage in stages:
        parts += stage.cuda_kernels(space)
    return "\n".join(parts) + "\n"
