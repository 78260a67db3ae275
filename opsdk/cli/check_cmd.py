"""``opsdk check``: verify registered ops on every backend, dtype and sample (DESIGN §4)."""
import sys
import time

import click

from ..check.checks import CHECKS
from ..registry.tolerances import VERIFIABLE_DTYPES

BACKENDS = ("python", "c", "cuda")


def _writable_file(ctx, param, value):
    """Refuse, before anything runs, a report file whose directory is missing or not writable."""
    import os

    from .. import writable

    if value is None:
        return value
    folder = os.path.dirname(os.path.abspath(value))
    if not os.path.isdir(folder):
        raise click.BadParameter(f"directory {folder} does not exist; expected: a file in an "
                                 f"existing directory; got: {value}")
    if not writable.can_create_in(folder):
        raise click.BadParameter(f"directory {folder} is not writable; got: {value}")
    return value


def _html_ready(ctx, param, value):
    """--html needs matplotlib for its plots: say which extra to install before running."""
    value = _writable_file(ctx, param, value)
    if value is not None:
        from ..check.render.plots import missing_dependency

        missing = missing_dependency()
        if missing:
            raise click.BadParameter(missing)
    return value


def _nothing_selected(selected, backends, dtypes, checks):
    """The usage error of filters that leave none of the selected ops' cases: what each op has."""
    asked = " ".join([*(f"--backend {b}" for b in backends), *(f"--dtype {d}" for d in dtypes),
                      *(f"--check {c}" for c in checks)])
    has = "; ".join(f"{op.qualname} has backends {', '.join(op.backends)} and dtypes "
                    f"{', '.join(op.dtypes)}" for op in selected[:5])
    more = f" (and {len(selected) - 5} more ops)" if len(selected) > 5 else ""
    return click.UsageError(f"nothing to check: no case of the selected op(s) matches {asked}; "
                            f"{has}{more}")


def _select(ops, packs):
    from ..check import select_ops
    from ..errors import OpsdkError

    try:
        return select_ops(ops, packs)
    except (OpsdkError, LookupError) as error:
        raise click.UsageError(str(error)) from None


def _memory_budget(ctx, param, value):
    """--max-memory as bytes (None: the default), refused before anything runs."""
    if value is None:
        return None
    from ..check.memory import parse_size

    try:
        return parse_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@click.command("check")
@click.argument("ops", nargs=-1)
@click.option("--pack", "packs", multiple=True, metavar="P", help="Only ops of this pack (repeatable).")
@click.option("--backend", "backends", multiple=True, type=click.Choice(BACKENDS),
              help="Only this backend (repeatable).")
@click.option("--dtype", "dtypes", multiple=True, type=click.Choice(VERIFIABLE_DTYPES),
              help="Only this dtype (repeatable).")
@click.option("--check", "checks", multiple=True, type=click.Choice(tuple(CHECKS)), metavar="NAME",
              help="Only this check (repeatable).")
@click.option("--fast/--full", "fast", default=False, show_default=True,
              help="Full (the default): every check on every derived sample, whole Jacobians. "
                   "Fast: projections and a few derived samples; a failure is re-run in full mode.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the samples and projections (a non-negative integer).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report instead of the table.")
@click.option("--junit-xml", "junit_xml", type=click.Path(dir_okay=False), metavar="FILE",
              callback=_writable_file, help="Also write a JUnit XML report to FILE.")
@click.option("--progress/--no-progress", "show_progress", default=None,
              help="Progress on stderr: a bar on a terminal, else a line per op (default); "
                   "--progress forces the bar, --no-progress shows none.")
@click.option("-q", "--quiet", is_flag=True, help="Leave out the lines of ops that passed.")
@click.option("-v", "--verbose", is_flag=True,
              help="A table row per op x backend x dtype x check, instead of one line per op.")
@click.option("--framework", type=click.Choice(("torch", "jax", "paddle")), default=None,
              help="Instead: verify the ops exported to this framework with its own tools "
                   "(opcheck/gradcheck, check_grads/vmap, Paddle vs opsdk). See docs/interop.md.")
@click.option("--html", "html", type=click.Path(dir_okay=False), metavar="FILE", callback=_html_ready,
              help="Also write a self-contained HTML report to FILE, with a plot of each failed "
                   "gradient check (needs: pip install 'opsdk[report]').")
@click.option("--max-memory", "max_memory", metavar="SIZE", callback=_memory_budget,
              help="Memory one sample may use (4G, 512M, 25%): a sample beyond it fails its op "
                   "with the bytes it asked for, never kills the run. Default: a quarter of the "
                   "machine's memory (OPSDK_CHECK_MAX_MEMORY).")
@click.option("--simulate", is_flag=True,
              help="Run the cuda backend on the CPU CUDA simulator (as OPSDK_CUDA_SIM=1): finds "
                   "out-of-bounds accesses, races, divergent barriers and mistyped launch arguments "
                   "without a GPU. See docs/kernels.md.")
def check_cmd(ops, packs, backends, dtypes, checks, fast, seed, as_json, junit_xml, show_progress,
              quiet, verbose, html, framework, simulate, max_memory):
    """Verify the gradients of registered ops: every op x backend x dtype x sample.

    OPS are op names (pack.op, or a short name one pack registers); none means every op of
    every loaded pack. Checks: forward and backward agreement with python in float64,
    gradcheck, gradgradcheck where the op claims double backward (else: asking for it must
    raise a clear error), the op's reference=, isolation (in-place writes, shared memory,
    state between calls), layouts, derived sizes, special points, the PyLayer protocol, and
    the engine around the op (accumulation, stop_gradient, no_grad, retain_graph, hooks).
    Exits 1 when any check fails or a selected pack failed to load. See docs/verifying.md.
    """
    from ..check import plan_cases, run_checks
    from ..check.progress import progress
    from ..check.render import render_report, to_json, to_junit_xml

    if simulate:
        from ..kernels.cudasim import install

        install()
    if max_memory is not None:
        from ..check.memory import set_budget

        set_budget(max_memory)
        click.get_current_context().call_on_close(lambda: set_budget(None))
    start = time.perf_counter()
    selected, failures = _select(ops, packs)
    if framework:
        from ..interop.verify.command import run_framework_check

        return run_framework_check(framework, selected, as_json, quiet)
    cases = plan_cases(selected, backends, dtypes, checks)
    if selected and not cases:
        raise _nothing_selected(selected, backends, dtypes, checks)
    mode = "fast" if fast else "full"
    if as_json and show_progress is None and not sys.stderr.isatty():
        show_progress = False  # `--json 2>&1` must stay JSON: the per-op lines are for logs of the text report
    with progress(len(cases), show_progress) as advance:
        results = run_checks(cases, failures, mode=mode, seed=seed, progress=advance)
    seconds = time.perf_counter() - start
    if junit_xml:
        with open(junit_xml, "w", encoding="utf-8") as f:
            f.write(to_junit_xml(results))
    if html:
        from ..check.render.html import write_html

        write_html(html, results, seconds, seed=seed, mode=mode)
    if as_json:
        click.echo(to_json(results, seconds))
    elif not results:
        click.echo("no ops to check: no loaded pack registers any (see `opsdk list`)")
    else:
        click.echo(render_report(results, seconds, color=sys.stdout.isatty(), quiet=quiet,
                                 verbose=verbose))
    if any(r.failed for r in results):
        sys.exit(1)
