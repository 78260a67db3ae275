"""Running opsdk's gradient checkers for a check, and turning their reports into Outcomes."""
import inspect
import warnings

import numpy as np

from ... import errors
from ..result import Outcome


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


def checker_options(ctx, checker, **extra):
    """Keyword options for ``checker``: the op's tolerances, the run's mode, a per-sample seed.

    Dtype problems of gradients are the protocol check's job, so the checker looks at values only.
    """
    options = dict(atol=ctx.atol, rtol=ctx.rtol, fast_mode=ctx.mode == "fast",
                   check_grad_dtypes=False, seed=checker_seed(ctx.sample), **extra)
    return _accepted(checker, options)


def worst_error(report):
    """The largest absolute error among the worst elements a GradcheckReport lists, or None."""
    errs = [m.abs_err for failure in getattr(report, "failures", None) or ()
            for m in getattr(failure, "worst", None) or () if hasattr(m, "abs_err")]
    finite = [float(e) for e in errs if np.isfinite(e)]
    return max(finite) if finite else None


def outcome_of(report):
    """An Outcome from a GradcheckReport: its text on failure, its notes on success."""
    if not report.ok:
        return Outcome.failed(str(report), worst_error(report))
    notes = list(getattr(report, "notes", None) or ())
    if getattr(report, "kinks_skipped", 0):
        notes.append(f"{report.kinks_skipped} Jacobian element(s) on a non-differentiable point "
                     "were not checked")
    return Outcome.passed(detail="; ".join(notes))


def run_checker(ctx, checker, func, inputs):
    """Call the public ``checker(func, inputs, ...)`` (gradgradcheck) on the backend under test.

    A GradcheckError becomes a failed Outcome carrying its report; anything else the op
    raises propagates (the runner reports it as an error).
    """
    options = dict(checker_options(ctx, checker), **_accepted(checker, {"raise_exception": True}))
    with ctx.scope(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ok = checker(func, inputs, **options)
        except errors.GradcheckError as error:
            report = getattr(error, "report", None)
            return Outcome.failed(str(error), worst_error(report))
    if ok is False:
        return Outcome.failed(f"{checker.__name__} returned False for {ctx.name}")
    return Outcome.passed(detail="; ".join(str(w.message) for w in caught))
