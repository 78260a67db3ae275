"""A rows op's forward or backward for one row, as statements: read, checked, and rewritten to C.

One statement a line (or separated by ``;``), ``#`` starting a comment::

    sum ss = x * x                       # a row reduction: sum, max or min of an expression over the row
    rstd = 1 / sqrt(ss / K + eps)        # a declared output: per row, per element or per feature
    y = x * rstd * weight

- ``sum|max|min NAME = EXPR``: a row scalar, the reduction of EXPR over the row's elements (a
  sum adds blocks of 1024 elements in T and the blocks in double in C, in double in CUDA: its
  error does not grow with the row, also for float32; max and min are exact in T and NaN where an
  element is NaN, as NumPy's);
- ``T NAME = EXPR``: a row scalar from row scalars, per-row arrays and attributes;
- ``each NAME = EXPR``: a per-element shorthand, substituted where it is read;
- ``NAME = EXPR``: an output, once each. A per-row output is a row scalar too; a per-element
  output is computed for every element of the row; a per-feature output sums EXPR over rows
  (a weight's gradient), so it may not read the row scalars (where the row parts' partials cannot
  be allocated, a column pass of its own computes it);
- ``NAME[INDEX] = EXPR`` (or ``+=``, ``-=``, ``*=``): once per row, one element of a per-element
  output written before, at the row scalar INDEX; an index outside ``[0, K)`` writes nothing
  (a one-hot correction: ``dx[label] -= scale``). The output is not read after it.

An expression is C over the arrays (an element array read at the current element, a feature
array at the current feature, a per-row array at the current row), the attributes, ``K`` (the
row's length), ``j`` (the current element's index in the row, in per-element expressions) and
the functions of the elementwise vocabulary (``opsdk/maths.h`` in C, ``opsdk/maths.cuh`` in
CUDA); ``x[INDEX]`` reads the element array ``x`` at another element of the row, INDEX being a
row scalar expression (an integer per-row input: a label), which the statements keep in
``[0, K)`` (``label >= 0 && label < K ? x[label] : 0`` evaluates the read only there). Decimal
literals become ``T``'s.
"""
import keyword
import re

from opsdk.errors import OpArgumentError
from opsdk.kernels.elementwise.bodies import DECIMAL, VOCABULARY
from opsdk.kernels.elementwise.c_names import reserved_by_c

