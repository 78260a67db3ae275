"""A package folder whose C kernel is compiled into it as a pack's wheel build does it
(``opsdk.prebuild.compile.compile_into``), and imported from wherever it is copied."""
import importlib.util
import os
import sys

import pytest

KERNEL_C = """#include <stdint.h>
void twice_f64(const double *x, double *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2 * x[i]; }
void twice_f32(const float *x, float *y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2 * x[i]; }
"""

# {tag} makes each copy's kernel and pack names its own
MODULE = '''\
import opsdk
from opsdk.kernels import CSource, Kernel, array_of, tensor_of

SOURCE = CSource("csrc/twice.c")
twice = Kernel("{tag}.twice")
twice.python(lambda x: 2 * x)
twice.c(SOURCE, "twice")


class Twice(opsdk.Function):
    """Twice the input."""

    @staticmethod
    def forward(ctx, x):
        return tensor_of(twice(array_of(x)))

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


@opsdk.hookimpl
def register_ops(register):
    register(Twice, name="twice", inputs=[opsdk.TensorSpec(shape=(3,))], kernels=(twice,))
'''


def write_package(folder, tag):
    """Write the package's module (``kern.py``) and C source into folder (a pathlib.Path)."""
    (folder / "csrc").mkdir(parents=True, exist_ok=True)
    (folder / "csrc" / "twice.c").write_text(KERNEL_C)
    (folder / "kern.py").write_text(MODULE.format(tag=tag))


def import_package(folder, tag):
    """The package's module, imported from folder under a name of its own."""
    name = f"_prebuilt_pack_{tag}"
    spec = importlib.util.spec_from_file_location(name, folder / "kern.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def build_package(folder):
    """Write the package into folder and compile its C source into its _opsdk_prebuilt folder."""
    from opsdk.kernels import prebuilt
    from opsdk.kernels.compiler import find_compiler
    from opsdk.prebuild.compile import compile_into

    write_package(folder, "build")
    module = import_package(folder, "build")
    compile_into(module.SOURCE, os.path.join(folder, prebuilt.FOLDER), find_compiler())
    return folder


def installed_copy(built, folder, tag):
    """A copy of a built package at folder, its module made with tag; returns the module."""
    import shutil

    shutil.copytree(built, folder)
    (folder / "kern.py").write_text(MODULE.format(tag=tag))
    return import_package(folder, tag)


@pytest.fixture(scope="module")
def built_package(tmp_path_factory):
    """A package folder whose C source is compiled into its _opsdk_prebuilt folder (once per module)."""
    from opsdk.kernels.compiler import find_compiler

    if find_compiler() is None:
        pytest.skip("needs a C compiler to make the prebuilt build")
    return build_package(tmp_path_factory.mktemp("built") / "pkg")
