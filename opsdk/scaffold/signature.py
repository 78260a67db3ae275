"""``opsdk new-op NAME --signature "..."``: an op's inputs, outputs and attributes, parsed and checked.

The syntax (docs/writing-ops.md)::

    x: float[N, C, L], bias: float[C] -> y: float[N, C, L], index: int64[N]; alpha: float = 0.5

- before ``->`` the tensor inputs, after it the outputs, after ``;`` the attributes (optional);
- a tensor is ``NAME: DTYPE[DIM, ...]``: DTYPE ``float`` (the op's float dtype: float32 and float64
  are both verified) or ``int64`` / ``int32``; a DIM is a symbol (the same symbol is the same size
  in every tensor) or a positive integer; ``float[]`` is a 0-d tensor;
- an attribute is ``NAME: float = VALUE`` or ``NAME: int = VALUE``; an int attribute may be a
  symbol of the outputs (a size no input has: ``table: float[K, D]; K: int = 5``).

Each mistake is a SignatureError naming the part that is wrong, expected vs got.
"""
import keyword
import re
from dataclasses import dataclass

from ..errors import SignatureError

FLOAT = "float"
INTEGERS = ("int64", "int32")
ATTR_TYPES = ("float", "int")
# names the generated module and its kernels use themselves (a tensor or attribute of one of
# these names would shadow them), and C's keywords (the names are C parameters too)
RESERVED = frozenset({
    "ctx", "xp", "opsdk", "numpy", "forward", "backward", "reference", "register_op", "sizes",
    "TensorSpec", "Kernel", "array_of", "tensor_of", "array_module", "once_differentiable",
    "OpArgumentError", "CSource", "CudaSource", "SHAPES", "n", "k", "i", "j", "m", "acc", "best",
    "auto", "char", "const", "double", "enum", "extern", "float", "goto", "int", "long", "register",
    "restrict", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "bool", "case", "default", "do", "REAL", "SFX"})
# prefixes of the generated names: d_<output> (a gradient), t_<input> (a placeholder value)
RESERVED_PREFIXES = ("d_", "t_", "_")

_TOKEN = re.compile(r"\s*(?:(?P<arrow>->)|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[\[\],:;=])|(?P<bad>\S))")


@dataclass(frozen=True)
class TensorArg:
    """One tensor of the signature: its name, dtype (``float``, ``int64``, ``int32``) and dims
    (symbols as str, fixed sizes as int)."""

    name: str
    dtype: str
    dims: tuple

    @property
    def is_float(self):
        return self.dtype == FLOAT

    @property
    def symbols(self):
        return tuple(d for d in self.dims if isinstance(d, str))

    def shape_text(self):
        """``[N, C, L]``, as written."""
        return "[" + ", ".join(str(d) for d in self.dims) + "]"


@dataclass(frozen=True)
class Attr:
    """A scalar attribute: its name, type (``float`` or ``int``) and default."""

    name: str
    type: str
    default: object


@dataclass(frozen=True)
class Signature:
    """A parsed, checked signature; ``text`` is the signature as written (normalised)."""

    inputs: tuple
    outputs: tuple
    attrs: tuple
    text: str

    @property
    def float_inputs(self):
        return tuple(t for t in self.inputs if t.is_float)

    @property
    def float_outputs(self):
        return tuple(t for t in self.outputs if t.is_float)

    def symbols(self):
        """Every symbol, in the order it first appears (inputs first, then outputs)."""
        return tuple(dict.fromkeys(s for t in (*self.inputs, *self.outputs) for s in t.symbols))

    def size_attrs(self):
        """The int attributes that are symbols of the outputs (sizes no input has)."""
        used = set(self.symbols())
        return tuple(a for a in self.attrs if a.name in used)

    def sample_sizes(self):
        """One size per symbol for the verified samples: distinct (2, 3, 4, ...; never a fixed
        dimension's size, so a check that renames one size renames one symbol), an attribute's
        default for a size attribute."""
        fixed = {d for t in (*self.inputs, *self.outputs) for d in t.dims if isinstance(d, int)}
        given = {a.name: a.default for a in self.size_attrs()}
        taken = fixed | set(given.values())
        sizes, candidate = {}, 2
        for symbol in self.symbols():
            if symbol in given:
                sizes[symbol] = given[symbol]
                continue
            while candidate in taken:
                candidate += 1
            sizes[symbol] = candidate
            taken.add(candidate)
        return sizes

    def shape(self, tensor):
        """``tensor``'s shape in the samples (sample_sizes)."""
        sizes = self.sample_sizes()
        return tuple(sizes[d] if isinstance(d, str) else d for d in tensor.dims)

    def first_holder(self, symbol):
        """(input, axis) of the first input that has ``symbol`` (None for a size attribute)."""
        for tensor in self.inputs:
            if symbol in tensor.dims:
                return tensor, tensor.dims.index(symbol)
        return None


