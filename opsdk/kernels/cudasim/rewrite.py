"""The preprocessed CUDA source made host C++: kernels found, ``__global__`` and ``__shared__`` rewritten.

The host compiler has no ``__global__`` or ``__shared__``: kernels become plain functions (the
simulator calls them once per thread), static ``__shared__`` variables become references to
slots of the simulator's shared-memory arena (one per declaration and template instantiation,
poisoned at every block, with redzones between them), and ``extern __shared__`` arrays point at
the dynamic shared memory of the launch. Line structure is kept, so the compiler's errors still
name the user's file and line.
"""
import bisect
import re
from typing import NamedTuple

from opsdk.errors import KernelBuildError

_TOKENS = re.compile(
    r'(?P<str>"(?:\\.|[^"\\\n])*")'
    r"|(?P<chr>'(?:\\.|[^'\\\n])*')"
    r"|(?P<marker>^\#[^\n]*)"
    r"|(?P<kw>\b__(?:global|shared)__\b)"
    r"|(?P<open>\{)|(?P<close>\})",
    re.MULTILINE,
)
_MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"((?:\s+\d+)*)')
_IDENT = re.compile(r"[A-Za-z_]\w*")
_ALIGNAS = re.compile(r"\balignas\s*\(([^()]*)\)")
_BUILTIN_TYPES = frozenset(
    "void bool char short int long float double signed unsigned wchar_t char16_t char32_t size_t".split())
