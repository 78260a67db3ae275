"""The package surface: lazily loaded names all resolve, and `import opsdk` stays light."""
import os
import subprocess
import sys

import pytest

import opsdk


@pytest.mark.parametrize("name", sorted(opsdk._LAZY) + sorted(opsdk._LAZY_ATTRS))
def test_every_lazy_name_resolves(name):
    assert getattr(opsdk, name) is not None


def test_unknown_attribute_is_an_attribute_error():
    assert not hasattr(opsdk, "no_such_thing")


def test_import_opsdk_loads_no_compiler_gpu_or_plugin_machinery():
    code = ("import sys, opsdk; heavy = ['cffi', 'pluggy', 'cupy', 'torch', 'jinja2', 'click', "
            "'opsdk.nn', 'opsdk.kernels', 'opsdk.packs.loading', 'importlib.metadata']; "
            "print([m for m in heavy if m in sys.modules])")
    # the import as users get it: not under the CUDA simulator, whatever this suite runs under
    env = {k: v for k, v in os.environ.items() if k != "OPSDK_CUDA_SIM"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"
