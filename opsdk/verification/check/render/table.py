"""The table of results (op, backend, dtype, check, result, worst error, time), the time each
check kind took, and the summary line."""
import dataclasses

import click

from ....printable import printable
from ..result import BLOCKED, ERROR, FAIL, NA, PASS, SKIP, summarize

COLUMNS = ("op", "backend", "dtype", "check", "result", "worst error", "time")
_STYLE = {PASS: "green", FAIL: "red", ERROR: "red", BLOCKED: "red", SKIP: "yellow"}
_REASON_WIDTH = 60


def _result_text(result):
    if result.status in (FAIL, ERROR, BLOCKED):
        return result.status.upper()
    if result.status == SKIP:
        reason = result.detail.splitlines()[0] if result.detail else ""
        reason = reason if len(reason) <= _REASON_WIDTH else reason[:_REASON_WIDTH - 3] + "..."
        return f"skip ({reason})" if reason else "skip"
    return result.status


def _worst_text(result):
    return "-" if result.worst is None else f"{result.worst:.2e}"


def _rows(results):
    """Table rows; n/a rows are left out, and a backend skipped whole for one reason is one row."""
    groups = {}
    for result in results:
        if result.status != NA:
            groups.setdefault((result.op, result.backend), []).append(result)
    rows = []
    for group in groups.values():
        first = group[0]
        if len(group) > 1 and all(r.status == SKIP and r.detail == first.detail for r in group):
            rows.append(((first.op, first.backend, "*", "*", _result_text(first), "-", "-"), SKIP))
            continue
        rows += [((r.op, r.backend, r.dtype, r.check, _result_text(r), _worst_text(r),
                   f"{r.seconds:.2f} s"), r.status) for r in group]
    return rows


def printable_results(results):
    """``results`` with their op names and details safe to print (an op's message may hold ESC,
    BEL, NUL or a lone surrogate); the results that need no change are the same objects."""
    out = []
    for r in results:
        detail, op = printable(r.detail or ""), printable(r.op)
        out.append(r if (detail, op) == (r.detail or "", r.op) else
                   dataclasses.replace(r, detail=detail, op=op))
    return out


def render_table(results, color=False, quiet=False):
    """The results as an aligned text table (one line per op x backend x dtype x check).

    Args:
        results: CheckResult list.
        color: style the result column (pass green, failures red, skips yellow).
        quiet: leave out the rows of passing checks.

    Returns:
        str, without a trailing newline.
    """
    rows = [row for row in _rows(printable_results(results)) if not quiet or row[1] != PASS]
    widths = [max([len(COLUMNS[i])] + [len(cells[i]) for cells, _ in rows]) for i in range(len(COLUMNS))]

    def line(cells, status=None):
        padded = [c.ljust(w) for c, w in zip(cells, widths)]
        if color and status in _STYLE:
            padded[4] = click.style(padded[4], fg=_STYLE[status], bold=status != PASS)
        return "  ".join(padded).rstrip()

    out = [line(COLUMNS), "  ".join("-" * w for w in widths)]
    out += [line(cells, status) for cells, status in rows]
    return "\n".join(out)


def check_times(results):
    """``[(check, seconds, cases, samples)]``: the time each kind of check took over all ops,
    backends and dtypes, the slowest first."""
    totals = {}
    for r in results:
        if r.check == "load":
            continue
        row = totals.setdefault(r.check, [0.0, 0, 0])
        row[0] += r.seconds
        row[1] += 1
        row[2] += r.samples
    return sorted(((check, *row) for check, row in totals.items()), key=lambda t: -t[1])


def times_line(results):
    """``time per check: gradcheck 3.1 s (24 %), sizes 2.0 s (16 %), ...``."""
    times = check_times(results)
    total = sum(t[1] for t in times) or 1.0
    return "time per check: " + ", ".join(f"{check} {seconds:.1f} s ({100 * seconds / total:.0f} %)"
                                          for check, seconds, _, _ in times)


def summary_line(results, seconds=None):
    """``6 ops: 112 passed, 2 failed, 0 errors, 1 blocked, 4 skipped, 23 n/a in 3.2 s``."""
    counts = summarize(results)
    ops = {r.op for r in results if r.check != "load"}
    loads = sum(1 for r in results if r.check == "load")
    parts = [f"{counts[PASS]} passed", f"{counts[FAIL]} failed", f"{counts[ERROR]} errors"]
    if counts[BLOCKED]:
        parts.append(f"{counts[BLOCKED]} blocked")
    parts += [f"{counts[SKIP]} skipped", f"{counts[NA]} n/a"]
    text = f"{len(ops)} op{'s' if len(ops) != 1 else ''}: " + ", ".join(parts)
    if loads:
        text += f"; {loads} pack{'s' if loads != 1 else ''} failed to load"
    if seconds is not None:
        text += f" in {seconds:.1f} s"
    verdict = "FAILED" if any(r.failed for r in results) else "OK"
    return f"{verdict}: {text}"
