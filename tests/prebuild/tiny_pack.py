"""A tiny op pack on disk, built the way `opsdk new-pack` sets packs up: one C kernel (and, asked
for, its CUDA implementation), made when the pack's register_ops hook imports it (as real packs
do, so importing the pack builds nothing)."""
from helpers.prebuilt_pack import KERNEL_C

KERNEL_CU = """extern "C" __global__ void twice_f32(const float *x, float *y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = 2 * x[i];
}
"""

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
tinypack = ["csrc/*.c", "cuda/*.cu"]

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


CUDA_KERN = """
from opsdk.kernels import CudaSource

CUDA_SOURCE = CudaSource("cuda/twice.cu")


@twice.cuda(CUDA_SOURCE)
def _twice_cuda(module, x):
    return module.get_function("twice_f32")
"""


def write_tiny_pack(root, cuda=False):
    """Write the pack's project into root (a pathlib.Path), its kernel with a CUDA implementation
    if ``cuda``; returns root."""
    (root / "tinypack" / "csrc").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "tinypack" / "__init__.py").write_text(INIT)
    (root / "tinypack" / "kern.py").write_text(KERN + (CUDA_KERN if cuda else ""))
    (root / "tinypack" / "csrc" / "twice.c").write_text(KERNEL_C)
    if cuda:
        (root / "tinypack" / "cuda").mkdir()
        (root / "tinypack" / "cuda" / "twice.cu").write_text(KERNEL_CU)
    return root
