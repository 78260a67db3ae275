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
_MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"')
_IDENT = re.compile(r"[A-Za-z_]\w*")
_ALIGNAS = re.compile(r"\balignas\s*\(([^()]*)\)")
_ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")
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
    """The host-C++ text and the kernels it defines."""

    text: str
    kernels: tuple


class _Lines:
    """Offset -> (file, line) through the preprocessor's line markers."""

    def __init__(self, text):
        self.starts, self.places = [0], [("<source>", 1)]
        for m in re.finditer(r"^#[^\n]*", text, re.MULTILINE):
            found = _MARKER.match(m.group(0))
            if found:
                self.starts.append(m.end() + 1)
                name = re.sub(r"\\(.)", r"\1", found.group(2))
                self.places.append((name, int(found.group(1))))
        self.text = text

    def at(self, offset):
        i = bisect.bisect_right(self.starts, offset) - 1
        file, line = self.places[i]
        return file, line + self.text.count("\n", self.starts[i], offset)


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


def split_top(text, sep=","):
    """text split at ``sep`` outside (), [], {} and <>."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


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


def _split_type(first):
    """(type, declarator) of a declaration's first piece: ``volatile float *p[4]`` -> ('volatile float', '*p[4]')."""
    depth = 0
    for i, c in enumerate(first):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c in "*&" and depth == 0:
            return first[:i].strip(), first[i:].strip()
    head = first.split("[")[0]
    idents = list(_IDENT.finditer(head))
    if len(idents) < 2:
        return None, None
    name = idents[-1]
    return first[:name.start()].strip(), first[name.start():].strip()


def _declarator_name(declarator):
    idents = [i for i in _IDENT.finditer(declarator.split("[")[0]) if i.group(0) not in _QUALIFIERS]
    return idents[-1] if idents else None


def _rewrite_shared(text, start, end, kw_start, lines, counter):
    """Host C++ replacing the __shared__ declaration text[start:end] (end at its ';')."""
    decl = text[start:end]
    lead = decl[:len(decl) - len(decl.lstrip())]
    prefix, rest = text[start:kw_start], text[kw_start + len("__shared__"):end]
    words = prefix.split()
    specifiers = " ".join(w for w in words if w not in ("static", "extern"))
    body = _ALIGNAS.sub(r"__attribute__((aligned(\1)))", f"{specifiers} {rest}".strip())
    file, line = lines.at(kw_start)
    if "=" in re.sub(r"\[[^\]]*\]", "", body):
        raise _error(lines, kw_start, "initializer not allowed for a __shared__ variable (CUDA gives "
                                      "shared memory no initial value: assign it in the kernel)")
    pieces = split_top(body)
    kind, first = _split_type(pieces[0]) if pieces else (None, None)
    if not kind:
        raise _error(lines, kw_start, f"cannot read this __shared__ declaration: {' '.join(decl.split())!r}")
    out = []
    if "extern" in words:
        name = _declarator_name(first)
        if name is None or not first.rstrip().endswith("[]"):
            raise _error(lines, kw_start, "an extern __shared__ declaration must be an array of unknown "
                                          "size, e.g. extern __shared__ float buffer[];")
        pointee = _ATTRIBUTE.sub("", kind).strip()
        out.append(f"{pointee} *const {name.group(0)} = reinterpret_cast<{pointee} *>(::opsdk_sim_dynamic_shared);")
    else:
        for declarator in [first, *pieces[1:]]:
            name = _declarator_name(declarator)
            if name is None:
                raise _error(lines, kw_start, f"cannot find the name in __shared__ declarator {declarator!r}")
            counter[0] += 1
            alias = f"opsdk_shared_t{counter[0]}_{name.group(0)}"
            typed = declarator[:name.start()] + alias + declarator[name.end():]
            out.append(f"typedef {kind} {typed}; static {alias} &{name.group(0)} = "
                       f"*reinterpret_cast<{alias} *>(::opsdk_sim_shared_slot(sizeof({alias}), "
                       f"alignof({alias}), \"{name.group(0)}\", {_c_string(file)}, {line}));")
    return lead + " ".join(out) + "\n" * decl.lstrip().count("\n")


def _c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rewrite(text):
    """Rewritten text and kernels of a preprocessed CUDA source (g++ -E output).

    Raises:
        KernelBuildError: a __shared__ declaration CUDA would reject or that cannot be read.
    """
    lines = _Lines(text)
    matches = list(_TOKENS.finditer(text))
    scopes = _scopes(text, matches)
    stack, kernels, edits, counter = [], [], [], [0]
    for m in matches:
        group = m.lastgroup
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
            edits.append((start, end, _rewrite_shared(text, start, end, m.start(), lines, counter)))
    parts, at = [], 0
    for start, end, new in sorted(edits):
        if start < at:
            continue  # a __global__ inside a rewritten declaration: already handled
        parts += [text[at:start], new]
        at = end
    parts.append(text[at:])
    return Rewritten("".join(parts), tuple(_definitions_first(kernels)))


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
