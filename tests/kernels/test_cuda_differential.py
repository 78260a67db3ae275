"""Every CUDA kernel of the SDK and both first-party packs against its python kernel.

Sizes 1 to one element past a full launch_1d grid (``differential.case_sizes``), float32 and float64, contiguous and strided, forward, backward and double
backward kernels. Runs under the CUDA simulator (``pytest --opsdk-cuda-sim`` or
``OPSDK_CUDA_SIM=1``, as CI does) or on a GPU; skipped, with the reason, elsewhere.
"""
import opsdk.testing

test_first_party_cuda_kernels = opsdk.testing.cuda_kernels(pack=["opsdk", "example", "nn"])
