"""Multi ops (elementwise, several inputs and outputs) from their maths: ``Multi``.

See ``op`` for how an op is put together and ``statements`` for the C statements of one element
and the C and CUDA the SDK writes from them.
"""
from opsdk.kernels.multi.op import Multi

__all__ = ["Multi"]
