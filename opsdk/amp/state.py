"""The per-thread auto_cast state that linear/matmul (float16) and losses (float32) consult."""
import threading

import numpy as np

from .cast import quiet_cast

# ops that run in float16 under auto_cast (tensor-core friendly) ...
WHITE_LIST = frozenset({"matmul", "linear", "mm", "bmm", "conv2d", "einsum"})
# ... and ops kept in float32, where float16 loses accuracy or overflows
BLACK_LIST = frozenset({"softmax", "log_softmax", "cross_entropy", "mse_loss", "exp", "log",
                        "mean", "sum", "logsumexp", "layer_norm", "batch_norm"})


class _AmpState(threading.local):
    enabled = False
    dtype = np.dtype("float16")
    level = "O1"
    white = WHITE_LIST
    black = BLACK_LIST


state = _AmpState()


def casts_to_low(op):
    """True when auto_cast is on and op runs in the low-precision dtype."""
    return state.enabled and op in state.white and op not in state.black


def keep_float32(x, op):
    """x cast to float32 when auto_cast is on, op is black-listed and x is low precision."""
    if not state.enabled or op not in state.black or op in state.white:
        return x
    if x.array.dtype != state.dtype:
        return x
    return quiet_cast(x, "float32")
