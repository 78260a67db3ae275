"""The core (tensor, autograd engine, functional) never imports the layers above it."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2] / "opsdk"
CORE = ([ROOT / "tensor.py", ROOT / "tensor_methods.py", ROOT / "dtypes.py"]
        + sorted((ROOT / "autograd").glob("*.py")) + sorted((ROOT / "functional").glob("*.py")))
ABOVE = ("nn", "amp", "optimizer", "check", "interop")


def _imported_modules(source, package):
    """Every module a file imports, at the top or inside functions, as a dotted path."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            yield name
            for alias in node.names:
                yield f"{name}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_module_imports_nothing_from_the_layers_above(path):
    package = path.relative_to(ROOT.parent).with_suffix("").parts[:-1]
    bad = sorted({m for m in _imported_modules(path.read_text(), package)
                  if any(m == f"opsdk.{a}" or m.startswith(f"opsdk.{a}.") for a in ABOVE)})
    assert bad == []


def test_the_scan_sees_lazy_relative_imports_inside_functions():
    src = "def f():\n    from ..amp.matmul import autocast_matmul\n"
    assert "opsdk.amp.matmul" in set(_imported_modules(src, ("opsdk", "functional")))
