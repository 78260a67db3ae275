"""Testing op packs: ``op_checks`` turns every ``opsdk check`` case of a pack into a pytest test.

In a pack's test suite, one line::

    test_mypack = opsdk.testing.op_checks(pack="mypack")

collects one test per op x backend x dtype x check, with ids ``mypack.op[backend-dtype-check]``
(the pytest plugin, entry point ``pytest11``, does the collecting).
"""
from .declaration import OpChecks, op_checks


def cuda_kernels(*ops, pack=None, **kwargs):
    """Every CUDA kernel of the ops against its python kernel, as tests (see ``opsdk.testing.cuda_differential``)."""
    from .cuda_differential import cuda_kernels as declare

    return declare(*ops, pack=pack, **kwargs)


__all__ = ["OpChecks", "cuda_kernels", "op_checks"]
