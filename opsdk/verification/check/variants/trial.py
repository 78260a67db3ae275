"""Running the op's python forward on a candidate sample: does it accept it, and what comes out."""
import numpy as np

from ....autograd import no_grad
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
    except MemoryError:
        # not a refusal: the checks run it and report what it asked for (memory.py)
        return OVER_BUDGET
    except Exception:  # whatever the op raises, it refuses the sample
        return None


class _OverBudget(list):
    """The trial outputs of a sample that ran out of the memory budget (accepted, no shapes)."""


OVER_BUDGET = _OverBudget()


def output_shapes(outputs):
    """The shapes of trial outputs (None stays None; a sample over the budget has none)."""
    if outputs is None or outputs is OVER_BUDGET:
        return None
    return [tuple(o.shape) for o in outputs]
