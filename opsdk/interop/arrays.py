"""Kernel outputs made safe to hand to any framework: fresh memory, C-contiguous, writable."""
import numpy as np

from ..device import array_module


def _own_memory(a, inputs, earlier):
    """Whether ``a`` is a NumPy array over memory NumPy allocated for it alone, ready to hand
    over: C-contiguous, writable, and not one of the inputs or earlier outputs (a view of one
    has a base, so only the arrays themselves need comparing)."""
    if type(a) is not np.ndarray or a.base is not None:
        return False
    flags = a.flags
    if not (flags.c_contiguous and flags.writeable):
        return False
    for b in inputs:
        if a is b:
            return False
    for b in earlier:
        if a is b:
            return False
    return True


def fresh(arrays, inputs):
    """The arrays, each copied where it shares memory with an input or an earlier one, made
    C-contiguous and writable (what torch.from_numpy and fake tensors expect)."""
    out = []
    for a in arrays:
        if _own_memory(a, inputs, out):  # the usual kernel output
            out.append(a)
            continue
        if not hasattr(a, "__cuda_array_interface__"):
            a = np.asarray(a)  # a NumPy scalar from a reduction is an array to frameworks
        xp = array_module(a)
        if any(b is not None and xp.may_share_memory(a, b) for b in (*inputs, *out)):
            a = a.copy()
        elif xp is np and not (a.flags.c_contiguous and a.flags.writeable):
            a = np.ascontiguousarray(a) if a.flags.writeable else a.copy()
        elif xp is not np and not a.flags.c_contiguous:
            a = xp.ascontiguousarray(a)
        out.append(a)
    return out
