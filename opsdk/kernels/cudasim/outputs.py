"""What a simulated cuda kernel returns, checked: no element may be memory no kernel wrote.

``cupy.empty`` memory starts as a NaN pattern (memory.UNINITIALISED); an output still holding
it after the kernel returns was never written (a grid-stride loop that stops early, a bounds
check that drops the tail, a block-size assumption), and on a GPU would hold whatever was there.
"""
from functools import wraps

import numpy

from opsdk.errors import CudaSimulatorError

from . import faults
from .cupy_api.ndarray import ndarray
from .memory import UNINITIALISED

_FLOATS = faults.signatures(UNINITIALISED)
_INTS = {4: UNINITIALISED, 8: (UNINITIALISED << 32) | UNINITIALISED}


def unwritten(array):
    """(count, first flat index) of elements of a device array holding never-written memory."""
    a = array._a
    if a.dtype.kind == "f":
        return faults.poisoned(a, _FLOATS)
    if a.dtype.kind in "iu" and a.itemsize in _INTS and a.size:
        bits = a.reshape(-1).view(numpy.uint32 if a.itemsize == 4 else numpy.uint64)
        hits = bits == _INTS[a.itemsize]
        count = int(hits.sum())
        return count, int(numpy.argmax(hits)) if count else -1
    return 0, -1


def _outputs(result):
    if isinstance(result, ndarray):
        return [result]
    if isinstance(result, (tuple, list)):
        return [r for r in result if isinstance(r, ndarray)]
    return []


def refuse_unwritten(kernel_name, call):
    """``call`` (a cuda implementation) that raises when an output holds never-written elements."""

    @wraps(call)
    def checked(*args, **kwargs):
        result = call(*args, **kwargs)
        outputs = _outputs(result)
        for k, out in enumerate(outputs):
            count, first = unwritten(out)
            if count:
                which = "" if len(outputs) == 1 else f" {k}"
                raise CudaSimulatorError(
                    f"CUDA simulator: kernel {kernel_name!r} (backend 'cuda'): output{which} "
                    f"({out.dtype}[{'x'.join(map(str, out.shape))}]) has {count} of {out.size} elements "
                    f"that no kernel wrote (first at flat index {first}), or that were computed from "
                    f"memory no kernel wrote: on a GPU they hold whatever the memory held. A "
                    f"grid-stride loop or bounds check that stops early, a launch that covers too few "
                    f"elements for this size, or an output accumulated into without being zeroed?")
        return result

    return checked
