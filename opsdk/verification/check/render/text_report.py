"""The text report of ``opsdk check``: one line per op (passes folded), failures in full, the
summary line last; ``verbose`` shows the whole table instead of the folded lines."""
import click

from ..result import BLOCKED, ERROR, FAIL, NA, PASS, SKIP, summarize
from .table import printable_results, render_table, summary_line, times_line

_FAILED = (FAIL, ERROR, BLOCKED)


def _loosened(result):
    """True when the check passed only under a loosened tolerance (a field the runner may set)."""
    return bool(getattr(result, "loosened", False))


def _skip_reasons(results):
    """'cuda: CuPy is not installed; c float16: ...' for the skipped results of one op."""
    reasons = {}
    for r in results:
        if r.status == SKIP:
            reason = r.detail.strip().splitlines()[0] if r.detail.strip() else "no reason given"
            reasons.setdefault(reason, {}).setdefault(r.backend, set()).add(r.dtype)
    parts = []
    for reason, backends in reasons.items():
        where = ", ".join(sorted(backends))
        parts.append(f"{where}: {reason}")
    return "; ".join(parts)


def op_line(op, results, color=False):
    """``ok    pack.op  40 passed, 12 skipped (cuda: ...), 8 n/a  1.2 s`` for one op's results."""
    counts = summarize(results)
    failed = any(r.failed for r in results)
    verdict = "FAIL" if failed else "ok"
    parts = [f"{counts[PASS]} passed"]
    parts += [f"{counts[s]} {name}" for s, name in ((FAIL, "failed"), (BLOCKED, "blocked")) if counts[s]]
    if counts[ERROR]:
        parts.insert(2 if counts[FAIL] else 1, f"{counts[ERROR]} error{'s' if counts[ERROR] > 1 else ''}")
    loosened = sum(1 for r in results if _loosened(r))
    if loosened:
        parts.append(f"{loosened} loosened")
    if counts[SKIP]:
        parts.append(f"{counts[SKIP]} skipped ({_skip_reasons(results)})")
    if counts[NA]:
        parts.append(f"{counts[NA]} n/a")
    seconds = sum(r.seconds for r in results)
    if color:
        verdict = click.style(verdict.ljust(4), fg="red" if failed else "green", bold=failed)
    else:
        verdict = verdict.ljust(4)
    return f"{verdict}  {op}  {', '.join(parts)}  ({seconds:.1f} s)"


def failure_text(result, color=False):
    """One failed result in full: its title (id, worst error) and its detail, indented."""
    if result.check == "load":
        title = f"FAIL pack {result.op} failed to load"
    else:
        title = f"{result.status.upper()} {result.case_id}"
        if result.worst is not None:
            title += f"  (worst error {result.worst:.2e})"
    if color:
        title = click.style(title, fg="red", bold=True)
    body = "\n".join("    " + line for line in result.detail.rstrip().splitlines())
    return f"{title}\n{body}" if body else title


def _by_op(results):
    groups = {}
    for r in results:
        groups.setdefault(r.op, []).append(r)
    return groups


def render_report(results, seconds=None, color=False, quiet=False, verbose=False):
    """The whole text report.

    Args:
        results: CheckResult list.
        seconds: the run's duration, for the summary line.
        color: styles for a terminal.
        quiet: leave out the lines of ops that passed.
        verbose: the full table (a row per op x backend x dtype x check, with its time) and the
            time of each kind of check, instead of a line per op.

    Returns:
        str: op lines (or the table), each failure in full under its op, then the summary line.

    Example::

        click.echo(render_report(run_checks(plan_cases(ops)), seconds=3.2))
    """
    parts = []
    results = printable_results(results)
    if verbose:
        parts.append(render_table(results, color, quiet))
        parts.append(times_line(results))
        parts += ["\n" + failure_text(r, color) for r in results if r.failed]
    else:
        for op, group in _by_op(results).items():
            failed = [r for r in group if r.failed]
            if group[0].check == "load":
                parts += [failure_text(r, color) for r in failed]
                continue
            if quiet and not failed:
                continue
            parts.append(op_line(op, group, color))
            parts += ["\n".join("  " + line for line in failure_text(r, color).splitlines())
                      for r in failed]
    parts.append(("\n" if parts else "") + summary_line(results, seconds))
    return "\n".join(parts)
