"""Paddle's namespaces live in opsdk/compat and answer under their public names, to every
kind of import, as one module object each."""
import importlib
import subprocess
import sys

import pytest

import opsdk
from opsdk.compat import ALIASES, real_name


@pytest.mark.parametrize("public", sorted(ALIASES))
def test_a_public_name_imports_the_compat_module_itself(public):
    assert importlib.import_module(public) is importlib.import_module(ALIASES[public])


def test_a_submodule_imports_under_its_public_name_without_a_second_copy():
    from opsdk.distributed.fleet.utils import recompute
    assert recompute is opsdk.recompute
    assert sys.modules["opsdk.distributed.fleet.utils"] is \
        sys.modules["opsdk.compat.distributed.fleet.utils"]


def test_the_attribute_and_the_import_are_the_same_module():
    import opsdk.framework
    assert opsdk.framework is sys.modules["opsdk.compat.framework"]


def test_only_the_listed_names_are_aliased():
    assert real_name("opsdk.frameworks") is None and real_name("opsdk.nn") is None
    assert real_name("opsdk.jit") == "opsdk.compat.jit"


def test_import_opsdk_dot_framework_works_in_a_fresh_interpreter():
    code = "import opsdk.framework as f, opsdk.static as s; print(f.__name__, s.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["opsdk.compat.framework", "opsdk.compat.static"]
