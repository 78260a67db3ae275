"""``opsdk check``: verify registered ops on every backend, dtype and sample (DESIGN §4)."""
import sys
import time

import click

from ..verification.check.checks import CHECKS
from ..packs.registry.tolerances import VERIFIABLE_DTYPES
from .report_files import report_file, write_report

BACKENDS = ("python", "c", "cuda")


def _html_ready(ctx, param, value):
    """--html needs matplotlib for its plots: say which extra to install before running."""
    value = report_file(ctx, param, value)
    if value is not None:
        from ..verification.check.render.plots import missing_dependency

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
    from ..verification.check import select_ops
    from ..errors import OpsdkError

    try:
        return select_ops(ops, packs)
    except (OpsdkError, LookupError) as error:
        from ..printable import printable

        # the message quotes names and failed packs' errors: a pack's text, shown escaped
        raise click.UsageError(printable(str(error))) from None


def _foreign(specs, names):
    """The foreign ops of --op (module:attr, or a pyproject.toml's [tool.opsdk.ops])."""
    from ..errors import OpsdkError
    from ..foreign.loading import select

    try:
        return select(specs, names)
    except OpsdkError as error:
        from ..printable import printable

        raise click.UsageError(printable(str(error))) from None


def _memory_budget(ctx, param, value):
    """--max-memory as bytes (None: the default), refused before anything runs."""
    if value is None:
        return None
    from ..verification.check.memory import parse_size

    try:
        return parse_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _jobs(ctx, param, value):
    """-j as a number of processes, None (auto), or "auto" when not given: then
    $OPSDK_CHECK_JOBS decides (a bad value there warns and counts as auto, see opsdk/env.py)."""
    if value is None:
        return "auto"
    from ..env import process_count

    try:
        return process_count(value)
    except ValueError as error:
        raise click.BadParameter(f"expected {error}; got {value!r}") from None


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
              callback=report_file, help="Also write a JUnit XML report to FILE.")
@click.option("--progress/--no-progress", "show_progress", default=None,
              help="Progress on stderr: a bar on a terminal, else a line per op (default); "
                   "--progress forces the bar, --no-progress shows none.")
@click.option("-q", "--quiet", is_flag=True, help="Leave out the lines of ops that passed.")
@click.option("-v", "--verbose", is_flag=True,
              help="A table row per op x backend x dtype x check, instead of one line per op.")
@click.option("--framework", type=click.Choice(("torch", "jax", "paddle")), default=None,
              help="Instead: verify the ops exported to this framework with its own tools "
                   "(opcheck/gradcheck, check_grads/vmap, Paddle vs opsdk). See docs/interop.md.")
@click.option("--op", "foreign", multiple=True, metavar="MODULE:ATTR",
              help="Verify ops written in torch, JAX or Paddle, declared with opsdk.foreign_op: "
                   "MODULE:ATTR holds one or a list; a path ending in .toml reads the "
                   "[tool.opsdk.ops] tables of that pyproject.toml (repeatable). OPS then "
                   "choose among them. See docs/verifying-foreign-ops.md.")
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
@click.option("-j", "--jobs", metavar="N", callback=_jobs,
              help="Processes to check ops in at once: a number, or auto (the default: one per "
                   "CPU, at most 4; OPSDK_CHECK_JOBS). Each op runs whole in one process; "
                   "results and their order are those of -j 1.")
