"""Sizes a compiled kernel's own source suggests: one above every size-like constant in it.

A kernel that switches to a parallel or blocked path above some size (``if (n > 65536UL)``,
``#define PAR_MIN (1 << 17)``, ``0x20000``) is only tested on that path by a sample larger than
the constant. The constants are read from the C or CUDA source (and the headers it includes
with quotes), from its ``define_macros`` (``-DPAR_N=150000``), and from the Python adapter of
the compiled implementation: the integers its code holds or names at module level
(``SIGMOID_PARALLEL_MIN = 250_000`` passed to the C function). No op has to declare them.
"""
import numbers
import os
import re

# decimal or hex integers with C's suffixes (65536UL, 0x10000), and shifts (1 << 17)
_SHIFT = re.compile(r"(?<![\w.])(\d+)[uUlL]*\s*<<\s*(\d+)[uUlL]*(?![\w.])")
_LITERAL = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?![\w.])")
_INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')
LOWEST = 2048
HIGHEST = 2_000_000
MOST = 4


def _texts(source, kernel):
    try:
        text = source.read(kernel)
    except Exception:  # an unreadable source fails its build, reported elsewhere
        return []
    texts = [text]
    for name in _INCLUDE.findall(text):
        path = os.path.join(source.base_dir, name)
        try:
            with open(path, encoding="utf-8") as f:
                texts.append(f.read())
        except OSError:
            continue
    return texts


def constants_in(text):
    """The integer constants a C or CUDA text holds: literals (any base, any suffix) and shifts."""
    values = [int(a) << int(b) for a, b in _SHIFT.findall(text) if int(b) < 63]
    return values + [int(literal, 0) if literal[:2].lower() == "0x" else int(literal)
                     for literal in _LITERAL.findall(text)]


def _macro_constants(source):
    found = []
    for macro in getattr(source, "define_macros", ()):
        if len(macro) == 2 and macro[1] is not None:
            found += constants_in(str(macro[1]))
    return found


def _code_constants(code, names_seen):
    found = [c for c in code.co_consts if isinstance(c, numbers.Integral)
             and not isinstance(c, bool)]
    names_seen.update(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_consts"):
            found += _code_constants(const, names_seen)
    return found


def adapter_constants(fn):
    """Integers a compiled implementation's Python adapter holds, or reads from its module."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    names = set()
    found = _code_constants(code, names)
    space = getattr(fn, "__globals__", {})
    found += [space[n] for n in names if isinstance(space.get(n), numbers.Integral)
              and not isinstance(space.get(n), bool)]
    return found


def source_sizes(op):
    """Sizes one above each size-like integer constant of the op's compiled sources, their
    macros and their adapters (at most MOST, the largest first)."""
    return tuple(backend_sizes(op))


def backend_sizes(op):
    """``{size: backends}``: each size of ``source_sizes`` (largest first) with the compiled
    backends whose sources, macros or adapters hold its constant. A C kernel's OpenMP
    threshold means nothing to its CUDA twin, whose grid is another matter (the simulator's
    differential sizes, ``cuda_sizes``): each size is run on the backends it is for."""
    found = {}
    for kernel in op.kernels:
        for backend, source in getattr(kernel, "sources", {}).items():
            values = []
            for text in _texts(source, kernel.name):
                values += constants_in(text)
            values += _macro_constants(source)
            values += adapter_constants(getattr(kernel, "_impls", {}).get(backend))
            for v in values:
                if LOWEST <= v <= HIGHEST:
                    found.setdefault(int(v) + 1, set()).add(backend)
    return {size: tuple(sorted(found[size])) for size in sorted(found, reverse=True)[:MOST]}
