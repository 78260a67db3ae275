"""Write docs/core-ops.md, the list of opsdk's core ops, from the code: every public function of
``opsdk`` defined in ``opsdk.functional``, grouped by module, with its signature and summary.

Usage: python docs/core_ops.py [--check]   (--check: exit 1 if the page is not up to date)
"""
import argparse
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "core-ops.md"
HEADER = """# Core ops

The functions opsdk itself provides, on Tensors (`opsdk.<name>`), listed from the code by
`python docs/core_ops.py` (a test checks that this page is up to date). Each differentiable op
records its gradient rule beside its forward, in `opsdk/functional/<module>.py`; ops from packs
are listed by `opsdk list`. To build an op of your own from these, see
[writing-ops.md](writing-ops.md).
"""


def _summary(function):
    doc = inspect.getdoc(function) or ""
    return doc.splitlines()[0].strip() if doc else ""


def _signature(name, function):
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return f"{name}(...)"
    # `name=None` is Paddle's per-call op name, accepted everywhere and never used
    params = [str(p) for p in signature.parameters.values() if p.name != "name"]
    return f"{name}({', '.join(params)})"


def core_ops():
    """{module: [(name, signature, summary)]} of opsdk's public functions from opsdk.functional."""
    sys.path.insert(0, str(ROOT))
    import opsdk

    found = {}
    for name in sorted(n for n in dir(opsdk) if not n.startswith("_")):
        value = getattr(opsdk, name)
        module = getattr(value, "__module__", "") or ""
        if inspect.isfunction(value) and module.startswith("opsdk.functional."):
            found.setdefault(module, []).append((name, _signature(name, value), _summary(value)))
    return dict(sorted(found.items()))


def render():
    """The page's text."""
    import importlib

    parts = [HEADER]
    for module, ops in core_ops().items():
        title = (inspect.getdoc(importlib.import_module(module)) or module).splitlines()[0].rstrip(".")
        parts.append(f"\n## {module.rsplit('.', 1)[-1]}: {title}\n\n| op | summary |\n|----|---------|\n")
        for name, signature, summary in ops:
            cell = signature.replace("|", "\\|")
            parts.append(f"| `{cell}` | {summary.replace('|', '/') or '-'} |\n")
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/core-ops.md is out of date")
    options = parser.parse_args()
    text = render()
    if options.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE} is out of date: run python docs/core_ops.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
