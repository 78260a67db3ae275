"""Fixtures for plugin tests: fake installed distributions and a registry reset after each test."""
import importlib
import itertools
import sys
import textwrap

import pytest

import opsdk.plugins

GOOD_PACK = '''
import opsdk
from opsdk import TensorSpec, hookimpl


class Double(opsdk.PyLayer):
    """Twice the input."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


@hookimpl
def register_ops(register):
    register(Double, name="double", inputs=[TensorSpec(shape=(2,))])
'''

_counter = itertools.count()


@pytest.fixture(autouse=True)
def _fresh_registry():
    """Set up before (so torn down after) monkeypatch: the reload sees the restored env and sys.path."""
    yield
    opsdk.plugins.reload()


@pytest.fixture
def site(tmp_path):
    """Factory installing a fake distribution on sys.path: ``site(dist, {pack: module_source})``.

    Returns the module name each pack's entry point names; everything is removed afterwards.
    """
    root = tmp_path / "site"
    root.mkdir()
    sys.path.insert(0, str(root))
    modules = []

    def install(dist, packs, version="1.0"):
        info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        lines = ["[opsdk]"]
        names = {}
        for pack, source in packs.items():
            module = f"opsdk_test_pack_{next(_counter)}"
            (root / f"{module}.py").write_text(textwrap.dedent(source))
            lines.append(f"{pack} = {module}")
            modules.append(module)
            names[pack] = module
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        importlib.invalidate_caches()
        return names

    yield install
    sys.path.remove(str(root))
    for module in modules:
        sys.modules.pop(module, None)
    importlib.invalidate_caches()


@pytest.fixture
def only(monkeypatch):
    """Load only the named installed packs (isolates tests from packs installed on the machine)."""
    def restrict(*names):
        monkeypatch.setenv("OPSDK_LOAD_PLUGINS", ",".join(names))
        return opsdk.plugins.reload()

    return restrict