_QUALIFIERS = frozenset(("const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "class"))


class Param(NamedTuple):
    """One kernel parameter as written: its type text and name ('' when unnamed)."""

    type: str
    name: str


class KernelSource(NamedTuple):
    """A ``__global__`` function found in the source."""

    name: str
    qualified: str      # how the generated entry refers to it (namespaces included)
    params: tuple       # Param, in order
    extern_c: bool
    template: bool
    file: str
    line: int


class Rewritten(NamedTuple):
    """The host-C++ text, the kernels it defines and the files of the user's own source."""

    text: str
    kernels: tuple
    user_files: tuple = ()


class _Lines:
    """Offset -> (file, line) through the preprocessor's line markers; which files are the user's
    (not system headers, flag 3, nor the simulator's own headers)."""

    def __init__(self, text, own_dirs=()):
        self.starts, self.places, self.user = [0], [("<source>", 1)], [False]
        for m in re.finditer(r"^#[^\n]*", text, re.MULTILINE):
            found = _MARKER.match(m.group(0))
            if found:
                self.starts.append(m.end() + 1)
                name = re.sub(r"\\(.)", r"\1", found.group(2))
                self.places.append((name, int(found.group(1))))
                system = "3" in found.group(3).split()
                pseudo = name in ("<built-in>", "<command-line>") or name.startswith(tuple(own_dirs))
                self.user.append(not system and not pseudo)
        self.text = text

    def at(self, offset):
        i = bisect.bisect_right(self.starts, offset) - 1
        file, line = self.places[i]
        return file, line + self.text.count("\n", self.starts[i], offset)

    def is_user(self, offset):
        """Whether the text at ``offset`` comes from the user's source (or its own headers)."""
        return self.user[bisect.bisect_right(self.starts, offset) - 1]

    def user_files(self):
        return tuple(sorted({place[0] for place, user in zip(self.places, self.user) if user}))


def _error(lines, offset, message):
    file, line = lines.at(offset)
    return KernelBuildError(f"{file}:{line}: error: {message}")


def _balanced(text, start, opener="(", closer=")"):
    """Index just past the bracket matching the one at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _depths(text):
    """(index, char, depth) of text's characters: depth counts (), [], {} and template <> around
    the character (a bracket itself is at the depth outside it). An angle bracket counts only at
    the top level or inside another one: inside () or [] it is a comparison or a shift."""
    stack = []
    for i, c in enumerate(text):
        if c in "([{":
            yield i, c, len(stack)
            stack.append(c)
        elif c in ")]}":
            while stack and stack[-1] == "<":  # an unclosed '<' was a comparison after all
                stack.pop()
            if stack:
                stack.pop()
            yield i, c, len(stack)
        elif c == "<" and (not stack or stack[-1] == "<") and "<" not in (text[i + 1:i + 2], text[i - 1:i]):
            yield i, c, len(stack)
            stack.append(c)
        elif c == ">" and stack and stack[-1] == "<":
            stack.pop()
            yield i, c, len(stack)
        else:
            yield i, c, len(stack)


def split_top(text, sep=","):
    """text split at ``sep`` outside (), [], {} and template <>."""
    parts, start = [], 0
    for i, c, depth in _depths(text):
        if c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _top_index(text, chars):
    """Index of the first of ``chars`` outside brackets, or len(text)."""
    for i, c, depth in _depths(text):
        if c in chars and depth == 0:
            return i
    return len(text)


def parse_params(text):
    """The Params of a parameter list's text."""
    params = []
    for piece in split_top(text):
        piece = piece.split("=")[0].strip()
        if piece in ("void", "..."):
            continue
        idents = _IDENT.findall(piece.split("[")[0])
        last = idents[-1] if idents else ""
        meaningful = [i for i in idents[:-1] if i not in _QUALIFIERS]
        named = bool(last) and last not in _BUILTIN_TYPES and last not in _QUALIFIERS and bool(meaningful)
        kind = piece[:piece.rfind(last)].strip() if named else piece
        params.append(Param(" ".join(kind.split()), last if named else ""))
    return tuple(params)


def _scopes(text, matches):
    """For each brace offset: the scope it opens ('C' extern "C", 'N:name' namespace, 'o' other)."""
    kinds = {}
    for m in matches:
        if m.lastgroup != "open":
            continue
        before = text[max(0, m.start() - 200):m.start()]
        if re.search(r'extern\s*"C"\s*$', before):
            kinds[m.start()] = "C"
        else:
            ns = re.search(r"\bnamespace\s+([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)?\s*$", before)
            kinds[m.start()] = f"N:{(ns.group(1) or '').replace(' ', '')}" if ns else "o"
    return kinds


_SHIFT = re.compile(r"(?<![<])<<=?(?![<])")
_CASTS = frozenset(("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast"))
# what ends a shift's right operand (an additive expression) at its bracket depth: an operator of
# the shift's precedence or lower, a closing bracket, a separator
_OPERAND_ENDS = re.compile(r"<<|>>|<=|>=|==|!=|&&|\|\||[<>&^|?,;=)\]}]|:(?!:)")
_OPERAND_TOKEN = re.compile(r"\s+|[A-Za-z_]\w*|\.?\d[\w.]*(?:[eEpP][+-]\w+)?|->|\+\+|--|::|[-+*/%!~.]|[&]")


def _operand_end(text, i):
    """Offset just past the right operand of a shift whose operator ends at ``i``, or None when
    the operand cannot be read (left as written)."""
    expect = True  # an operand is due: a '&' or '*' here is unary
    end = None
    while i < len(text):
        c = text[i]
        if c in "([{":
            i = _balanced(text, i, c, {"(": ")", "[": "]", "{": "}"}[c])
            expect, end = False, i
            continue
        if c in "\"'":
            m = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'').match(text, i)
            if not m:
                return None
            i, expect, end = m.end(), False, m.end()
            continue
        if not expect and _OPERAND_ENDS.match(text, i):
            return end
        m = _OPERAND_TOKEN.match(text, i)
        if not m:
            return None
        word = m.group(0)
        if word in _CASTS or (word[0].isalpha() or word[0] == "_") and text.startswith("<", _skip_space(text, m.end())):
            close = _template_close(text, _skip_space(text, m.end()))
            after = _skip_space(text, close) if close else 0
            if close and (word in _CASTS or text.startswith(("(", "::"), after)):
                i, expect, end = close, False, close  # a template's arguments, not a comparison
                continue
        if not word.isspace():
            if word in ("-", "+", "*", "/", "%", "!", "~", "&", ".", "->", "::"):
                expect = word not in ("++", "--")
            else:
                expect, end = False, m.end()
            if word in ("++", "--"):
                end = m.end()
        i = m.end()
    return end


def _skip_space(text, i):
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _template_close(text, i):
    """Offset past the '>' closing the template argument list opened at text[i] == '<', or None."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "([":
            i = _balanced(text, i, c, ")" if c == "(" else "]")
            continue
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in ";{})]":
            return None
        i += 1
    return None


def _shift_edits(text, start, end):
    """Edits wrapping the right operand of each ``<<`` in text[start:end] in ``opsdk_sim_shift``
    (the GPU's shift semantics: see opsdk_cuda_sim.h)."""
    edits = []
    for m in _SHIFT.finditer(text, start, end):
        stop = _operand_end(text, m.end())
        if stop is not None and stop > m.end():
            edits += [(m.end(), m.end(), " ::opsdk_sim_shift("), (stop, stop, ")")]
    return edits


def _statement_start(text, offset):
    """Offset where the declaration around ``offset`` starts (after the previous ; { } or line marker)."""
    i = offset
    while i > 0:
        c = text[i - 1]
        if c in ";{}":
            return i
        if c == "\n" and text.startswith("#", text.rfind("\n", 0, i - 1) + 1):
            return i
        i -= 1
    return 0


def _declaration_end(text, offset):
    """Offset of the ';' ending the declaration that contains ``offset``."""
    depth = 0
    for i in range(offset, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i
    return len(text)


_CV_TAIL = re.compile(r"(?:\s*(?:[*&]|\b(?:const|volatile|__restrict__|__restrict|restrict)\b))+\s*$")


def _strip_attributes(text):
    """text without its ``__attribute__((...))`` specifiers."""
    while True:
        found = re.search(r"__attribute__\s*\(", text)
        if not found:
            return " ".join(text.split())
        text = text[:found.start()] + text[_balanced(text, found.end() - 1):]


def _name_in(declarator):
    """The declared name's match in a declarator (``*p``, ``s[N * 4][2]``), or None."""
    head = declarator[:_top_index(declarator, "[")]
    top = {i for i, c, depth in _depths(head) if depth == 0}
    names = [m for m in _IDENT.finditer(head) if m.start() in top and m.group(0) not in _QUALIFIERS and
             m.group(0) != "__attribute__"]
    return names[-1] if names else None


def _split_type(first):
    """(type, declarator) of a declaration's first piece: ``volatile float *p[4]`` -> ('volatile
    float', '*p[4]'); the name is the last identifier before the array bounds, whatever those hold."""
    name = _name_in(first)
    if name is None:
        return None, None
    kind = first[:name.start()]
    tail = _CV_TAIL.search(kind)
    cut = tail.start() if tail and re.search(r"[*&]", tail.group(0)) else len(kind)
    kind, pointer = kind[:cut].strip(), kind[cut:].strip()
    if not _IDENT.search(_strip_attributes(kind)):
        return None, None
    return kind, (pointer + " " if pointer else "") + first[name.start():].strip()


def _rewrite_shared(text, start, end, kw_start, lines, counter, at_file_scope=False):
    """Host C++ replacing the __shared__ declaration text[start:end] (end at its ';')."""
    decl = text[start:end]
    lead = decl[:len(decl) - len(decl.lstrip())]
    prefix, rest = text[start:kw_start], text[kw_start + len("__shared__"):end]
    words = prefix.split()
    specifiers = " ".join(w for w in words if w not in ("static", "extern"))
    body = _ALIGNAS.sub(r"__attribute__((aligned(\1)))", f"{specifiers} {rest}".strip())
    file, line = lines.at(kw_start)
    if _top_index(body, "=") < len(body):
        raise _error(lines, kw_start, "initializer not allowed for a __shared__ variable (CUDA gives "
                                      "shared memory no initial value: assign it in the kernel)")
    pieces = split_top(body)
    kind, first = _split_type(pieces[0]) if pieces else (None, None)
    if not kind:
        raise _error(lines, kw_start, f"cannot read this __shared__ declaration: {' '.join(decl.split())!r}")
    out = []
    if "extern" in words:
        name = _name_in(first)
        if name is None or not first.rstrip().endswith("[]"):
            raise _error(lines, kw_start, "an extern __shared__ declaration must be an array of unknown "
                                          "size, e.g. extern __shared__ float buffer[];")
        pointee = _strip_attributes(kind)
        out.append(f"{pointee} *const {name.group(0)} = reinterpret_cast<{pointee} *>(::opsdk_sim_dynamic_shared);")
    else:
        for declarator in [first, *pieces[1:]]:
            name = _name_in(declarator)
            if name is None:
                raise _error(lines, kw_start, f"cannot find the name in __shared__ declarator {declarator!r}")
            counter[0] += 1
            alias = f"opsdk_shared_t{counter[0]}_{name.group(0)}"
            key = f"opsdk_shared_k{counter[0]}_{name.group(0)}"
            typed = declarator[:name.start()] + alias + declarator[name.end():]
            # a local reference (a register) to the slot the runtime keeps for this declaration,
            # found by the address of a static key beside it (one per template instantiation)
            local = "" if at_file_scope else "static "
            out.append(f"typedef {kind} {typed}; {local}char {key}; {alias} &{name.group(0)} = "
                       f"*reinterpret_cast<{alias} *>(::opsdk_sim_shared_slot(&{key}, sizeof({alias}), "
                       f"alignof({alias}), \"{name.group(0)}\", {_c_string(file)}, {line}));")
    return lead + " ".join(out) + "\n" * decl.lstrip().count("\n")


# what the simulator does not model, refused by name where the user's source uses it (the host
# compiler would fail on it with an unrelated message, or run it wrongly)
_TEXTURES = ("textures and surfaces", "read the array through a plain pointer (const T *__restrict__, "
             "__ldg) for the simulator, or test this kernel on a GPU")
_REFUSED = (
    (r"\b(?:cudaTextureObject_t|cudaSurfaceObject_t|cudaCreateTextureObject|cudaCreateSurfaceObject)\b"
     r"|\b(?:tex1Dfetch|tex1D|tex2D|tex3D|tex1DLayered|tex2DLayered|texCubemap\w*|tex2Dgather|tex[123]DLod"
     r"|tex[123]DGrad|surf[123]D(?:Layered)?(?:read|write)|surfCubemap\w*)\s*[<(]|\b(?:texture|surface)\s*<",
     *_TEXTURES),
    (r"\b(?:asm|__asm__|__asm)\b\s*(?:volatile\b|__volatile__\b|goto\b)?\s*\(",
     "inline PTX (asm)", "PTX is GPU assembly the host compiler cannot run: use the CUDA intrinsic it stands "
     "for (__shfl_sync, __ldg, atomicAdd, __funnelshift_l, __byte_perm, ...)"),
    (r"\b(?:this_grid|this_multi_grid|grid_group|multi_grid_group)\b",
     "grid-wide synchronisation (cooperative groups' grid_group)", "blocks run one after another, so a "
     "grid-wide barrier would wait forever: split the kernel at the barrier into two launches"),
    (r"\b(?:cub|hipcub)\s*::", "CUB", "write the block or warp reduction with __shfl_xor_sync and shared "
     "memory, or test this kernel on a GPU"),
    (r"\bnvcuda\s*::\s*wmma\b|\bwmma\s*::", "warp matrix operations (wmma)", "test this kernel on a GPU"),
)
_REFUSED_RE = re.compile("|".join(f"(?P<r{i}>{pattern})" for i, (pattern, *_) in enumerate(_REFUSED)) +
                         r'|"(?:\\.|[^"\\\n])*"' + r"|'(?:\\.|[^'\\\n])*'")
_INCLUDES = (  # headers of libraries the simulator does not model (none of them is on its path)
    (r"(?:hip)?cub/|cub\.cuh$", "CUB"), (r"thrust/", "Thrust"), (r"cuda/", "libcu++ (cuda/std, cuda/barrier, ...)"),
    (r"mma\.h$", "warp matrix operations (wmma)"), (r"cuda_(?:pipeline|awbarrier)", "asynchronous copies and barriers"),
    (r"(?:cuda_)?(?:texture|surface)_(?:fetch_functions|indirect_functions|functions|types)\.h$", _TEXTURES[0]),
)


def _refusal(what, advice):
    return (f"the CUDA simulator does not model {what}: {advice}; `nvcc --ptx` (kernel.check_cuda(), "
            f"opsdk build) still checks that it compiles for a GPU")


def refuse_unmodelled(text, lines):
    """KernelBuildError (file:line) at the first construct of the user's source the simulator does
    not model: textures and surfaces, inline PTX, grid-wide synchronisation, CUB, wmma."""
    for m in _REFUSED_RE.finditer(text):
        if m.lastgroup and m.lastgroup.startswith("r") and lines.is_user(m.start()):
            _, what, advice = _REFUSED[int(m.lastgroup[1:])]
            raise _error(lines, m.start(), f"{' '.join(m.group(0).split()).rstrip('(<').strip()}: "
                                           f"{_refusal(what, advice)}")


def refuse_includes(sources):
    """KernelBuildError at the first ``#include`` of a library the simulator does not model, over
    ``sources``: (file name, text) of the user's source and its local headers."""
    for name, text in sources:
        for number, line in enumerate(text.splitlines(), 1):
            found = re.match(r'\s*#\s*include\s*[<"]([^>"]+)[>"]', line)
            for pattern, what in _INCLUDES if found else ():
                if re.match(pattern, found.group(1)):
                    raise KernelBuildError(f"{name}:{number}: error: #include <{found.group(1)}>: "
                                           f"{_refusal(what, 'test this kernel on a GPU')}")


def _c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rewrite(text, own_dirs=()):
    """Rewritten text and kernels of a preprocessed CUDA source (g++ -E output); ``own_dirs``
    hold the simulator's headers (not the user's source).

    Raises:
        KernelBuildError: a __shared__ declaration CUDA would reject or that cannot be read, or a
            construct the simulator does not model (textures, inline PTX, grid sync, CUB).
    """
    lines = _Lines(text, own_dirs)
    refuse_unmodelled(text, lines)
    matches = list(_TOKENS.finditer(text))
    scopes = _scopes(text, matches)
    stack, kernels, edits, counter = [], [], [], [0]
    at = 0
    for m in matches:
        group = m.lastgroup
        if "o" in stack and "<<" in text[at:m.start()] and lines.is_user(at):
            edits += _shift_edits(text, at, m.start())
        at = m.end()
        if group == "open":
            stack.append(scopes[m.start()])
        elif group == "close":
            if stack:
                stack.pop()
        elif group == "kw" and m.group(0) == "__global__":
            edits.append((m.start(), m.end(), " " * len("__global__")))
            found = _kernel_at(text, m, stack, lines)
            if found:
                kernels.append(found)
        elif group == "kw":
            start = _statement_start(text, m.start())
            end = _declaration_end(text, m.end())
            at_file_scope = all(scope != "o" for scope in stack)
            edits.append((start, end, _rewrite_shared(text, start, end, m.start(), lines, counter, at_file_scope)))
    parts, at = [], 0
    for start, end, new in sorted(edits):
        if start < at:
            continue  # a __global__ inside a rewritten declaration: already handled
        parts += [text[at:start], new]
        at = end
    parts.append(text[at:])
    return Rewritten("".join(parts), tuple(_definitions_first(kernels)), lines.user_files())


def _kernel_at(text, m, stack, lines):
    """(KernelSource, whether it is a definition) of the __global__ at match ``m``, or None."""
    paren = text.find("(", m.end())
    if paren < 0:
        return None
    head = text[m.end():paren]
    names = _IDENT.findall(head)
    if not names:
        return None
    name = names[-1]
    start = _statement_start(text, m.start())
    before = text[start:m.start()]
    close = _balanced(text, paren)
    params = parse_params(text[paren + 1:close - 1])
    template = bool(re.search(r"\btemplate\b", before))
    extern_c = bool(re.search(r'extern\s*"C"', before)) or "C" in stack
    namespaces = [s[2:] for s in stack if s.startswith("N:") and s[2:]]
    qualified = "::" + "::".join([*namespaces, name])
    file, line = lines.at(m.start())
    after = text[close:close + 200].lstrip()
    return KernelSource(name, qualified, params, extern_c, template, file, line), after.startswith("{")


def _definitions_first(found):
    """One KernelSource per name, preferring a definition over a declaration."""
    best = {}
    for kernel, is_definition in found:
        if kernel.name not in best or is_definition:
            best[kernel.name] = kernel
    return list(best.values())
