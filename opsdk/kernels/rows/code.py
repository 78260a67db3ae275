"""The C and CUDA sources of a rows op, written from its statements (see ``statements``).

For each stage (forward, backward) and dtype, one exported function
``<op>_<stage>_f32`` / ``_f64`` whose parameters are the arrays the stage reads (``const T *``,
``const int64_t *`` for an integer input), the arrays it writes (``T *``), ``rows``, ``K`` and
the attributes (``T``, ``int64_t`` for an integer one), so the declared adapters of
``opsdk.kernels.layout`` call it (``sizes=`` rows and K, ``outputs=`` the per-row and
per-feature shapes).

The statements of a row become passes over its elements (``plan``): a reduction joins the pass
before it unless it reads what that pass reduces (so independent sums share one pass); a
per-element output joins the last pass that has what it reads; a per-element shorthand
(``each``) that calls a maths function and is read by a reduction and by a later output is
computed once: its first pass stores it in that output, which the later pass reads back
(softmax's ``exp(x - top)``). Per-feature outputs (sums over rows) accumulate in the row's
first pass.

- C: the rows in chunks on the OpenMP team above OPSDK_OMP_MIN elements (OPSDK_PARALLEL_CHUNKS),
  each pass vectorized (``omp simd``; each reduction in 64 bytes of T's lanes, element j in lane
  j % lanes, the lanes combined as a tree at the end: a few vector instructions, the same order
  whatever the vector width; a sum by blocks of 1024 elements, the blocks in double; max/min
  with a NaN flag), compiled for AVX-512/AVX2/x86-64 (OPSDK_CLONES). Per-feature outputs: each
  of a fixed number of row parts (a function of rows and K alone, so the sums do not depend on
  the thread count; one below OPSDK_OMP_MIN elements) adds its rows into its own double
  partials, added up in order at the end; where those cannot be allocated, a column pass of its
  own (blocks of 64 features summed over the rows in order).
- With ``axis`` (rows along the middle axis of [outer, K, inner], in place; the functions take
  ``opsdk_inner``): C a panel of LANES neighbouring rows at a time, the loop over K outside and
  the vectorized loop over the lanes (the contiguous inner axis) inside, of the constant count
  LANES in a full panel (the lanes' arrays stay in registers); CUDA a thread per row.
- CUDA: a block per row (grid-stride over rows), block reductions by warp shuffles and shared
  memory (``opsdk/rows.cuh``); per-feature outputs in blocks of 32 features x a part of the
  rows (8 warps over the part's rows, added in shared memory in order) writing double partials
  into a work array; the last block of a feature group to finish (an atomic count after a
  fence) adds the parts up in order. Deterministic, and as parallel as the rows.
"""
import re

# exp(-abs(u)) is the SDK's way to say an exp's argument is never positive (a cheaper float32
# exp): the elementwise bodies' rewrite, shared
from opsdk.kernels.elementwise.bodies import EXP_NONPOSITIVE as _EXP_NONPOSITIVE, C_NAMES
from opsdk.kernels.elementwise.bodies import exp_of_minus_abs as _exp_of_minus_abs
from opsdk.kernels.rows.statements import COLUMN, PANEL, ROW

BLOCK = 256  # threads per CUDA block: the declared adapter's launch (launch_1d's default)
COLUMNS = 64  # features per block of the C column pass
GROUP = 32  # features per block of the CUDA feature pass (a warp's width: coalesced reads)
PARTS = 64  # at most this many row parts for per-feature sums (C and CUDA)
PART_DOUBLES = 1 << 22  # partials (doubles) at most: 32 MiB
LANES = 64  # C: rows of a panel along the middle axis of [outer, K, inner] (the inner axis's neighbours)
SUM_BLOCK = 1024  # C: a sum adds this many elements in T's vector lanes (64 a lane for float32), the blocks' sums in double
_HOW = {"sum": 0, "max": 1, "min": 2}
# a row scalar (computed once a row, not in a vector loop) calls libm's float function for these:
# opsdk/maths.h's float32 ones are written to vectorize, and alone they cost several times more
# (log: ~25 ns a row, a third of cross_entropy's forward on rows of 64)
ROW_LIBM = {name: (f"{name}f", name) for name in (
    "exp", "expm1", "log", "log1p", "tanh", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "pow")}
ROW_LIBM["abs"] = ("fabsf", "abs")
_ROW_CALL = re.compile(rf"\b({'|'.join(ROW_LIBM)})\s*\(")


def _libm_calls(text):
    """A row scalar's C with libm's functions (opsdk_row_<name>, defined per dtype in c_code)."""
    return _ROW_CALL.sub(r"opsdk_row_\1(", text)


_UPDATE = ("{{ const long long opsdk_i = (long long)({index}); if (opsdk_i >= 0 && opsdk_i < K{guard}) "
           "{name}[o + opsdk_i{at}] {op} (T)({expr}); }}")
_PANEL_LOOP = "for (int64_t opsdk_k = 0; opsdk_k < opsdk_w; opsdk_k++) "
# the row scalars, per-row stores and indexed updates of each kind of code (see Stage._statements)
_C_ROW_FORMS = {"scalar": "const T {value} = (T)({expr});", "store": "{name}[r] = {value};",
                "update": _UPDATE.replace("{guard}", "").replace("{at}", "")}
