"""Running cases: each check on its samples, aggregated; a fast-mode failure is re-run in full mode.

Every case starts from the op's fresh state (module-level variables and class attributes as
before the run touched them) and runs in check mode (kernel outputs, and the buffers the op's
Functions allocate, NaN-filled first, so an element never written is reported with the
kernel's or the method's name and the indices).
"""
import time

from ... import errors
from ...autograd.call_site import ops_own_sites
from ...kernels import unwritten
from .per_op import once_per_op
from .backends import REFERENCE, availability, dtype_availability
from .checks import CHECKS
from .context import CheckContext
from .drawing import draw
from .errors_text import error_report, op_frame
from .memory import OVER_BUDGET_WORDS, limited, over_budget_text
from .result import BLOCKED, ERROR, FAIL, NA, PASS, SKIP, CheckResult, Outcome
from .samples import BROADCAST as BROADCAST_KIND
from .selection import failure_result
from .state import fresh_state
from .watch import watching

# how many failing samples a report shows in full
_SHOWN = 3
_availability = {}
_build_failures = {}  # (op, backend) -> the case that reported its kernel's build error


def clear_caches():
    """Forget memoised backend availability, samples and op states (tests re-register packs)."""
    from . import runs
    from .drawing import clear_cache
    from .state import clear_cache as clear_states
    from .watch import clear_cache as clear_watched

    _availability.clear()
    _build_failures.clear()
    clear_cache()
    clear_states()
    clear_watched()
    runs.clear()


def _backend_verdict(op, backend):
    """``(status, why)``: None when the op runs on ``backend`` here, else SKIP or ERROR with the reason."""
    def make():
        try:
            ok, why = availability(op, backend)
            return None if ok else (SKIP, why)
        except Exception as error:  # a C kernel that does not compile fails every check of the backend
            return ERROR, f"{type(error).__name__}: {error}"
    return once_per_op(_availability, op, backend, make=make)


# the engine's refusal of what a backward returned: the protocol check's finding, which
# blocks every other check that runs backward
_PROTOCOL_ERROR = getattr(errors, "BackwardReturnError", ())


def _run_sample(module, ctx):
    # an op can say a check cannot reach it on a sample (a foreign framework's tensors that
    # cannot take a layout): n/a with the reason, never a silent pass
    inapplicable = getattr(ctx.op, "inapplicable", None)
    why = inapplicable(module.NAME, ctx.sample) if inapplicable is not None else None
    if why:
        if why not in ctx.notes:
            ctx.notes.append(why)  # shown even where the check's other samples ran
        return Outcome(NA, None, why)
    unwritten.take_findings()
    try:
        outcome = module.run(ctx)
    except _PROTOCOL_ERROR as error:
        if module.NAME != "protocol":
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            outcome = Outcome(BLOCKED, None, f"blocked: the op's backward breaks the protocol, so "
                                             f"this check cannot run (see the protocol check): "
                                             f"{first}")
        else:
            outcome = Outcome(FAIL, None, str(error))
    except MemoryError as error:
        where = op_frame(error, ctx.op)
        outcome = Outcome(FAIL, None, over_budget_text(error, f", in the op's code at {where}"
                                                        if where else ""))
    except Exception as error:
        if ctx.sample.kind == BROADCAST_KIND and ctx.backend != REFERENCE:
            # raising is no silent wrong answer: a compiled kernel may support fewer broadcasts
            return Outcome(NA, None, f"{ctx.backend} refuses this broadcast, which python "
                                     f"accepts: {type(error).__name__}: {_first_line(str(error))}")
        outcome = Outcome(ERROR, None, error_report(error, ctx.op))
    found = unwritten.take_findings()
    if found:
        seen = []
        for finding in found:
            if str(finding) not in seen:
                seen.append(str(finding))
        outcome = Outcome(FAIL, outcome.worst, "\n".join(seen + (
            [f"(the check itself reported: {outcome.detail.splitlines()[0]})"]
            if outcome.status in (FAIL, ERROR) and outcome.detail else [])))
    return outcome


