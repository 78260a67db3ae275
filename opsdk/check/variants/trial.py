"""Running the op's python forward on a candidate sample: does it accept it, and what comes out."""
import numpy as np

from ... import no_grad
from ..backends import REFERENCE, availability, backend_scope
from ..context import outputs_of


def trial(op, sample):
    """The op's outputs on ``sample`` (NumPy arrays, python backend, no graph), or None if it raises.

    A derived sample the op refuses is dropped: raising in forward is how an op says it does
    not support a shape or an attribute value.
    """
    try:
        ok, _ = availability(op, REFERENCE)
        args, kwargs = sample.make(requires=())
        with backend_scope(op, REFERENCE if ok else None), no_grad(), np.errstate(all="ignore"):
            outputs = outputs_of(op(*args, **kwargs))
        return [np.asarray(o.numpy()) for o in outputs]
    except Exception:  # whatever the op raises, it refuses the sample
        return None


def output_shapes(outputs):
    """The shapes of trial outputs (None stays None)."""
    return None if outputs is None else [tuple(o.shape) for o in outputs]
