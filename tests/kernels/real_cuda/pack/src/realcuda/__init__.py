"""opsdk-realcuda: eleven CUDA kernels ported from public projects, each the cuda backend of an op.

Apex's Welford LayerNorm, Megatron's masked softmax, FasterTransformer's RMSNorm and fused bias +
GELU, mmcv's RoIAlign, pytorch_scatter's CSR segment sum and scatter-max, cuda-samples' histograms,
shuffle scan and tiled matrix product, llm.c's encoder and fused classifier. The python kernel
of every op is its NumPy reference. Written to test opsdk's CPU CUDA simulator from outside:
tests/kernels/real_cuda plants bugs in these kernels (see expected.py there).
"""
from opsdk import hookimpl

__version__ = "0.1.0"

MODULES = ("layer_norm", "masked_softmax", "rms_norm", "bias_gelu", "roi_align", "segment", "histogram",
           "scan", "gemm", "embedding", "cross_entropy")


@hookimpl
def register_ops(register):
    """Register every op of the pack."""
    import importlib

    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}").register(register)