def _aggregate(case, pairs, mode):
    """One CheckResult from the (sample, outcome) pairs of a case."""
    result = CheckResult(case.op.qualname, case.backend, case.dtype, case.check, PASS,
                         samples=len(pairs), mode=mode)
    counted = [(s, o) for s, o in pairs if o.status != NA]
    loosened = [o.loosened for _, o in counted if o.loosened]
    result.loosened = loosened[0] if loosened else ""
    if not counted:
        result.status = NA
        result.detail = pairs[0][1].detail if pairs else "the op has no samples"
        return result
    worsts = [o.worst for _, o in counted if o.worst is not None]
    result.worst = max(worsts) if worsts else None
    ratios = [o.ratio for _, o in counted if o.ratio is not None]
    result.ratio = max(ratios) if ratios else None
    bad = [(s, o) for s, o in counted if o.status in (FAIL, ERROR, BLOCKED)]
    if not bad:
        result.detail = next((o.detail for _, o in counted if o.detail), "")
        return result
    result.status = next(s for s in (FAIL, ERROR, BLOCKED) if any(o.status == s for _, o in bad))
    first = next(o for _, o in bad if o.status == result.status)
    result.message = _first_line(first.detail)
    if result.status == BLOCKED:
        # one cause, reported in full by the protocol check: one line is enough here
        result.detail = first.detail
        return result
    parts = [f"{result.status} on {len(bad)} of {len(counted)} sample(s)"]
    for i, (sample, outcome) in enumerate(bad[:_SHOWN]):
        # the first failing sample gets the whole report; the others, usually the same story, a line
        detail = outcome.detail if i == 0 else _first_line(outcome.detail)
        parts.append(f"-- {sample.label} ({sample.describe()}):\n{detail}")
    # a sample beyond the memory budget is always named, whatever came before it
    parts += [f"-- {sample.label} ({sample.describe()}):\n{_first_line(outcome.detail)}"
              for sample, outcome in bad[_SHOWN:] if OVER_BUDGET_WORDS in outcome.detail]
    result.detail = "\n".join(parts)
    return result


def _first_line(text):
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def samples_for(module, drawn, backend):
    """The samples ``module`` runs on for ``backend`` (its kinds; python-only ones, and the
    kinds in its ``REFERENCE_KINDS``, on python only; those in ``COMPILED_KINDS`` on compiled
    backends only; a sample naming its ``backends``, on those and python; the op's first sample only, for a check
    with ``LEAD_ONLY``; the op's own samples and those derived from its first, for a check with
    ``LEAD_ORIGIN``)."""
    kinds = getattr(module, "KINDS", ("own",))
    if backend != REFERENCE:
        kinds = [k for k in kinds if k not in getattr(module, "REFERENCE_KINDS", ())]
    else:
        kinds = [k for k in kinds if k not in getattr(module, "COMPILED_KINDS", ())]
    chosen = [s for s in drawn.samples if s.kind in kinds and (
        backend == REFERENCE or (s.compiled and (s.backends is None or backend in s.backends)))]
    lead = next((s for s in drawn.samples if s.lead), None)
    if getattr(module, "LEAD_ONLY", False):
        chosen = [s for s in chosen if s.lead] or chosen[:1]
    elif getattr(module, "LEAD_ORIGIN", False) and lead is not None:
        # the op's other own samples (other attributes) and what derives from them too
        chosen = [s for s in chosen if s.origin == lead.origin or s.kind == "own"]
    return chosen


def _run_mode(case, mode, seed, on_sample=None):
    module = CHECKS[case.check]
    # captured before anything of the run calls the op (drawing samples does)
    state = fresh_state(case.op)
    try:
        drawn = draw(case.op, case.dtype, seed, mode)
    except MemoryError as error:
        return CheckResult(case.op.qualname, case.backend, case.dtype, case.check, FAIL,
                           detail=f"drawing samples: {over_budget_text(error)}",
                           message="a sample exceeds the memory budget", mode=mode)
    except Exception as error:
        return CheckResult(case.op.qualname, case.backend, case.dtype, case.check, ERROR,
                           detail=f"drawing samples failed: {type(error).__name__}: {error}",
                           message="drawing samples failed", mode=mode)
    kinds = getattr(module, "KINDS", ("own",))
    notes = [text for kind, text in drawn.notes if kind in kinds]
    pairs = []
    chosen = samples_for(module, drawn, case.backend)
    for index, sample in enumerate(chosen):
        if on_sample is not None:
            on_sample(case, index, len(chosen))
        state.restore()
        ctx = CheckContext(case.op, case.backend, case.dtype, sample, mode, seed)
        ctx.state = state
        outcome = _run_sample(module, ctx)
        pairs.append((sample, outcome))
        notes += [n for n in ctx.notes if n not in notes]
        if outcome.status == NA and sample.kind == BROADCAST_KIND and "refuses" in outcome.detail:
            note = f"{sample.label}: {outcome.detail}"
            if note not in notes:
                notes.append(note)
    state.restore()
    result = _aggregate(case, pairs, mode)
    result.notes = notes
    return result


