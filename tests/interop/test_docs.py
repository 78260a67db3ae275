"""docs/interop.md's Python examples run (each needs its framework)."""
import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "interop.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[b.split("\n")[0] for b in BLOCKS])
def test_docs_example_runs(code):
    framework = re.search(r"^import (torch|jax|paddle)$", code, flags=re.M).group(1)
    pytest.importorskip(framework, reason=f"{framework} is not installed")
    exec(compile(code, "docs/interop.md", "exec"), {})
