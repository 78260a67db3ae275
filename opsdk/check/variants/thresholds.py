"""Sizes a compiled kernel's own source suggests: one above every size-like constant in it.

A kernel that switches to a parallel or blocked path above some size (``if (n > 65536)``,
``#define PAR_MIN 100000``) is only tested on that path by a sample larger than the constant;
the constant is read from the C or CUDA source (and the headers it includes with quotes), so
no op has to declare it.
"""
import os
import re

_LITERAL = re.compile(r"(?<![\w.])(\d{4,7})(?![\w.])")
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


def source_sizes(op):
    """Sizes one above each size-like integer constant of the op's compiled sources (at most
    MOST, the largest first)."""
    found = set()
    for kernel in op.kernels:
        for backend, source in getattr(kernel, "sources", {}).items():
            for text in _texts(source, kernel.name):
                for literal in _LITERAL.findall(text):
                    value = int(literal)
                    if LOWEST <= value <= HIGHEST:
                        found.add(value + 1)
    return tuple(sorted(found, reverse=True)[:MOST])
