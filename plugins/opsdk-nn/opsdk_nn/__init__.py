"""opsdk-nn: fused neural-network ops for opsdk, with python, C and CUDA kernels.

The pack registers itself as ``nn`` through the ``opsdk`` entry point (``opsdk.ops.nn.gelu``);
``opsdk_nn.functional`` offers the same ops with Paddle's ``nn.functional`` signatures.
Importing this package compiles nothing: each C source is built on its first call.
"""
__version__ = "0.1.0"
