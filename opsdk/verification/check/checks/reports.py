"""Running opsdk's gradient checkers for a check, and turning their reports into Outcomes."""
import inspect

import numpy as np

from ..result import Outcome
from ..samples import REGIME
from .wrapped import names_of


def checker_seed(sample):
    """An int seed for the checker's own RNG (fast-mode projections), fixed per sample."""
    return int(np.random.SeedSequence(sample.seed).generate_state(1)[0])


def _accepted(checker, options):
    """The options ``checker`` takes (gradcheck grows options; older ones must not break a run)."""
    try:
        params = inspect.signature(checker).parameters
    except (TypeError, ValueError):
        return options
    if any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return options
    return {k: v for k, v in options.items() if k in params}


# a Jacobian with more elements is checked by projections only: a whole one costs a call per
# row or column (512 x 512: half a second for a cheap op) and several float64 copies of it
JACOBIAN_ELEMENTS = 1 << 18
# copies of the Jacobian a full-mode check holds at once (both sides, tolerances, noise)
JACOBIAN_COPIES = 8
# nor when computing it whole takes more calls of the op or of its backward than this
MAX_CALLS = 1024


def max_jacobian():
    """The most Jacobian elements a checker computes whole: JACOBIAN_ELEMENTS, fewer when the
    memory budget of a sample could not hold its copies."""
    from ..memory import budget

    return min(JACOBIAN_ELEMENTS, budget() // (8 * JACOBIAN_COPIES))


def projected(ctx):
    """Whether the checker compares random projections vᵀJu (re-run in full on a failure) rather
    than whole Jacobians: in fast mode, and on the broadcast and attribute samples and the op's
    other own samples (a broadcast or another attribute changes the Jacobian everywhere: an
    error there is no single element's, and six projections catch it). The op's first sample
    gets whole Jacobians, and so do the regime samples in float64: a regime may be one row's,
    and float64's tolerance, set by the numeric side's rounding, grows with a projection's
    length where float32's grows with its size as an element's does."""
    whole = ctx.sample.lead or (ctx.sample.kind == REGIME and ctx.dtype == "float64")
    return ctx.mode == "fast" or not whole


def checker_options(ctx, checker, **extra):
    """Keyword options for ``checker``: tolerances derived from the numerics (loosened only by
    what the op declared), the run's mode, a per-sample seed.

    Dtype problems of gradients are the protocol check's job, so the checker looks at values only.
    """
    atol, rtol = ctx.declared
    options = dict(atol=atol or 0.0, rtol=rtol or 0.0, derived=True,
                   fast_mode=projected(ctx), check_grad_dtypes=False,
                   seed=checker_seed(ctx.sample), max_jacobian=max_jacobian(),
                   max_calls=MAX_CALLS, **extra)
    return _accepted(checker, options)


def loosened_note(ctx, report):
    """The loosened text when the report passed only thanks to the op's declared tolerance."""
    if not getattr(report, "loosened", False):
        return ""
    from .agreement import loosened_text

    return loosened_text(ctx)


def worst_error(report):
    """The largest absolute error among the worst elements a GradcheckReport lists, or None."""
    errs = [m.abs_err for failure in getattr(report, "failures", None) or ()
            for m in getattr(failure, "worst", None) or () if hasattr(m, "abs_err")]
    finite = [float(e) for e in errs if np.isfinite(e)]
    return max(finite) if finite else None


def outcome_of(report, loosened=""):
    """An Outcome from a GradcheckReport: its text on failure, its notes on success."""
    ratio = getattr(report, "ratio", None)
    if not report.ok:
        return Outcome.failed(str(report), worst_error(report), ratio=ratio)
    notes = list(getattr(report, "notes", None) or ())
    if getattr(report, "kinks_skipped", 0):
        notes.append(f"{report.kinks_skipped} Jacobian element(s) on a non-differentiable point "
                     "were not checked")
    return Outcome.passed(detail="; ".join(notes), loosened=loosened, ratio=ratio)


def second_order(ctx, func, inputs):
    """gradgradcheck of ``func`` on the backend under test, as an Outcome (names from the op).

    Projections decide on every sample (a second derivative's Jacobian, over the inputs and the
    incoming gradients, costs a double backward per row): a wrong term of a second derivative
    is wrong all over, and a flagged projection is re-run with the whole Jacobian for the report.
    """
    from ...gradcheck import check_second_order

    options = checker_options(ctx, check_second_order, **names_of(ctx))
    options["fast_mode"] = True
    with ctx.scope():
        report = check_second_order(func, inputs, **options)
    return outcome_of(report, loosened_note(ctx, report))