class _Parser:
    EXAMPLE = "x: float[N, C], w: float[C] -> y: float[N, C], index: int64[N]; alpha: float = 0.5"

    def __init__(self, text):
        self.text = text
        self.tokens = []
        at = 0
        while at < len(text):
            match = _TOKEN.match(text, at)
            if match is None or match.end() == at:  # trailing blanks
                break
            kind = match.lastgroup
            start = match.start(kind)
            if kind == "bad":
                self.fail(start, "a name, a number, one of [ ] , : ; = or ->", repr(match.group(kind)))
            self.tokens.append((kind, match.group(kind), start))
            at = match.end()
        self.tokens.append(("end", "", len(text)))
        self.at = 0

    def fail(self, column, expected, got, part=None):
        where = f"{part} (column {column + 1})" if part else f"column {column + 1}"
        raise SignatureError(f"signature {self.text!r}, at {where}: expected {expected}; got {got}\n"
                             f"  e.g. --signature \"{self.EXAMPLE}\"")

    def peek(self):
        return self.tokens[self.at]

    def take(self, kind, value=None, expected=None, part=None):
        token = self.peek()
        if token[0] != kind or (value is not None and token[1] != value):
            shown = "the end of the signature" if token[0] == "end" else repr(token[1])
            self.fail(token[2], expected or repr(value) if value else (expected or kind), shown, part)
        self.at += 1
        return token

    def name(self, what, part=None):
        return self.take("name", expected=what, part=part)

    def tensor(self, side):
        name = self.name(f"the name of {side} tensor (e.g. x: float[N, C])")
        part = f"{side} '{name[1]}'"
        self.take("punct", ":", expected=f"':' then its dtype (x: float[N, C])", part=part)
        dtype = self.name(f"a dtype: {FLOAT}, {', '.join(INTEGERS)}", part=part)
        if dtype[1] != FLOAT and dtype[1] not in INTEGERS:
            hint = " (float: the op's float dtype; float32 and float64 are both verified)" \
                if dtype[1] in ("float32", "float64", "double", "half", "float16") else ""
            self.fail(dtype[2], f"a dtype: {FLOAT}, {', '.join(INTEGERS)}{hint}", repr(dtype[1]), part)
        self.take("punct", "[", expected="'[' and its shape, e.g. [N, C] ([] for a 0-d tensor)", part=part)
        dims = []
        while not (self.peek()[0] == "punct" and self.peek()[1] == "]"):
            if dims:
                self.take("punct", ",", expected="',' or ']' in a shape", part=part)
            token = self.peek()
            if token[0] == "name":
                dims.append(token[1])
            elif token[0] == "number" and re.fullmatch(r"\d+", token[1]) and int(token[1]) > 0:
                dims.append(int(token[1]))
            else:
                shown = "the end of the signature" if token[0] == "end" else repr(token[1])
                self.fail(token[2], "a dimension: a symbol (N) or a positive integer", shown, part)
            self.at += 1
        self.take("punct", "]")
        repeated = sorted({d for d in dims if isinstance(d, str) and dims.count(d) > 1})
        if repeated:
            self.fail(name[2], "each symbol at most once per tensor (a diagonal is not supported "
                      "yet: name the axes differently and check them in forward)",
                      f"{repeated[0]} twice in {name[1]}[{', '.join(map(str, dims))}]", part)
        return TensorArg(name[1], dtype[1], tuple(dims)), name[2]

    def tensors(self, side, stops):
        found = [self.tensor(side)]
        while self.peek()[0] == "punct" and self.peek()[1] == ",":
            self.at += 1
            found.append(self.tensor(side))
        token = self.peek()
        if not any(token[0] == kind and (value is None or token[1] == value) for kind, value in stops):
            shown = "the end of the signature" if token[0] == "end" else repr(token[1])
            wanted = " or ".join("the end of the signature" if kind == "end" else repr(value) for kind, value in stops)
            self.fail(token[2], f"',' and another {side} tensor, or {wanted}", shown)
        return found

    def attr(self):
        name = self.name("an attribute: NAME: float = VALUE or NAME: int = VALUE")
        part = f"attribute '{name[1]}'"
        self.take("punct", ":", expected="':' then its type (alpha: float = 0.5)", part=part)
        kind = self.name(f"a type: {', '.join(ATTR_TYPES)}", part=part)
        if kind[1] not in ATTR_TYPES:
            self.fail(kind[2], f"an attribute type: {', '.join(ATTR_TYPES)}", repr(kind[1]), part)
        self.take("punct", "=", expected="'=' and its default (alpha: float = 0.5)", part=part)
        value = self.take("number", expected=f"a number, the default of the {kind[1]}", part=part)
        if kind[1] == "int":
            if not re.fullmatch(r"[-+]?\d+", value[1]):
                self.fail(value[2], "an integer default for an int attribute", repr(value[1]), part)
            default = int(value[1])
        else:
            default = float(value[1])
        return Attr(name[1], kind[1], default), name[2]

    def parse(self):
        inputs = self.tensors("input", (("arrow", "->"),))
        self.take("arrow", expected="'->' between the inputs and the outputs")
        outputs = self.tensors("output", (("end", None), ("punct", ";")))
        attrs = []
        if self.peek()[0] == "punct":
            self.at += 1
            attrs.append(self.attr())
            while self.peek()[0] == "punct" and self.peek()[1] == ",":
                self.at += 1
                attrs.append(self.attr())
            token = self.peek()
            if token[0] != "end":
                self.fail(token[2], "',' and another attribute, or the end of the signature", repr(token[1]))
        return inputs, outputs, attrs