REDUCTIONS = ("sum", "max", "min")
KINDS = ("element", "row", "feature")  # of arrays and outputs
# names the written C and CUDA use themselves
LOOP_NAMES = frozenset({"T", "K", "r", "j", "o", "t", "rows", "lo", "hi", "red", "j0", "j1", "each", *REDUCTIONS})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_STATEMENT = re.compile(r"(?:(sum|max|min|T|each)\s+)?([A-Za-z_]\w*)\s*=(?!=)\s*(.+)\Z", re.S)
_UPDATE = re.compile(r"([A-Za-z_]\w*)\s*\[")  # NAME[INDEX] op= EXPR: the index's bracket closes first
_UPDATE_OP = re.compile(r"\s*([-+*]?=)(?!=)\s*(.+)\Z", re.S)
_WORD = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(\s*[(\[])?")
_NUMBER = re.compile(r"(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?")
_C_WORDS = frozenset({"T", "K"})
# how the rewritten C reads each kind of name: a row at a time (o: the row's offset, r: its index),
# a panel of rows along the middle axis of [outer, K, inner] (lane opsdk_k of a panel at offset o
# and row opsdk_q + opsdk_k; row scalars one per lane), and a thread per such row (CUDA: row t at o)
ROW = {"element": "{name}[o + j]", "feature": "{name}[j]", "row": "{name}[r]", "scalar": "opsdk_v_{name}",
       "index": "{name}[o + ({index})]"}
PANEL = {"element": "{name}[o + j * opsdk_inner + opsdk_k]", "feature": "{name}[j]",
         "row": "{name}[opsdk_q + opsdk_k]", "scalar": "opsdk_v_{name}[opsdk_k]",
         "index": "{name}[o + ({index}) * opsdk_inner + opsdk_k]"}
COLUMN = {"element": "{name}[o + j * opsdk_inner]", "feature": "{name}[j]", "row": "{name}[t]",
          "scalar": "opsdk_v_{name}", "index": "{name}[o + ({index}) * opsdk_inner]"}
# a token of an expression: a number, a name (with the bracket that follows it), or anything else
_TOKEN = re.compile(r"(?P<number>(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?)"
                    r"|(?P<name>[A-Za-z_]\w*)(?P<open>\s*[(\[])?|(?P<other>.)", re.S)


def reserved_in_rows(name):
    """Why ``name`` cannot name an array, attribute or local of a rows op, or None."""
    if not _IDENTIFIER.match(name):
        return "not a C identifier"
    if keyword.iskeyword(name):
        return "a keyword of Python (the python kernels take it as an argument)"
    if name in LOOP_NAMES or name.startswith("opsdk"):
        return f"a name the written kernels use themselves ({', '.join(sorted(LOOP_NAMES))}, opsdk*)"
    if name in VOCABULARY:
        return "a maths function of the statements"
    return reserved_by_c(name)


def check_names(op, kind, names):
    """Refuse names the written C and CUDA cannot take, naming the op and the name."""
    refused = [(name, reserved_in_rows(name)) for name in names if reserved_in_rows(name)]
    if refused:
        name, why = refused[0]
        raise OpArgumentError(f"{op}: {kind} name {name!r} cannot be used in the written kernels: it is "
                              f"{why}; expected: another name, e.g. '{name}1'; got: {name!r}")


class Step:
    """One statement: ``what`` is reduce (with ``how``: sum/max/min), scalar, each or output (with
    ``how``: the output's kind); ``expr`` its expression as written; ``reads`` the names it reads
    (each-shorthands expanded) and ``needs`` the row scalars among them (set by Program)."""

    def __init__(self, what, how, name, expr, index=None):
        self.what, self.how, self.name, self.expr, self.index = what, how, name, expr, index
        self.reads, self.needs = frozenset(), frozenset()

    @property
    def per_element(self):
        """Computed for every element of the row (a reduction's term, a shorthand, an element or
        feature output), not once per row."""
        return self.what in ("reduce", "each") or self.how in ("element", "feature")

    def __repr__(self):
        return f"Step({self.what!r}, {self.how!r}, {self.name!r}, {self.expr!r})"


def _split(body):
    for line in body.splitlines():
        for part in line.split("#", 1)[0].split(";"):
            if part.strip():
                yield " ".join(part.split())


def _closing(text, start):
    """The index of the bracket closing the one opened just before ``start``, or None."""
    depth = 1
    for k in range(start, len(text)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[k], 0)
        if depth == 0:
            return k
    return None


class Program:
    """The statements of one stage, checked against what the stage reads and must write.

    Args:
        op: the op's name (for messages).
        stage: ``"forward"`` or ``"backward"``.
        body: the statements.
        arrays: {name: kind} of the arrays the stage reads (kind in KINDS).
        attrs: the attributes' names.
        outputs: {name: kind} of the arrays it writes, each exactly once.
    """

    def __init__(self, op, stage, body, arrays, attrs, outputs):
        self.op, self.stage = op, stage
        self.arrays, self.attrs, self.outputs = dict(arrays), tuple(attrs), dict(outputs)
        if not isinstance(body, str):
            raise OpArgumentError(f"{op}: the {stage} statements must be a string; expected: lines like "
                                  f"'sum ss = x * x'; got: {type(body).__name__}")
        self.steps, self.each = [], {}
        self.scalars = {}  # row scalar -> True where it exists (reductions, T locals, row outputs)
        self._each_reads = {}  # each-shorthand -> the names it reads, expanded
        self._updated = set()  # outputs given an indexed update: not read after it
        written = set()
        for text in _split(body):
            step = self._parse(text)
            self._check(step, text, written)
            self.steps.append(step)
        missing = [o for o in self.outputs if o not in written]
        if missing:
            raise self._error(f"a statement for every output ({', '.join(self.outputs)})",
                              f"none for {', '.join(missing)}", body)

    def _error(self, expected, got, text):
        return OpArgumentError(f"{self.op}: {self.stage} statements: expected: {expected}; got: {got} "
                               f"in {text!r}")

    def _parse(self, text):
        update = _UPDATE.match(text)
        if update:
            end = _closing(text, update.end())
            rest = _UPDATE_OP.match(text, end + 1) if end is not None else None
            if rest is None:
                raise self._error("'NAME[INDEX] (=|+=|-=|*=) EXPR'", "a statement of another form", text)
            return Step("update", rest.group(1), update.group(1), rest.group(2), text[update.end():end])
        match = _STATEMENT.match(text)
        if not match:
            raise self._error("'[sum|max|min|T|each] NAME = EXPR'", "a statement of another form", text)
        head, name, expr = match.groups()
        if head in REDUCTIONS:
            return Step("reduce", head, name, expr)
        if head == "T":
            return Step("scalar", None, name, expr)
        if head == "each":
            return Step("each", None, name, expr)
        if name not in self.outputs:
            raise self._error(f"an output ({', '.join(self.outputs)}) or a local declared with sum, max, "
                              f"min, T or each", f"{name!r} assigned", text)
        return Step("output", self.outputs[name], name, expr)

    def _check(self, step, text, written):
        name = step.name
        if step.what == "update":
            if self.outputs.get(name) != "element" or name not in written:
                raise self._error("an indexed update of a per-element output written before",
                                  f"{name}[...] {step.how}", text)
            reads = self._reads(step.index, text, False, written) | self._reads(step.expr, text, False, written)
            step.reads, step.needs = frozenset(reads), frozenset(w for w in reads if w in self.scalars)
            self._updated.add(name)
            return
        if step.what == "output":
            if name in written:
                raise self._error("one statement per output", f"{name!r} assigned twice", text)
            written.add(name)
        else:
            check_names(self.op, "local", (name,))
            if name in self.arrays or name in self.attrs or name in self.outputs \
                    or name in self.scalars or name in self.each:
                raise self._error("a new name for each local", f"{name!r} already names an array, "
                                  "attribute, output or local", text)
        reads = self._reads(step.expr, text, step.per_element, written - {name} if step.what == "output" else written)
        for word in [w for w in reads if w in self.each]:
            reads |= self._each_reads[word]
        step.reads = frozenset(reads)
        step.needs = frozenset(w for w in reads if w in self.scalars)
        if step.how == "feature" and step.needs:
            raise self._error("a per-feature output (summed over rows, apart from the row's scalars) reading "
                              "arrays, attributes and K only", f"it reads row scalar(s) {', '.join(sorted(step.needs))}",
                              text)
        if step.what == "each":
            self.each[name] = step.expr
            self._each_reads[name] = step.reads
        elif step.what in ("reduce", "scalar") or step.how == "row":
            self.scalars[name] = True

    def _reads(self, expr, text, per_element, written):
        """The names ``expr`` reads, each checked to be known here (an indexed read ``x[i]`` is
        a row scalar: its index is checked as a row scalar expression)."""
        reads, skip = set(), 0
        stripped = _NUMBER.sub(" ", expr)
        for match in _WORD.finditer(stripped):
            if match.start() < skip:
                continue  # inside an index, checked already
            word, bracket = match.group(1), (match.group(2) or "").strip()
            if bracket == "(":
                if word not in VOCABULARY:
                    raise self._error(f"one of the functions {', '.join(VOCABULARY)}", f"a call of {word!r}", text)
                continue
            if bracket == "[":
                end = _closing(stripped, match.end())
                if self.arrays.get(word) != "element" or end is None:
                    raise self._error("an index only after an element array read, x[INDEX], with its ']'",
                                      f"{word}[", text)
                reads |= self._reads(stripped[match.end():end], text, False, written) | {word}
                skip = end
                continue
            if word in _C_WORDS or word in self.attrs or word in self.scalars:
                reads.add(word)
                continue
            if word == "j":
                if not per_element:
                    raise self._error("j (the element's index) in a per-element expression only", "j read", text)
                continue
            kind = self.arrays.get(word) or (self.outputs.get(word) if word in written else None)
            if word in self._updated:
                raise self._error(f"no read of {word!r} after its indexed update", f"{word!r} read", text)
            if kind == "feature" and word in self.outputs:
                raise self._error("no read of a per-feature output (it is summed over every row)",
                                  f"{word!r} read", text)
            if kind is None and word not in self.each:
                known = [*self.arrays, *self.attrs, "K", *self.scalars, *self.each, *sorted(written)]
                raise self._error(f"a name defined before: {', '.join(known)}", f"{word!r} read", text)
            if not per_element and (word in self.each or kind in ("element", "feature")):
                raise self._error("a row scalar statement reading row scalars, per-row arrays, attributes "
                                  "and K (reduce over the row first: 'sum NAME = ...')",
                                  f"per-element {word!r} read", text)
            reads.add(word)
        return reads

    # -- rewriting for C and CUDA ---------------------------------------------------------

    def rewrite(self, expr, stash=None, layout=ROW):
        """``expr`` as C: arrays indexed (element ``x[o + j]``, feature ``w[j]``, row ``s[r]``,
        ``x[i]`` as ``x[o + (i)]``; other ``layout``s: PANEL, COLUMN), row scalars as locals,
        each-shorthands substituted (or read from the output ``stash`` names for them), decimal
        literals as ``T``'s."""
        stash = stash or {}
        out, pos = [], 0
        for match in _TOKEN.finditer(expr):
            if match.start() < pos:
                continue  # inside an index already rewritten
            if match.group("number"):
                out.append(DECIMAL.sub(r"((T)\1)", match.group("number")))
            elif match.group("other") is not None:
                out.append(match.group("other"))
            else:
                name, bracket = match.group("name"), match.group("open") or ""
                if bracket.strip() == "[":
                    end = _closing(expr, match.end())
                    index = self.rewrite(expr[match.end():end], stash, layout)
                    out.append(layout["index"].format(name=name, index=index))
                    pos = end + 1
                    continue
                out.append(self._word(name, stash, layout) + bracket)
            pos = match.end()
        return "".join(out)

    def _word(self, name, stash, layout):
        if name in _C_WORDS or name in self.attrs or name in VOCABULARY or name == "j":
            return name
        if name in stash:
            return layout["element"].format(name=stash[name])
        if name in self.each:
            return f"({self.rewrite(self.each[name], stash, layout)})"
        if name in self.scalars:
            return layout["scalar"].format(name=name)
        kind = self.arrays.get(name) or self.outputs.get(name)
        return layout[kind].format(name=name)