def check_cmd(ops, packs, backends, dtypes, checks, fast, seed, as_json, junit_xml, show_progress,
              quiet, verbose, html, framework, simulate, max_memory, foreign, jobs):
    """Verify the gradients of registered ops: every op x backend x dtype x sample.

    OPS are op names (pack.op, or a short name one pack registers); none means every op of
    every loaded pack. Checks: forward and backward agreement with python in float64,
    gradcheck, gradgradcheck where the op claims double backward (else: asking for it must
    raise a clear error), the op's reference=, isolation (in-place writes, shared memory,
    state between calls), layouts, derived sizes, special points, the PyLayer protocol, and
    the engine around the op (accumulation, stop_gradient, no_grad, retain_graph, hooks).
    Exits 1 when any check fails or a selected pack failed to load. See docs/verifying.md.
    """
    from ..verification.check import plan_cases, run_checks
    from ..verification.check.progress import progress
    from ..packs.loading import channel

    # under the `opsdk` command a supervisor watches this process: ending with status 0 without
    # the summary (a pack's code called os._exit(0), sys.exit(0)) then counts as a failure
    channel.expect_summary()
    if simulate:
        from ..kernels.cudasim import install

        install()
    if max_memory is not None:
        from ..verification.check.memory import set_budget

        set_budget(max_memory)
        click.get_current_context().call_on_close(lambda: set_budget(None))
    start = time.perf_counter()
    if foreign:
        selected, failures = _foreign(foreign, ops), []
    else:
        selected, failures = _select(ops, packs)
    if framework:
        return _framework_check(framework, selected, failures, as_json, quiet)
    cases = plan_cases(selected, backends, dtypes, checks)
    if selected and not cases:
        raise _nothing_selected(selected, backends, dtypes, checks)
    mode = "fast" if fast else "full"
    if as_json and show_progress is None and not sys.stderr.isatty():
        show_progress = False  # `--json 2>&1` must stay JSON: the per-op lines are for logs of the text report
    with progress(len(cases), show_progress) as advance:
        results = run_checks(cases, failures, mode=mode, seed=seed, progress=_telling(advance, cases),
                             jobs=jobs)
    seconds = time.perf_counter() - start
    _print_report(results, seconds, as_json, quiet, verbose)
    channel.summary_printed()
    unwritten = _write_reports(results, seconds, junit_xml, html, seed, mode)
    if unwritten or any(r.failed for r in results):
        sys.exit(1)


def _telling(advance, cases):
    """``advance`` that also tells a supervisor which op runs next, to name it if the process dies."""
    from ..packs.loading import channel

    if not channel.is_worker() or not cases:
        return advance
    ops = [case.op.qualname for case in cases]
    done = iter(range(1, len(ops) + 1))
    channel.activity(f"checking op {ops[0]}")

    def step(result):
        advance(result)
        index = next(done)
        if index < len(ops) and ops[index] != ops[index - 1]:
            channel.activity(f"checking op {ops[index]}")

    return step


def _print_report(results, seconds, as_json, quiet, verbose):
    from ..verification.check.render import render_report, to_json

    if as_json:
        click.echo(to_json(results, seconds))
    elif not results:
        click.echo("no ops to check: no loaded pack registers any (see `opsdk list`)")
    else:
        click.echo(render_report(results, seconds, color=sys.stdout.isatty(), quiet=quiet,
                                 verbose=verbose))


def _write_reports(results, seconds, junit_xml, html, seed, mode):
    """Write the report files asked for; True when one could not be written (said on stderr)."""
    problems = []
    if junit_xml:
        from ..verification.check.render import to_junit_xml

        problems.append(write_report(junit_xml, to_junit_xml(results), "JUnit XML"))
    if html:
        from ..verification.check.render.html import render_html

        problems.append(write_report(html, render_html(results, seconds, seed=seed, mode=mode), "HTML"))
    for problem in filter(None, problems):
        click.echo(f"Error: {problem}", err=True)
    return any(problems)


def _framework_check(framework, selected, failures, as_json, quiet):
    """--framework: the interop verification of the selected ops; selected packs that failed to
    load are named (on stderr, so --json stays JSON) and fail the run, as in the plain check."""
    from ..verification.frameworks.command import run_framework_check
    from ..packs.loading import channel
    from ..printable import printable

    code = 0
    try:
        run_framework_check(framework, selected, as_json, quiet)
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    for failure in failures:
        click.echo(printable(f"FAIL pack {failure.pack} failed to load: {failure}"), err=True)
    channel.summary_printed()
    if code or failures:
        sys.exit(code or 1)
