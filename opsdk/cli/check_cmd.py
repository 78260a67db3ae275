"""``opsdk check``: verify registered ops on every backend, dtype and sample (DESIGN §4)."""
import sys
import time

import click

from ..check.checks import CHECKS
from ..registry.tolerances import VERIFIABLE_DTYPES

BACKENDS = ("python", "c", "cuda")


def _select(ops, packs):
    from ..check import select_ops
    from ..errors import OpsdkError

    try:
        return select_ops(ops, packs)
    except (OpsdkError, LookupError) as error:
        raise click.UsageError(str(error)) from None


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
              help="Fast: random-projection gradchecks, one broadcast sample; a failure is re-run "
                   "in full mode. Full: full Jacobians and every derived sample.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the samples and projections.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON report instead of the table.")
@click.option("--junit-xml", "junit_xml", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write a JUnit XML report to FILE.")
@click.option("--progress/--no-progress", "show_progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("-q", "--quiet", is_flag=True, help="Table rows only for checks that did not pass.")
def check_cmd(ops, packs, backends, dtypes, checks, fast, seed, as_json, junit_xml, show_progress,
              quiet):
    """Verify the gradients of registered ops: every op x backend x dtype x sample.

    OPS are op names (pack.op, or a short name one pack registers); none means every op of
    every loaded pack. Checks: forward and backward agreement with the python backend,
    gradcheck, gradgradcheck where the op claims double backward (else: asking for it must
    raise a clear error), the PyLayer protocol, and the engine around the op (accumulation,
    stop_gradient, no_grad, retain_graph, hooks). Exits 1 when any check fails or a selected
    pack failed to load. See docs/verifying.md.
    """
    from ..check import plan_cases, run_checks
    from ..check.progress import progress
    from ..check.render import render_report, to_json, to_junit_xml

    start = time.perf_counter()
    selected, failures = _select(ops, packs)
    cases = plan_cases(selected, backends, dtypes, checks)
    mode = "fast" if fast else "full"
    with progress(len(cases), show_progress) as advance:
        results = run_checks(cases, failures, mode=mode, seed=seed, progress=advance)
    seconds = time.perf_counter() - start
    if junit_xml:
        with open(junit_xml, "w", encoding="utf-8") as f:
            f.write(to_junit_xml(results))
    if as_json:
        click.echo(to_json(results, seconds))
    elif not results:
        click.echo("no ops to check: no loaded pack registers any (see `opsdk list`)")
    else:
        click.echo(render_report(results, seconds, color=sys.stdout.isatty(), quiet=quiet))
    if any(r.failed for r in results):
        sys.exit(1)
