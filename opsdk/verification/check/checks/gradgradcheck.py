"""gradgradcheck: for an op that claims double backward, second derivatives match numeric ones."""
from ..result import Outcome
from .reports import second_order
from .wrapped import function_or_reason

NAME = "gradgradcheck"
SUMMARY = "second derivatives match numeric ones (ops registered with double_backward=True)"
KINDS = ("own", "broadcast", "attribute")
# the op's own samples, and the broadcasts and attributes derived from its first: a second
# derivative that hard-codes an attribute or a broadcast shows there
LEAD_ORIGIN = True


def applies(op, backend):
    return op.double_backward


def run(ctx):
    """opsdk.autograd.gradgradcheck on the sample (its report names the op's arguments)."""
    wrapped = function_or_reason(ctx)
    if isinstance(wrapped, Outcome):
        return wrapped
    func, inputs = wrapped
    return second_order(ctx, func, inputs)
