"""Every CUDA kernel of realops against its python kernel: sizes 1 to 70000, float32 and
float64, contiguous and strided, forward, backward and double backward kernels.

They run on a GPU where CuPy finds one, else on opsdk's CPU CUDA simulator (pyproject.toml's
``--opsdk-cuda-sim=auto``), so a CI machine without a GPU still verifies the CUDA kernels: out
of bounds accesses, races, divergent barriers and mistyped launch arguments are reported with
their cause. A pack without CUDA kernels collects no test here.
"""
import opsdk.testing

test_realops_cuda_kernels = opsdk.testing.cuda_kernels(pack="realops")
