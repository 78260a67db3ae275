"""Importing opsdk.kernels is cheap: it compiles nothing and imports no compiler machinery."""

import json
import os
import subprocess
import sys

from .sample import child_env, make_scale


def test_import_loads_neither_cffi_nor_cupy_nor_filelock(cache):
    code = (
        "import json, sys, opsdk.kernels\n"
        "heavy = ('cffi', 'cupy', 'filelock', 'pycparser')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))"
    )
    # OPSDK_CUDA_SIM="": this is the import without the simulator, whatever the suite runs under
    out = subprocess.run([sys.executable, "-c", code], env=child_env(OPSDK_CUDA_SIM=""), capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == []


def test_import_with_the_simulator_asked_for_compiles_nothing(cache):
    code = (
        "import json, os, sys, opsdk\n"
        "cupy = sys.modules['cupy']\n"
        "print(json.dumps([cupy.__opsdk_simulator__, os.path.exists(os.path.join(os.environ['OPSDK_CACHE_DIR'], 'cudasim')),"
        " sorted(m for m in sys.modules if m.split('.')[0] in ('cffi', 'filelock', 'pycparser'))]))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=child_env(OPSDK_CUDA_SIM="1"), capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout) == [True, False, []]


def test_declaring_a_kernel_compiles_nothing(cache):
    make_scale("tests.lazy")
    assert not os.path.exists(os.path.join(cache, "c"))
