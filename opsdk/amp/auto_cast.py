"""auto_cast: a context (and decorator) under which matmul/linear run in float16."""
import functools

import numpy as np

from ..errors import OpArgumentError
from .state import BLACK_LIST, WHITE_LIST, state


class auto_cast:
    """Mixed precision for the ops inside: float16 for matmul/linear, float32 for losses.

    Level O1 (the only one on NumPy): white-listed ops (matmul, linear) cast their inputs to
    float16 and return float16; black-listed ops (softmax, log_softmax, cross_entropy,
    mse_loss) cast float16 inputs back to float32; other ops follow their inputs. The state
    is per thread. Parameters stay float32; their gradients come back float32.

    Args:
        enable: False turns the context into a no-op.
        custom_white_list: more op names to run in float16.
        custom_black_list: more op names to keep in float32 (wins over the white list).
        level: 'O1' ('O0' disables).
        dtype: 'float16' ('bfloat16' has no NumPy dtype).

    Example:
        >>> with opsdk.amp.auto_cast():
        ...     y = model(x)              # Linear layers run in float16
        ...     loss = F.cross_entropy(y, label)   # in float32
    """

    def __init__(self, enable=True, custom_white_list=None, custom_black_list=None, level="O1",
                 dtype="float16", use_promote=True):
        if level not in ("O0", "O1", "O2"):
            raise OpArgumentError(f"auto_cast: level must be 'O0', 'O1' or 'O2'; got: {level!r}")
        if str(dtype) != "float16":
            raise OpArgumentError(f"auto_cast: dtype must be 'float16' on NumPy (it has no "
                                  f"bfloat16); got: {dtype!r}")
        self.enable = bool(enable) and level != "O0"
        self._custom = (set(custom_white_list or ()), set(custom_black_list or ()))
        cw, cb = self._custom
        self.white = (WHITE_LIST | cw) - cb
        self.black = (BLACK_LIST - cw) | cb
        self.level = level
        self.dtype = np.dtype(dtype)

    def __enter__(self):
        self._prev = (state.enabled, state.white, state.black, state.level, state.dtype)
        state.enabled = self.enable
        state.white, state.black = frozenset(self.white), frozenset(self.black)
        state.level, state.dtype = self.level, self.dtype
        return self

    def __exit__(self, *exc):
        state.enabled, state.white, state.black, state.level, state.dtype = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with auto_cast(self.enable, self._custom[0], self._custom[1], self.level,
                           self.dtype.name):
                return fn(*args, **kwargs)
        return wrapper


amp_guard = auto_cast


def is_auto_cast_enabled():
    """True inside an enabled auto_cast context (in this thread)."""
    return state.enabled
