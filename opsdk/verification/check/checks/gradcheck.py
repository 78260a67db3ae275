"""gradcheck: the op's backward on the backend matches central differences of its forward."""
from ..result import Outcome
from .reports import checker_options, loosened_note, outcome_of
from .wrapped import function_or_reason, names_of

NAME = "gradcheck"
SUMMARY = ("backward matches numeric derivatives of forward, within tolerances derived from "
           "the numerics (in-place writes reported as such)")
KINDS = ("own", "broadcast", "attribute", "regime")
# python's backward is the one numeric derivatives judge in every regime; a compiled backward
# is held to python's there by backward_agreement
REFERENCE_KINDS = ("regime", "attribute")


def applies(op, backend):
    return True


def run(ctx):
    """opsdk.gradcheck on the sample (fast mode: random projections; full: the whole Jacobian).

    Goes through ``check_gradients`` (gradcheck's report, never raised) so the report names
    the op's arguments instead of ``inputs[i]``.
    """
    wrapped = function_or_reason(ctx)
    if isinstance(wrapped, Outcome):
        return wrapped
    from ...gradcheck import check_gradients

    func, inputs = wrapped
    options = checker_options(ctx, check_gradients, **names_of(ctx))
    with ctx.scope():
        report = check_gradients(func, inputs, **options)
    return outcome_of(report, loosened_note(ctx, report))
