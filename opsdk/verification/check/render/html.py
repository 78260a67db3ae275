"""The HTML report (``opsdk check --html FILE``): one self-contained page, nothing fetched.

The summary, every op's checks, and for each failed (or loosened) gradient check a plot of the
analytic against the numeric derivative, its worst point marked, with the replay command.
"""
import datetime
import html
import platform

from ....printable import printable
from ..result import FAIL, FAILING, summarize
from .plots import EXTRA, missing_dependency
from .table import summary_line

__all__ = ["EXTRA", "missing_dependency", "render_html", "write_html"]

GRADIENT_CHECKS = ("gradcheck", "gradgradcheck")

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
.summary { font-size: 1.1em; font-weight: 600; } .summary.failed { color: #b00020; } .summary.ok { color: #1b7f3b; }
.run { color: #666; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; }
th, td { text-align: left; padding: 0.15em 0.6em; border-bottom: 1px solid #eee; vertical-align: top; }
td.status { font-weight: 600; } tr.pass td.status { color: #1b7f3b; } tr.skip td.status, tr.na td.status { color: #8a6d00; }
tr.fail td.status, tr.error td.status, tr.blocked td.status { color: #b00020; }
pre { background: #f6f8fa; padding: 0.6em; overflow-x: auto; font-size: 12px; }
.failure { border: 1px solid #f0c0c0; border-radius: 6px; padding: 0.2em 1em 1em; margin: 1em 0; }
.failure.loosened { border-color: #e6d18a; }
figure.plot { margin: 0.5em 0; } figure.plot svg { max-width: 100%; height: auto; }
.noplot { color: #8a6d00; } code.replay { display: block; background: #fff8e1; padding: 0.4em; }
details > summary { cursor: pointer; } .hidden { display: none; }
"""

# the page works without it; it only filters the op tables and says the page has loaded
_SCRIPT = """
(function () {
  var box = document.getElementById("only-failed");
  box.addEventListener("change", function () {
    document.querySelectorAll("section#ops tr.pass, section#ops tr.na, section#ops tr.skip").forEach(function (row) {
      row.classList.toggle("hidden", box.checked);
    });
  });
  document.body.setAttribute("data-plots-shown", String(document.querySelectorAll("figure.plot svg").length));
})();
"""


def _e(text):
    # an op's message may hold control characters or lone surrogates: shown as escapes
    return html.escape(printable(text), quote=True)


def _loosened(result):
    return bool(getattr(result, "loosened", False))


def replay_command(result, seed, mode):
    """The command that re-runs one check: the runner's own when the result carries one."""
    replay = getattr(result, "replay", None)
    if replay:
        return replay
    for line in reversed((result.detail or "").splitlines()):  # the runner's comes last
        if line.strip().startswith("replay: opsdk check "):
            return line.strip()[len("replay: "):]
    return (f"opsdk check {result.op} --backend {result.backend} --dtype {result.dtype} "
            f"--check {result.check} --seed {seed} --full")


def _plot(result, seed):
    """(svg, None) for a gradient check's plot, or (None, why not)."""
    from ....packs.loading import get_registry
    from .derivatives import Curve, derivative_data
    from .plots import curve_svg, error_map_svg

    try:
        op = get_registry().get(result.op)
        data = derivative_data(op, result.backend, result.dtype, result.check, seed, result.mode)
    except Exception as error:  # noqa: BLE001 - a plot that cannot be drawn must not cost the page
        return None, f"{type(error).__name__}: {error}"
    title = f"{result.op} on {result.backend}, {result.dtype}: {result.check}"
    if isinstance(data, Curve):
        return curve_svg(data, title), None
    return error_map_svg(data, title), None


def _failure(result, seed, mode):
    loosened = _loosened(result) and not result.failed
    parts = [f'<article class="failure{" loosened" if loosened else ""}" id="{_e(result.case_id)}">',
             f"<h3>{_e(result.status.upper())}{' (loosened)' if loosened else ''} {_e(result.case_id)}</h3>"]
    if result.worst is not None:
        parts.append(f"<p>worst error: {result.worst:.3e}</p>")
    if result.check in GRADIENT_CHECKS and (result.status == FAIL or loosened):
        svg, why = _plot(result, seed)
        if svg is not None:
            parts.append(f'<figure class="plot">{svg}<figcaption>analytic (the op\'s backward) against '
                         f"numeric (central differences) derivatives; the worst point is marked"
                         f"</figcaption></figure>")
        else:
            parts.append(f'<p class="noplot">no plot: {_e(why)}</p>')
    parts.append(f'<p>replay:</p><code class="replay">{_e(replay_command(result, seed, mode))}</code>')
    if result.detail:
        parts.append(f"<details open><summary>report</summary><pre>{_e(result.detail)}</pre></details>")
    parts.append("</article>")
    return "\n".join(parts)


def _row(result):
    worst = "-" if result.worst is None else f"{result.worst:.2e}"
    first = (result.detail or "").strip().splitlines()
    note = first[0] if first and not result.failed and result.status != "pass" else ""
    if result.failed:
        note = f'<a href="#{_e(result.case_id)}">report below</a>'
    else:
        note = _e(note)
    css = result.status.replace("/", "")
    return (f'<tr class="{css}"><td>{_e(result.backend)}</td><td>{_e(result.dtype)}</td>'
            f'<td>{_e(result.check)}</td><td class="status">{_e(result.status)}'
            f'{" (loosened)" if _loosened(result) else ""}</td><td>{worst}</td><td>{note}</td></tr>')


def _ops(results):
    groups = {}
    for result in results:
        groups.setdefault(result.op, []).append(result)
    parts = []
    for op, group in groups.items():
        counts = summarize(group)
        failed = any(r.failed for r in group)
        text = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
        parts.append(f"<details{' open' if failed else ''}><summary><b>{_e(op)}</b>: "
                     f"{'FAIL' if failed else 'ok'} ({_e(text)})</summary><table><tr><th>backend</th>"
                     f"<th>dtype</th><th>check</th><th>result</th><th>worst error</th><th></th></tr>")
        parts += [_row(r) for r in group]
        parts.append("</table></details>")
    return "\n".join(parts)


def render_html(results, seconds=None, seed=0, mode="fast"):
    """The report as one HTML document (str): styles inline, plots inline SVG, no external file.

    Args:
        results: CheckResult list.
        seconds: the run's duration.
        seed, mode: the run's, for the replay commands and the page's header.

    Returns:
        str.

    Example::

        Path("report.html").write_text(render_html(results, seed=0))
    """
    from ....version import __version__

    failed = any(r.failed for r in results)
    shown = [r for r in results if r.status in FAILING or _loosened(r)]
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    body = [
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>opsdk check: {'FAILED' if failed else 'OK'}</title><style>{_STYLE}</style></head><body>",
        "<h1>opsdk check</h1>",
        f'<p class="summary {"failed" if failed else "ok"}">{_e(summary_line(results, seconds))}</p>',
        f'<p class="run">seed {seed}, {_e(mode)} mode; opsdk {_e(__version__)}, Python '
        f"{_e(platform.python_version())} on {_e(platform.platform())}; {stamp}</p>",
        f"<h2>Failures and loosened checks ({len(shown)})</h2>",
        "\n".join(_failure(r, seed, mode) for r in shown) or "<p>None: every check passed.</p>",
        '<h2>Every op</h2><p><label><input type="checkbox" id="only-failed"> only checks that did not '
        "pass</label></p>",
        f'<section id="ops">{_ops(results)}</section>',
        f"<script>{_SCRIPT}</script></body></html>",
    ]
    return "\n".join(body) + "\n"


def write_html(path, results, seconds=None, seed=0, mode="fast"):
    """Write ``render_html(...)`` to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as f:
        f.write(render_html(results, seconds, seed, mode))