def replay_command(case, seed, mode="full"):
    """The command line that reruns one case."""
    flag = " --fast" if mode == "fast" else ""
    # a foreign op is found by the module:attr it was loaded from (opsdk check --op)
    origin = getattr(case.op, "origin", None)
    source = f"--op {origin} " if origin else ""
    return (f"opsdk check {source}{case.op.qualname} --backend {case.backend} --dtype {case.dtype} "
            f"--check {case.check} --seed {seed}{flag}")


def run_case(case, mode="full", seed=0, on_sample=None):
    """Verify one op x backend x dtype x check on every sample the check runs on.

    In fast mode a failure is re-run in full mode (every derived sample, full Jacobians), and
    the full-mode verdict and report are the result.

    Args:
        case: a Case from ``plan_cases``.
        mode: ``"full"`` (everything, the default) or ``"fast"`` (a cheap subset).
        seed: the run's seed (samples and checker projections depend only on it).
        on_sample: called with (case, index, count) before each sample (progress that moves
            during a long case).

    Returns:
        CheckResult.

    Example::

        result = run_case(plan_cases([op], checks=["gradcheck"])[0])
        result.status, result.worst       # ('pass', 3.1e-11)
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
                           detail=why, message=_first_line(why) if status == ERROR else "",
                           mode=mode, seconds=time.perf_counter() - start)
    unwritten.set_active(True, case.op.kernels)
    try:
        # every sample of the case (and drawing them) within the memory budget: see memory.py
        with ops_own_sites(), watching(case.op), limited():
            result = _run_mode(case, mode, seed, on_sample)
            if mode == "fast" and result.status in (FAIL, ERROR):
                fast = result
                result = _run_mode(case, "full", seed, on_sample)
                if result.failed:
                    result.detail += ("\n(failed in fast mode; this report is from the full-mode "
                                      "re-run)")
                else:
                    result.detail = ("fast mode reported a failure the full-mode re-run does not "
                                     "confirm:\n" + fast.detail)
    finally:
        unwritten.set_active(False, case.op.kernels)
    if result.loosened:
        result.detail += f"\nloosened: {result.loosened}"
    if result.failed:
        result.replay = replay_command(case, seed)
        result.detail += f"\nreplay: {result.replay}"
    result.seconds = time.perf_counter() - start
    return result


def run_checks(cases, failures=(), mode="full", seed=0, progress=None, jobs=1):
    """Run every case; load failures of selected packs come first, as failed ``load`` rows.

    Args:
        cases: from ``plan_cases``.
        failures: PluginFailure records (from ``select_ops``).
        mode, seed: as for ``run_case``.
        progress: called with each finished CheckResult (progress bars), in the planned order
            whatever ``jobs`` is; its ``sample`` attribute, when it has one, with
            (case, index, count) before each sample.
        jobs: processes to run the ops in: a number, None (one per CPU) or "auto"
            ($OPSDK_CHECK_JOBS, else one per CPU); see parallel.py. Each op's cases run in
            one process, and the results are those of 1.

    Returns:
        list of CheckResult, in the order of ``cases``.
    """
    results = [failure_result(f) for f in failures]
    on_sample = getattr(progress, "sample", None)

    def deliver(result):
        results.append(result)
        if progress is not None:
            progress(result)

    from .parallel import jobs_for, run_parallel

    jobs = jobs_for(cases, jobs)
    if jobs > 1:
        def delivered(index, result):
            if result.failed and not result.replay:  # a case whose process died
                result.replay = replay_command(cases[index], seed)
                result.detail += f"\nreplay: {result.replay}"
            deliver(result)

        run_parallel(cases, jobs, run_case, mode, seed, delivered, on_sample)
        return results
    for case in cases:
        deliver(run_case(case, mode, seed, on_sample))
    return results
