"""docs/core-ops.md lists opsdk's core ops as the code defines them (the page is generated)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("core_ops_page", ROOT / "docs" / "core_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_core_ops_page_is_up_to_date():
    page = (ROOT / "docs" / "core-ops.md").read_text(encoding="utf-8")
    assert page == _generator().render(), "docs/core-ops.md is out of date: run python docs/core_ops.py"


def test_the_page_lists_every_public_functional_op():
    import opsdk

    listed = {name for ops in _generator().core_ops().values() for name, _, _ in ops}
    assert {"add", "exp", "matmul", "sum", "reshape", "where", "gather"} <= listed
    assert all(hasattr(opsdk, name) for name in listed)