_C_PANEL_FORMS = {"scalar": f"T {{value}}[{LANES}]; {_PANEL_LOOP}{{value}}[opsdk_k] = (T)({{expr}});",
                  "store": f"{_PANEL_LOOP}{{name}}[opsdk_q + opsdk_k] = {{value}}[opsdk_k];",
                  "update": _PANEL_LOOP + _UPDATE.replace("{guard}", "").replace("{at}", " * opsdk_inner + opsdk_k")}
# CUDA, a block per row: the update by the thread that wrote the element (no other touches it)
_CUDA_BLOCK_FORMS = {"scalar": "const T {value} = (T)({expr});", "store": "if (threadIdx.x == 0) {name}[r] = {value};",
                     "update": _UPDATE.replace("{guard}", " && threadIdx.x == opsdk_i % blockDim.x").replace("{at}", "")}
_CUDA_COLUMN_FORMS = {"scalar": "const T {value} = (T)({expr});", "store": "{name}[t] = {value};",
                      "update": _UPDATE.replace("{guard}", "").replace("{at}", " * opsdk_inner")}
_IDENTITY = {"max": "-INFINITY", "min": "INFINITY"}
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def parts(rows, K, features):
    """Row parts of the per-feature sums for ``rows`` rows of ``K``: a function of the sizes only,
    so the sums come out the same on any thread count. (The C source computes the same, except
    one part below OPSDK_OMP_MIN elements: those run on one thread whatever the team.)"""
    if not features or not rows or not K:
        return 1
    cap = max(1, PART_DOUBLES // (features * K))
    return max(1, min(PARTS, -(-rows // 32), cap))


class Pass:
    """One loop over the row's elements: its statements in order, and the shorthands it stores
    into an output for a later pass (``stores``: {shorthand: output})."""

    def __init__(self):
        self.steps, self.stores = [], {}

    @property
    def reductions(self):
        return [s for s in self.steps if s.what == "reduce"]


def plan(program):
    """The statements as a sequence of passes and row scalar statements (see the module's doc)."""
    blocks, current, after = [], None, set()
    features = [s for s in program.steps if s.how == "feature"]
    for step in program.steps:
        if step.what == "each" or step.how == "feature":
            continue
        if step.per_element:
            reduced = {s.name for s in current.reductions} if current else set()
            if current is None or step.needs & (reduced | after):
                current, after = Pass(), set()
                blocks.append(current)
            current.steps.append(step)
        else:
            blocks.append(step)
            after.add(step.name)
    passes = [b for b in blocks if isinstance(b, Pass)]
    if features:
        if not passes:
            passes.append(Pass())
            blocks.append(passes[0])
        passes[0].steps += features
    _stash(program, passes)
    return blocks


def _stash(program, passes):
    """Shorthands calling a function, read by a reduction of one pass and by an element output of
    a later one: stored into that output by the first (``Pass.stores``)."""
    for name, expr in program.each.items():
        if not any(fn in C_NAMES for fn in _CALL.findall(expr)):
            continue
        first = next((p for p in passes if any(s.what == "reduce" and name in s.reads for s in p.steps)), None)
        if first is None:
            continue
        later = passes[passes.index(first) + 1:]
        target = next((s for p in later for s in p.steps if s.how == "element" and name in s.reads), None)
        if target is not None:
            first.stores[name] = target.name


class Stage:
    """One stage's arrays and statements: ``reads`` {name: kind}, ``writes`` {name: kind}, attrs;
    ``integers`` the inputs and attributes that hold integers (int64)."""

    def __init__(self, short, stage, program, reads, writes, attrs, integers=(), axis=False):
        self.short, self.stage, self.program, self.axis = short, stage, program, axis
        self.reads, self.writes, self.attrs = dict(reads), dict(writes), tuple(attrs)
        self.integers = frozenset(integers)
        self.function = f"{short}_{stage}"
        self.columns = [s for s in program.steps if s.what == "output" and s.how == "feature"]
        self.blocks = plan(program)
        self.passes = [b for b in self.blocks if isinstance(b, Pass)]

    def _type(self, name, T, integer):
        return integer if name in self.integers else T

    def parameters(self, T, restrict="", integer="int64_t"):
        arrays = [f"const {self._type(a, T, integer)} *{restrict}{a}" for a in self.reads]
        arrays += [f"{T} *{restrict}{a}" for a in self.writes]
        return arrays

    def attributes(self, T, integer="int64_t"):
        return "".join(f", {self._type(a, T, integer)} {a}" for a in self.attrs)

    def _unused(self, arrays=False):
        """Every attribute (and array) marked used: a function that reads none compiles without a warning."""
        names = (*self.reads, *self.writes, *self.attrs) if arrays else self.attrs
        return " ".join(f"(void){a};" for a in names)

    @staticmethod
    def _stashed(done):
        """{shorthand: output} stored by the passes ``done`` and not overwritten by them since."""
        stash = {k: v for p in done for k, v in p.stores.items()}
        written = {step.name for p in done for step in p.steps if step.how == "element"}
        return {k: v for k, v in stash.items() if v not in written}

    def _terms(self, p, stash, layout, body, features=True):
        """Each statement of pass ``p`` with its C expression in ``layout``, after the stores (added to
        ``body``) of the shorthands it is the first to read; a stored shorthand is read back from its
        output until that output is written."""
        prog, written = self.program, set()
        for step in p.steps:
            if step.how == "feature" and not features:
                continue
            for name in [n for n in p.stores if n in step.reads and f"store {n}" not in written]:
                body.append(f"{layout['element'].format(name=p.stores[name])} = "
                            f"(T)({prog.rewrite(prog.each[name], stash, layout)});")
                written.add(f"store {name}")
            yield step, prog.rewrite(step.expr, {k: v for k, v in stash.items() if v not in written}, layout)
            if step.how == "element":
                written.add(step.name)

    # -- C ------------------------------------------------------------------------------------

    def _c_pass(self, p, stash, partials):
        """One pass in C: lanes, the vectorized loop, the row scalars it reduces. Each reduction
        keeps OPSDK_ROW_LANES partial results (64 bytes of T: one AVX-512 vector, two AVX2 ones),
        element j in lane j % OPSDK_ROW_LANES, combined at the end as a tree (opsdk_lanes_*: a few
        vector instructions, where an omp simd reduction's sum adds its lanes one after the other,
        a chain as long as the row of 64 it ends; the same order, so the same sum, on any CPU).
        A sum adds blocks of SUM_BLOCK elements in T's lanes and the blocks' sums in double: its
        error does not grow with the row, as a double accumulator's. A max or min also sums
        e * 0 (NaN for a NaN or an infinite term, 0 for any other: one fused multiply-add a
        vector); where that is NaN, a second loop looks for a NaN term (a row holding inf)."""
        lines, body, rescans, after = [], [], [], []
        for step, expr in self._terms(p, stash, ROW, body, partials):
            lanes = f"opsdk_l_{step.name}[opsdk_l]"
            if step.what == "reduce" and step.how == "sum":
                lines.append(f"T opsdk_s_{step.name};")
                body.append(f"{lanes} += (T)({expr});")
            elif step.what == "reduce":
                name, e, cmp = step.name, f"opsdk_e_{step.name}", ">" if step.how == "max" else "<"
                nan, flags = f"opsdk_n_{name}", f"opsdk_f_{name}[opsdk_l]"
                lines.append(f"T opsdk_l_{name}[OPSDK_ROW_LANES], opsdk_f_{name}[OPSDK_ROW_LANES]; "
                             f"for (int opsdk_l = 0; opsdk_l < OPSDK_ROW_LANES; opsdk_l++) "
                             f"{{ {lanes} = {_IDENTITY[step.how]}; {flags} = 0; }}")
                body.append(f"const T {e} = (T)({expr}); {lanes} = {e} {cmp} {lanes} ? {e} : {lanes}; "
                            f"{flags} += {e} * (T)0;")
                after.append(f"const T opsdk_a_{name} = opsdk_lanes_{step.how}(opsdk_l_{name}); "
                             f"T {nan} = opsdk_lanes_sum(opsdk_f_{name});")
                rescans.append(f"if ({nan} != {nan}) {{ int opsdk_bad = 0; for (int64_t j = 0; j < K; j++) "
                               f"{{ const T {e} = (T)({expr}); opsdk_bad |= {e} != {e}; }} "
                               f"{nan} = opsdk_bad ? (T)NAN : (T)0; }}")
            elif step.how == "feature":
                body.append(f"opsdk_p_{step.name}[j] += (double)({expr});")
            else:
                body.append(f"{step.name}[o + j] = (T)({expr});")
        if not p.reductions:
            return lines + ["{ const int64_t j0 = 0, j1 = K;", "OPSDK_SIMD",
                            "for (int64_t j = j0; j < j1; j++) { " + " ".join(body) + " }", "}"]
        inner = "{ const int64_t j = opsdk_jb + opsdk_l; (void)j; " + " ".join(body) + " }"
        # the row (or block) [j0, j1) a lane group at a time, then the last group's lanes
        loop = ["int64_t opsdk_jb = j0;",
                "for (; opsdk_jb + OPSDK_ROW_LANES <= j1; opsdk_jb += OPSDK_ROW_LANES) {",
                f"    OPSDK_SIMD for (int64_t opsdk_l = 0; opsdk_l < OPSDK_ROW_LANES; opsdk_l++) {inner}", "}",
                "if (opsdk_jb < j1) {", "    const int64_t opsdk_jn = j1 - opsdk_jb;",
                f"    OPSDK_SIMD for (int64_t opsdk_l = 0; opsdk_l < opsdk_jn; opsdk_l++) {inner}", "}"]
        sums = [s.name for s in p.reductions if s.how == "sum"]
        if sums:  # a row of one block (the common case) skips the blocks' bookkeeping
            zero = " ".join(f"T opsdk_l_{n}[OPSDK_ROW_LANES] = {{0}};" for n in sums)
            one = " ".join(f"opsdk_s_{n} = opsdk_lanes_sum(opsdk_l_{n});" for n in sums)
            add = " ".join(f"opsdk_a_{n} += (double)opsdk_lanes_sum(opsdk_l_{n});" for n in sums)
            lines += [f"if (K <= {SUM_BLOCK}) {{", "    const int64_t j0 = 0, j1 = K;", f"    {zero}",
                      *("    " + line for line in loop), f"    {one}", "} else {",
                      "    " + " ".join(f"double opsdk_a_{n} = 0.0;" for n in sums),
                      f"    for (int64_t j0 = 0; j0 < K; j0 += {SUM_BLOCK}) {{",
                      f"        const int64_t j1 = K - j0 < {SUM_BLOCK} ? K : j0 + {SUM_BLOCK};", f"        {zero}",
                      *("        " + line for line in loop), f"        {add}", "    }",
                      "    " + " ".join(f"opsdk_s_{n} = (T)opsdk_a_{n};" for n in sums), "}"]
        else:
            lines += ["{ const int64_t j0 = 0, j1 = K;", *loop, "}"]
        lines += after + rescans
        for step in p.reductions:
            value = f"opsdk_v_{step.name}"
            if step.how == "sum":
                lines.append(f"const T {value} = opsdk_s_{step.name};")
            else:
                lines.append(f"const T {value} = opsdk_n_{step.name} != opsdk_n_{step.name} ? (T)NAN : "
                             f"opsdk_a_{step.name};")
        return lines

    def _c_panel_pass(self, p, stash):
        """One pass over a panel of LANES rows along the middle axis: for each element index j, the
        vectorized loop over the lanes (neighbours along the contiguous inner axis). Sums in double
        a lane; a max or min with the NaN flag of _c_pass, looked through again a lane."""
        lines, body, rescans = [], [], []
        lanes = _PANEL_LOOP
        for step, expr in self._terms(p, stash, PANEL, body):
            acc = f"opsdk_a_{step.name}"
            if step.what == "reduce" and step.how == "sum":
                lines.append(f"double {acc}[{LANES}]; {lanes}{acc}[opsdk_k] = 0.0;")
                body.append(f"{acc}[opsdk_k] += (double)({expr});")
            elif step.what == "reduce":
                nan, e, cmp = f"opsdk_n_{step.name}", f"opsdk_e_{step.name}", ">" if step.how == "max" else "<"
                lines.append(f"T {acc}[{LANES}], {nan}[{LANES}]; {lanes}{{ {acc}[opsdk_k] = {_IDENTITY[step.how]}; "
                             f"{nan}[opsdk_k] = 0; }}")
                body.append(f"const T {e} = (T)({expr}); {acc}[opsdk_k] = {e} {cmp} {acc}[opsdk_k] ? {e} : "
                            f"{acc}[opsdk_k]; {nan}[opsdk_k] += {e} * (T)0;")
                rescans.append(f"{lanes}if ({nan}[opsdk_k] != {nan}[opsdk_k]) {{ int opsdk_bad = 0; "
                               f"for (int64_t j = 0; j < K; j++) {{ const T {e} = (T)({expr}); opsdk_bad |= {e} != {e}; }} "
                               f"if (opsdk_bad) {acc}[opsdk_k] = (T)NAN; }}")
            else:
                body.append(f"{PANEL['element'].format(name=step.name)} = (T)({expr});")
        lines.append(f"for (int64_t j = 0; j < K; j++) {{ OPSDK_SIMD {lanes}{{ {' '.join(body)} }} }}")
        lines += rescans
        for step in p.reductions:
            value, acc = f"opsdk_v_{step.name}", f"opsdk_a_{step.name}"
            lines.append(f"T {value}[{LANES}]; {lanes}{value}[opsdk_k] = (T){acc}[opsdk_k];")
        return lines

    def _c_panel_function(self, name, sfx):
        """The panels [p_lo, p_hi) of [outer, K, inner]: panel p covers LANES rows (o, c0 .. c0 + w)."""
        params = ", ".join(self.parameters("T", "restrict "))
        rows = self._statements(self._c_panel_pass, _C_PANEL_FORMS, PANEL, _libm_calls)
        body = "\n".join("        " + line for line in rows)
        return (f"OPSDK_CLONES static void {name}_{sfx}({params}, int64_t lo, int64_t hi, int64_t K, "
                f"int64_t opsdk_inner{self.attributes('T')}) {{\n    {self._unused(True)}\n"
                f"    const int64_t opsdk_blocks = (opsdk_inner + {LANES - 1}) / {LANES};\n"
                "    for (int64_t opsdk_p = lo; opsdk_p < hi; opsdk_p++) {\n"
                f"        const int64_t opsdk_ob = opsdk_p / opsdk_blocks, opsdk_c0 = (opsdk_p % opsdk_blocks) * {LANES};\n"
                f"        const int64_t opsdk_width = opsdk_inner - opsdk_c0 < {LANES} ? opsdk_inner - opsdk_c0 : {LANES};\n"
                "        const int64_t o = opsdk_ob * K * opsdk_inner + opsdk_c0, opsdk_q = opsdk_ob * opsdk_inner + opsdk_c0;\n"
                # a full panel: loops over a constant count of lanes, whose arrays the compiler keeps in
                # registers across the loop over K (a load and a store a vector and array less: the
                # max pass of softmax along axis 0 went from 0.84x to 1.12x the hand-written panels)
                f"        (void)opsdk_q;\n        if (opsdk_width == {LANES}) {{\n        const int64_t opsdk_w = {LANES};\n"
                f"{body}\n        }} else {{\n        const int64_t opsdk_w = opsdk_width;\n{body}\n        }}\n    }}\n}}")

    def _statements(self, emit_pass, forms, layout=ROW, scalar=lambda text: text):
        """The statements of one row in order: each pass as ``emit_pass(pass, stash)`` writes it, each
        row scalar, per-row output store and indexed update as ``forms`` says ({"scalar", "store",
        "update"}: C templates), their expressions read with ``layout`` (and through ``scalar``)."""
        prog, lines, done = self.program, [], []
        for block in self.blocks:
            if isinstance(block, Pass):
                lines += emit_pass(block, self._stashed(done))
                done.append(block)
                continue
            expr = scalar(prog.rewrite(block.expr, layout=layout))
            if block.what == "update":
                lines.append(forms["update"].format(index=scalar(prog.rewrite(block.index, layout=layout)),
                                                    name=block.name, op=block.how, expr=expr))
                continue
            value = f"opsdk_v_{block.name}"
            lines.append(forms["scalar"].format(value=value, expr=expr))
            if block.how == "row":
                lines.append(forms["store"].format(name=block.name, value=value))
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

    def _c_row_function(self, name, sfx, partials):
        params = ", ".join(self.parameters("T", "restrict "))
        extra = ", double *restrict opsdk_part" if partials else ""
        views = "".join(f"    double *restrict opsdk_p_{s.name} = opsdk_part + {k} * K;\n"
                        for k, s in enumerate(self.columns)) if partials else ""
        rows = self._statements(lambda p, stash: self._c_pass(p, stash, partials), _C_ROW_FORMS,
                                scalar=_libm_calls)
        body = "\n".join("        " + line for line in rows)
        return (f"OPSDK_CLONES static void {name}_{sfx}({params}, int64_t lo, int64_t hi, int64_t K"
                f"{self.attributes('T')}{extra}) {{\n    {self._unused(True)}\n{views}    for (int64_t r = lo; r < hi; r++) {{\n"
                f"        const int64_t o = r * K; (void)o;\n{body}\n    }}\n}}")

    def c_functions(self, sfx, T):
        """The static row (and feature) functions and the exported one, for one dtype."""
        prefix = f"opsdk_rows_{self.function}"
        params = ", ".join(self.parameters("T", "restrict "))
        attrs = self.attributes("T")
        names = ", ".join([*self.reads, *self.writes])
        attr_names = "".join(f", {a}" for a in self.attrs)
        parts = [self._c_row_function(f"{prefix}_rows", sfx, False)]
        plain = (f"    OPSDK_PARALLEL_CHUNKS(rows, rows * K, 1, lo, hi, "
                 f"{prefix}_rows_{sfx}({names}, lo, hi, K{attr_names}));")
        exported = ", ".join(self.parameters(T))
        inner = ", int64_t opsdk_inner" if self.axis else ""
        head = f"void {self.function}_{sfx}({exported}, int64_t rows, int64_t K{inner}{self.attributes(T)}) {{\n"
        if self.axis:  # [rows, K] (or [rows, K, 1]) a row at a time, [rows, K, inner] a panel at a time
            parts.append(self._c_panel_function(f"{prefix}_panel", sfx))
            tasks = f"rows * ((opsdk_inner + {LANES - 1}) / {LANES})"
            parts.append(head + f"    if (opsdk_inner == 1) {{\n    {plain}\n        return;\n    }}\n"
                         f"    OPSDK_PARALLEL_CHUNKS({tasks}, rows * K * opsdk_inner, 1, lo, hi, "
                         f"{prefix}_panel_{sfx}({names}, lo, hi, K, opsdk_inner{attr_names}));\n}}")
            return parts
        if not self.columns:
            parts.append(head + plain + "\n}")
            return parts
        F = len(self.columns)
        cols = "\n".join("    " + line for line in self._c_columns())
        parts.append(f"OPSDK_CLONES static void {prefix}_cols_{sfx}({params}, int64_t rows, int64_t lo, "
                     f"int64_t hi, int64_t K{attrs}) {{\n    {self._unused(True)}\n{cols}\n}}")
        parts.append(self._c_row_function(f"{prefix}_part", sfx, True))
        outs = ", ".join(f"T *restrict {s.name}" for s in self.columns)
        # the parts added into the first in order (vectorized along the features), then stored
        adds = " ".join(f"opsdk_part[{k} * K + j] += opsdk_part[(opsdk_c * {F} + {k}) * K + j];" for k in range(F))
        stores = " ".join(f"{s.name}[j] = (T)opsdk_part[{k} * K + j];" for k, s in enumerate(self.columns))
        parts.append(f"OPSDK_CLONES static void {prefix}_sum_{sfx}({outs}, double *restrict opsdk_part, "
                     f"int64_t opsdk_parts, int64_t lo, int64_t hi, int64_t K) {{\n"
                     f"    for (int64_t opsdk_c = 1; opsdk_c < opsdk_parts; opsdk_c++) {{\n"
                     f"        OPSDK_SIMD for (int64_t j = lo; j < hi; j++) "
                     f"{{ {adds} }}\n    }}\n"
                     f"    OPSDK_SIMD for (int64_t j = lo; j < hi; j++) {{ {stores} }}\n}}")
        parts.append(f"static void {prefix}_parts_{sfx}({params}, int64_t rows, int64_t opsdk_per, int64_t lo, "
                     f"int64_t hi, int64_t K{attrs}, double *opsdk_part) {{\n"
                     "    for (int64_t opsdk_c = lo; opsdk_c < hi; opsdk_c++) {\n"
                     "        const int64_t opsdk_first = opsdk_c * opsdk_per;\n"
                     "        const int64_t opsdk_last = opsdk_first + opsdk_per < rows ? opsdk_first + opsdk_per : rows;\n"
                     f"        if (opsdk_first < opsdk_last) {prefix}_part_{sfx}({names}, opsdk_first, opsdk_last, "
                     f"K{attr_names}, opsdk_part + opsdk_c * {F} * K);\n    }}\n}}")
        feature_names = ", ".join(s.name for s in self.columns)
        parts.append(
            head + f"    const int64_t opsdk_parts = opsdk_rows_parts(rows, K, {F});\n"
            f"    double *opsdk_part = rows && K ? (double *)calloc((size_t)(opsdk_parts * {F} * K), sizeof(double)) : NULL;\n"
            "    if (opsdk_part == NULL) {  /* no room for the partials (or nothing to sum): a column pass of its own */\n"
            f"    {plain}\n"
            f"        OPSDK_PARALLEL_CHUNKS(K, rows * K, {COLUMNS}, lo, hi, "
            f"{prefix}_cols_{sfx}({names}, rows, lo, hi, K{attr_names}));\n"
            "        return;\n    }\n"
            "    const int64_t opsdk_per = (rows + opsdk_parts - 1) / opsdk_parts;\n"
            f"    OPSDK_PARALLEL_CHUNKS(opsdk_parts, rows * K, 1, lo, hi, "
            f"{prefix}_parts_{sfx}({names}, rows, opsdk_per, lo, hi, K{attr_names}, opsdk_part));\n"
            f"    OPSDK_PARALLEL_CHUNKS(K, opsdk_parts * K * {F}, {COLUMNS}, lo, hi, "
            f"{prefix}_sum_{sfx}({feature_names}, opsdk_part, opsdk_parts, lo, hi, K));\n"
            "    free(opsdk_part);\n}")
        return parts

    # -- CUDA -----------------------------------------------------------------------------------

    def _cuda_pass(self, p, stash, column=False):
        """One pass in CUDA: a block's threads over the row's elements, block reductions; or
        (``column``) one thread over the elements of its row along the middle axis, in order."""
        lines, body, reduced = [], [], []
        layout = COLUMN if column else ROW
        for step, expr in self._terms(p, stash, layout, body, features=False):
            acc = f"opsdk_a_{step.name}"
            if step.what == "reduce":
                lines.append(f"double {acc} = rows_identity({_HOW[step.how]});")
                body.append(f"{acc} = rows_combine({acc}, (double)({expr}), {_HOW[step.how]});")
                reduced.append(step)
            else:
                body.append(f"{layout['element'].format(name=step.name)} = (T)({expr});")
        if body:
            loop = "for (long long j = 0; j < K; j++)" if column else \
                "for (long long j = threadIdx.x; j < K; j += blockDim.x)"
            lines.append(f"{loop} {{ " + " ".join(body) + " }")
        lines += [f"const T opsdk_v_{s.name} = (T)" + (f"opsdk_a_{s.name};" if column else
                                                          f"rows_reduce(opsdk_a_{s.name}, {_HOW[s.how]}, red);")
                  for s in reduced]
        return lines

    def _cuda_features(self):
        """The feature tasks: group g of GROUP features over part q of the rows; partials, then
        the group's last block adds the parts up."""
        p, F = self.program, len(self.columns)
        accs = " ".join(f"double opsdk_a_{s.name} = 0.0;" for s in self.columns)
        adds = " ".join(f"opsdk_a_{s.name} += (double)({p.rewrite(s.expr)});" for s in self.columns)
        lanes = "\n".join(
            f"            red[threadIdx.x] = opsdk_a_{s.name}; __syncthreads();\n"
            f"            if (threadIdx.x < {GROUP} && j < K) {{ double opsdk_s = 0.0; "
            f"for (int opsdk_w = 0; opsdk_w < (int)(blockDim.x / {GROUP}); opsdk_w++) "
            f"opsdk_s += red[opsdk_w * {GROUP} + threadIdx.x]; "
            f"opsdk_part[(opsdk_q * {F} + {k}) * K + j] = opsdk_s; }}\n            __syncthreads();"
            for k, s in enumerate(self.columns))
        sums = " ".join(f"{{ double opsdk_s = 0.0; for (long long opsdk_c = 0; opsdk_c < opsdk_parts; opsdk_c++) "
                        f"opsdk_s += opsdk_part[(opsdk_c * {F} + {k}) * K + j]; {s.name}[j] = (T)opsdk_s; }}"
                        for k, s in enumerate(self.columns))
        return (" else {\n"
                "            __syncthreads();  /* red may still be read by the last row's reductions */\n"
                f"            const long long opsdk_groups = (K + {GROUP - 1}) / {GROUP}, opsdk_f = t - rows;\n"
                "            const long long opsdk_g = opsdk_f % opsdk_groups, opsdk_q = opsdk_f / opsdk_groups;\n"
                f"            const long long j = opsdk_g * {GROUP} + (threadIdx.x % {GROUP});\n"
                "            const long long opsdk_per = (rows + opsdk_parts - 1) / opsdk_parts, opsdk_r0 = opsdk_q * opsdk_per;\n"
                "            const long long opsdk_r1 = opsdk_r0 + opsdk_per < rows ? opsdk_r0 + opsdk_per : rows;\n"
                f"            {accs}\n"
                f"            if (j < K) for (long long r = opsdk_r0 + threadIdx.x / {GROUP}; r < opsdk_r1; r += blockDim.x / {GROUP}) {{\n"
                f"                const long long o = r * K; (void)o; {adds}\n            }}\n"
                f"{lanes}\n"
                "            __threadfence();\n"
                "            if (threadIdx.x == 0) red[0] = atomicAdd(&opsdk_count[opsdk_g], 1u) == opsdk_parts - 1 ? 1.0 : 0.0;\n"
                "            __syncthreads();\n"
                f"            if (red[0] != 0.0 && threadIdx.x < {GROUP} && j < K) {{ {sums} }}\n"
                "            __syncthreads();\n        }")

    def cuda_parameters(self, T):
        params = self.parameters(T, integer="long long")
        if self.columns:
            params += ["double *opsdk_part", "unsigned int *opsdk_count"]
        return params

    def cuda_function(self):
        """The stage as a device template in namespace opsdk::rows_<op>."""
        params = ", ".join(self.cuda_parameters("T"))
        attrs = self.attributes("T", "long long")
        rows = self._statements(self._cuda_pass, _CUDA_BLOCK_FORMS)
        body = "\n".join("            " + line for line in rows)
        sizes = ", ".join(f"long long {size}" for size in self.cuda_sizes())
        tasks = f"rows + (K + {GROUP - 1}) / {GROUP} * opsdk_parts" if self.columns else "rows"
        text = (f"template <typename T> __device__ void {self.stage}({params}, {sizes}{attrs}, "
                f"double *red) {{\n    {self._unused()} (void)red;\n")
        if self.axis:  # rows along the middle axis of [rows, K, inner]: a thread each, coalesced along inner
            columns = self._statements(lambda p, stash: self._cuda_pass(p, stash, True), _CUDA_COLUMN_FORMS, COLUMN)
            text += ("    if (opsdk_inner != 1) {\n"
                     "        for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < rows * opsdk_inner;\n"
                     "             t += (long long)gridDim.x * blockDim.x) {\n"
                     "            const long long o = t / opsdk_inner * K * opsdk_inner + t % opsdk_inner; (void)o;\n"
                     + "\n".join("            " + line for line in columns) + "\n        }\n        return;\n    }\n")
        text += (f"    for (long long t = blockIdx.x; t < {tasks}; t += gridDim.x) {{\n"
                 "        if (t < rows) {\n            const long long r = t, o = r * K; (void)o;\n"
                 f"{body}\n        }}")
        if self.columns:
            text += self._cuda_features()
        return text + "\n    }\n}"

    def cuda_sizes(self):
        """The size parameters of the CUDA functions."""
        return ["rows", "K", *(["opsdk_parts"] if self.columns else []), *(["opsdk_inner"] if self.axis else [])]

    def cuda_kernels(self, space):
        parts = []
        shared = BLOCK if self.columns else 33
        sizes = self.cuda_sizes()
        for sfx, T in (("f32", "float"), ("f64", "double")):
            names = ", ".join([*self.reads, *self.writes, *(["opsdk_part", "opsdk_count"] if self.columns else []),
                               *sizes, *self.attrs, "red"])
            parts.append(f'extern "C" __global__ void {self.function}_{sfx}({", ".join(self.cuda_parameters(T))}, '
                         f"{', '.join(f'long long {s}' for s in sizes)}{self.attributes(T, 'long long')}) {{\n"
                         f"    __shared__ double red[{shared}];\n"
                         f"    opsdk::{space}::{self.stage}<{T}>({names});\n}}")
        return parts


def used_functions(stages):
    """The vocabulary functions the stages' statements call."""
    text = " ".join(s.expr for stage in stages for s in stage.program.steps)
    return {name: fns for name, fns in C_NAMES.items() if re.search(rf"\b{name}\s*\(", text)}


_C_HEAD = f"""#include <math.h>
#include <stdlib.h>
#include "opsdk/elementwise.h"

/* row parts of the per-feature sums (as opsdk.kernels.rows.code.parts, but one below OPSDK_OMP_MIN
 * elements, which run on one thread: no partials to clear and add up): the sizes alone decide */
static inline int64_t opsdk_rows_parts(int64_t rows, int64_t K, int64_t F) {{
    if (rows * K < OPSDK_OMP_MIN) return 1;
    int64_t parts = (rows + 31) / 32, cap = {PART_DOUBLES} / (F * (K > 0 ? K : 1));
    parts = parts < {PARTS} ? parts : {PARTS};
    parts = parts < cap ? parts : cap;
    return parts > 1 ? parts : 1;
}}

/* a row's reduction keeps OPSDK_ROW_LANES results, 64 bytes of T (element j in lane j % lanes),
 * combined as a tree: halves, quarters, ... (vector instructions; the same order on any CPU) */
#define OPSDK_ROW_LANES (64 / (int)sizeof(T))
"""
_COMBINE = {"sum": "{a} + {b}", "max": "{b} > {a} ? {b} : {a}", "min": "{b} < {a} ? {b} : {a}"}


def _lanes_tree(how, T, sfx, lanes):
    """The C function combining ``lanes`` T's as a tree for a reduction ``how`` (opsdk_lanes_<how>_<sfx>):
    lane k with lane k + half, then the halves' halves... With GCC's vector types (GCC, clang) the
    levels of 16 bytes or more are vector instructions (the compiler vectorizes a tree written
    with arrays only now and then: in a pass with two sums, never); other compilers, the same
    order in scalars."""
    size = 64 // lanes
    scalar, source, width = [], "l", lanes
    while width > 2:
        width //= 2
        both = _COMBINE[how].format(a=f"{source}[k]", b=f"{source}[k + {width}]")
        scalar.append(f"    {T} h{width}[{width}]; for (int k = 0; k < {width}; k++) h{width}[k] = {both};")
        source = f"h{width}"
    scalar.append(f"    return {_COMBINE[how].format(a=f'{source}[0]', b=f'{source}[1]')};")
    vector, source, width = [], None, lanes
    while width * size > 16:
        width //= 2
        v, i, nbytes = f"opsdk_{sfx}x{width}", f"opsdk_i{8 * size}x{width}", width * size
        low, high = ("l", f"l + {width}") if source is None else (f"&{source}", f"(const {T} *)&{source} + {width}")
        vector.append(f"    {v} h{width}, u{width}; memcpy(&h{width}, {low}, {nbytes}); memcpy(&u{width}, {high}, {nbytes});")
        if how == "sum":
            vector.append(f"    h{width} = h{width} + u{width};")
        else:  # the select of a > b (b < a for min): C has no ?: on vectors
            cmp = f"u{width} > h{width}" if how == "max" else f"u{width} < h{width}"
            vector.append(f"    {{ const {i} m = {cmp}; h{width} = ({v})(((({i})u{width}) & m) | ((({i})h{width}) & ~m)); }}")
        source = f"h{width}"
    elements = [f"{source}[{k}]" for k in range(width)]
    while len(elements) > 1:  # the last levels in scalars: elements of the last vector
        half = len(elements) // 2
        both = [_COMBINE[how].format(a=elements[k], b=elements[k + half]) for k in range(half)]
        if half == 1:
            vector.append(f"    return {both[0]};")
            break
        vector.append(f"    const {T} " + ", ".join(f"g{half}_{k} = {e}" for k, e in enumerate(both)) + ";")
        elements = [f"g{half}_{k}" for k in range(half)]
    head = f"static inline OPSDK_ALWAYS_INLINE {T} opsdk_lanes_{how}_{sfx}(const {T} *l) {{\n"
    return (f"#if defined(__GNUC__)\n{head}" + "\n".join(vector) + f"\n}}\n#else\n{head}" + "\n".join(scalar)
            + "\n}\n#endif")


_C_HEAD += ("#include <string.h>\n#if defined(__GNUC__)\n" + "".join(
    f"typedef {T} opsdk_{sfx}x{w} __attribute__((vector_size({w * size})));\n"
    f"typedef int{8 * size}_t opsdk_i{8 * size}x{w} __attribute__((vector_size({w * size})));\n"
    for sfx, T, size in (("f32", "float", 4), ("f64", "double", 8)) for w in (64 // size // 2, 64 // size // 4))
    + "#endif\n" + "\n".join(_lanes_tree(how, T, sfx, 64 // size)
                               for sfx, T, size in (("f32", "float", 4), ("f64", "double", 8)) for how in _COMBINE) + "\n")


def c_code(stages):
    """The C source of every stage, both dtypes."""
    used = used_functions(stages)
    scalar = [name for name in used if name in ROW_LIBM]
    parts = [_C_HEAD]
    for sfx, (T, index) in (("f32", ("float", 0)), ("f64", ("double", 1))):
        parts.append(f"#define T {T}")
        parts += [f"#define {name} {fns[index]}" for name, fns in used.items()]
        parts += [f"#define opsdk_row_{name} {ROW_LIBM[name][index]}" for name in scalar]
        parts.append(f"#define opsdk_exp_nonpositive {_EXP_NONPOSITIVE[index]}")
        parts += [f"#define opsdk_lanes_{how} opsdk_lanes_{how}_{sfx}" for how in _COMBINE]
        for stage in stages:
            parts += [_exp_of_minus_abs(f) for f in stage.c_functions(sfx, T)]
        parts += [f"#undef {name}" for name in (*used, *(f"opsdk_row_{n}" for n in scalar), "opsdk_exp_nonpositive",
                                                *(f"opsdk_lanes_{how}" for how in _COMBINE))]
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
