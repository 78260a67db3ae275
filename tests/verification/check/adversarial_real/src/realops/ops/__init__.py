"""The ops of realops, one module each: its Function, its kernels and its registration.

``opsdk new-op NAME`` writes the module and adds its name to OPS. To add an op by hand, write a
module with a ``register_op(register)`` function and add its name here, one per line.
"""
import importlib

OPS = (
    "sparsemax",
    "entmax15",
    "fused_bias_act",
    "chamfer",
    "soft_dtw",
    "segment_max",
    "logsumexp",
)


def register_all(register):
    """Register each op listed in OPS (its module's ``register_op(register)``)."""
    for name in OPS:
        importlib.import_module(f"{__name__}.{name}").register_op(register)
