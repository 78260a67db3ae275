"""Running cases: each check on every sample, aggregated; a fast-mode failure is re-run in full mode."""
import time
import traceback

from .. import errors
from .backends import availability, dtype_availability
from .checks import CHECKS
from .context import CheckContext
from .drawing import draw_samples
from .result import BLOCKED, ERROR, FAIL, NA, PASS, SKIP, CheckResult, Outcome
from .selection import failure_result

# how many failing samples a report shows in full
_SHOWN = 3
_availability = {}
_build_failures = {}  # (op, backend) -> the case that reported its kernel's build error


def clear_caches():
    """Forget memoised backend availability and samples (tests re-register packs by name)."""
    from .drawing import clear_cache

    _availability.clear()
    _build_failures.clear()
    clear_cache()


def _backend_verdict(op, backend):
    """``(status, why)``: None when the op runs on ``backend`` here, else SKIP or ERROR with the reason."""
    key = (id(op), op.qualname, backend)
    if key not in _availability:
        try:
            ok, why = availability(op, backend)
            _availability[key] = None if ok else (SKIP, why)
        except Exception as error:  # a C kernel that does not compile fails every check of the backend
            _availability[key] = (ERROR, f"{type(error).__name__}: {error}")
    return _availability[key]


def _error_text(error):
    lines = "".join(traceback.format_exception(type(error), error, error.__traceback__)).splitlines()
    return "\n".join(lines[-40:])


# the engine's refusal of what a backward returned: the protocol check's finding, which
# blocks every other check that runs backward
_PROTOCOL_ERROR = getattr(errors, "BackwardReturnError", ())


def _run_sample(module, ctx):
    try:
        return module.run(ctx)
    except _PROTOCOL_ERROR as error:
        if module.NAME != "protocol":
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            return Outcome(BLOCKED, None, f"blocked: the op's backward breaks the protocol, so "
                                          f"this check cannot run (see the protocol check): {first}")
        return Outcome(FAIL, None, str(error))
    except Exception as error:
        return Outcome(ERROR, None, f"{type(error).__name__}: {error}\n{_error_text(error)}")


def _aggregate(case, pairs, mode):
    """One CheckResult from the (sample, outcome) pairs of a case."""
    result = CheckResult(case.op.qualname, case.backend, case.dtype, case.check, PASS,
                         samples=len(pairs), mode=mode)
    counted = [(s, o) for s, o in pairs if o.status != NA]
    if not counted:
        result.status = NA
        result.detail = pairs[0][1].detail if pairs else "the op has no samples"
        return result
    worsts = [o.worst for _, o in counted if o.worst is not None]
    result.worst = max(worsts) if worsts else None
    bad = [(s, o) for s, o in counted if o.status in (FAIL, ERROR, BLOCKED)]
    if not bad:
        result.detail = next((o.detail for _, o in counted if o.detail), "")
        return result
    result.status = next(s for s in (FAIL, ERROR, BLOCKED) if any(o.status == s for _, o in bad))
    if result.status == BLOCKED:
        # one cause, reported in full by the protocol check: one line is enough here
        result.detail = bad[0][1].detail
        return result
    parts = [f"{result.status} on {len(bad)} of {len(counted)} sample(s)"]
    for i, (sample, outcome) in enumerate(bad[:_SHOWN]):
        # the first failing sample gets the whole report; the others, usually the same story, a line
        detail = outcome.detail if i == 0 else outcome.detail.strip().splitlines()[0]
        parts.append(f"-- {sample.label} ({sample.describe()}):\n{detail}")
    result.detail = "\n".join(parts)
    return result


def _run_mode(case, mode, seed):
    module = CHECKS[case.check]
    try:
        samples = draw_samples(case.op, case.dtype, seed, mode)
    except Exception as error:
        return CheckResult(case.op.qualname, case.backend, case.dtype, case.check, ERROR,
                           detail=f"drawing samples failed: {type(error).__name__}: {error}",
                           mode=mode)
    pairs = [(sample, _run_sample(module, CheckContext(case.op, case.backend, case.dtype, sample,
                                                       mode, seed)))
             for sample in samples]
    return _aggregate(case, pairs, mode)


def run_case(case, mode="fast", seed=0):
    """Verify one op x backend x dtype x check on every sample.

    In fast mode a failure is re-run in full mode (every derived sample, full Jacobians), and
    the full-mode verdict and report are the result.

    Args:
        case: a Case from ``plan_cases``.
        mode: ``"fast"`` or ``"full"``.
        seed: the run's seed (samples and checker projections depend only on it).

    Returns:
        CheckResult.

    Example::

        result = run_case(plan_cases([op], checks=["gradcheck"])[0])
        result.status, result.worst       # ('pass', None)
    """
    start = time.perf_counter()
    verdict = _backend_verdict(case.op, case.backend)
    if verdict is None:
        ok, why = dtype_availability(case.op, case.backend, case.dtype)
        verdict = None if ok else (SKIP, why)
    if verdict is not None:
        status, why = verdict
        if status == ERROR:  # a kernel that does not build: reported once, the backend's other checks skip
            first = _build_failures.setdefault((id(case.op), case.op.qualname, case.backend), case.case_id)
            if first != case.case_id:
                status, why = SKIP, f"build failed, see {first}"
        return CheckResult(case.op.qualname, case.backend, case.dtype, case.check, status,
                           detail=why, mode=mode, seconds=time.perf_counter() - start)
    result = _run_mode(case, mode, seed)
    if mode == "fast" and result.status in (FAIL, ERROR):
        fast = result
        result = _run_mode(case, "full", seed)
        if result.failed:
            result.detail += "\n(failed in fast mode; this report is from the full-mode re-run)"
        else:
            result.detail = ("fast mode reported a failure the full-mode re-run does not confirm:\n"
                             + fast.detail)
    if result.failed:
        result.detail += (f"\nreplay: opsdk check {case.op.qualname} --backend {case.backend} "
                          f"--dtype {case.dtype} --check {case.check} --seed {seed} --full")
    result.seconds = time.perf_counter() - start
    return result


def run_checks(cases, failures=(), mode="fast", seed=0, progress=None):
    """Run every case; load failures of selected packs come first, as failed ``load`` rows.

    Args:
        cases: from ``plan_cases``.
        failures: PluginFailure records (from ``select_ops``).
        mode, seed: as for ``run_case``.
        progress: called with each finished CheckResult (progress bars).

    Returns:
        list of CheckResult.
    """
    results = [failure_result(f) for f in failures]
    for case in cases:
        result = run_case(case, mode, seed)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