def parse_signature(text):
    """The Signature of ``text``, checked.

    Raises:
        SignatureError: naming the part that is wrong (its column), expected vs got.

    Example::

        sig = parse_signature("x: float[N, C], w: float[C] -> y: float[N, C]; alpha: float = 0.5")
        [t.name for t in sig.inputs]        # ['x', 'w']
        sig.sample_sizes()                  # {'N': 2, 'C': 3}
    """
    if not isinstance(text, str) or not text.strip():
        raise SignatureError(f"signature {text!r}: expected inputs -> outputs, e.g. "
                             f"\"{_Parser.EXAMPLE}\"; got: nothing")
    parser = _Parser(text)
    inputs, outputs, attrs = parser.parse()
    fail = parser.fail
    seen = {}
    for role, (item, column) in [*(("input", i) for i in inputs), *(("output", o) for o in outputs),
                                 *(("attribute", a) for a in attrs)]:
        name = item.name
        if name in seen:
            fail(column, "distinct names for the inputs, outputs and attributes",
                 f"{name!r} both {seen[name]} and {role}", f"{role} '{name}'")
        if keyword.iskeyword(name) or name in RESERVED or name.startswith(RESERVED_PREFIXES) \
                or not name.isascii():
            fail(column, "a name the generated code does not use itself (not a Python or C keyword, "
                 f"not one of {', '.join(sorted(RESERVED - {'REAL', 'SFX'}))[:80]}..., not starting with "
                 f"{', '.join(RESERVED_PREFIXES)})", repr(name), f"{role} '{name}'")
        seen[name] = role
    ins = [t for t, _ in inputs]
    outs = [t for t, _ in outputs]
    attributes = [a for a, _ in attrs]
    input_symbols = {s for t in ins for s in t.symbols}
    attr_by_name = {a.name: a for a in attributes}
    if not any(t.is_float for t in ins):
        fail(inputs[0][1], "at least one float input (the placeholder maths and the gradients "
             "are of float inputs)", "only " + ", ".join(t.dtype for t in ins))
    if not any(t.is_float for t in outs):
        fail(outputs[0][1], "at least one float output (an op that is differentiable; one of "
             "integer outputs only has no gradient to verify)", "only " + ", ".join(t.dtype for t in outs))
    for tensor, column in (*inputs, *outputs):
        for symbol in tensor.symbols:
            role = seen.get(symbol)
            if role is not None and not (role == "attribute" and symbol not in input_symbols
                                         and attr_by_name[symbol].type == "int"):
                fail(column, "dimension symbols distinct from the tensors' and attributes' names "
                     "(except an int attribute giving an output's size no input has)",
                     f"{symbol!r} is also {'an' if role[0] in 'aeiou' else 'a'} {role}",
                     f"{'output' if tensor in outs else 'input'} '{tensor.name}'")
            if keyword.iskeyword(symbol) or symbol in RESERVED or symbol.startswith(RESERVED_PREFIXES) \
                    or re.fullmatch(r"dim\d+(_\d+)?", symbol):
                fail(column, "a dimension symbol the generated code does not use itself (N, C, L, ...)",
                     repr(symbol), f"'{tensor.name}'")
    for tensor, column in inputs:
        if not tensor.dims:
            fail(column, "inputs of at least one dimension (a 0-d input is not supported yet: "
                 "declare it [1])", f"{tensor.name}: {tensor.dtype}[]", f"input '{tensor.name}'")
    for tensor, column in outputs:
        unknown = [s for s in tensor.symbols if s not in input_symbols and s not in attr_by_name]
        if unknown:
            fail(column, "output sizes the inputs give (a symbol of an input), or an int attribute "
                 f"of that name (; {unknown[0]}: int = 4)",
                 f"{unknown[0]!r} in no input", f"output '{tensor.name}'")
    for attr, column in attrs:
        if attr.name in {s for t in outs for s in t.symbols} and attr.default < 1:
            fail(column, "a size attribute's default of at least 1", str(attr.default), f"attribute '{attr.name}'")
    normal = (", ".join(f"{t.name}: {t.dtype}{t.shape_text()}" for t in ins) + " -> "
              + ", ".join(f"{t.name}: {t.dtype}{t.shape_text()}" for t in outs)
              + ("; " + ", ".join(f"{a.name}: {a.type} = {a.default!r}" for a in attributes) if attributes else ""))
    return Signature(tuple(ins), tuple(outs), tuple(attributes), normal)
