"""A tiny op pack on disk, built the way `opsdk new-pack` sets packs up: one C kernel, made when
the pack's register_ops hook imports it (as real packs do, so importing the pack builds nothing)."""
from helpers.prebuilt_pack import KERNEL_C

PYPROJECT = """\
[build-system]
requires = ["setuptools>=77", "opsdk"]
build-backend = "setuptools.build_meta"

[project]
name = "tinypack"
version = "0.1.0"
requires-python = ">=3.10"

[project.entry-points.opsdk]
tiny = "tinypack"

[tool.setuptools.packages.find]
include = ["tinypack*"]

[tool.setuptools.package-data]
tinypack = ["csrc/*.c"]

[tool.setuptools.cmdclass]
build_py = "opsdk.prebuild.hooks.BuildPy"
bdist_wheel = "opsdk.prebuild.hooks.BdistWheel"
"""

INIT = '''\
"""tinypack: one C kernel."""
from opsdk import hookimpl


@hookimpl
def register_ops(register):
    from . import kern  # noqa: F401 - makes the kernel
'''

KERN = '''\
from opsdk.kernels import CSource, Kernel

SOURCE = CSource("csrc/twice.c")
twice = Kernel("tiny.twice")
twice.python(lambda x: 2 * x)
twice.c(SOURCE, "twice")
'''


def write_tiny_pack(root):
    """Write the pack's project into root (a pathlib.Path); returns root."""
    (root / "tinypack" / "csrc").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "tinypack" / "__init__.py").write_text(INIT)
    (root / "tinypack" / "kern.py").write_text(KERN)
    (root / "tinypack" / "csrc" / "twice.c").write_text(KERNEL_C)
    return root
