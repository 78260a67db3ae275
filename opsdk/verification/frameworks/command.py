"""What ``opsdk check --framework NAME`` does: verify the selected ops exported to NAME."""
import json
import sys

import click


def run_framework_check(framework, selected, as_json, quiet):
    """Verify ``selected`` ops (OpInfo) in ``framework``, print the report, exit 1 on failure."""
    from ...errors import FrameworkNotInstalledError
    from .runner import render, verify

    try:
        outcomes = verify(framework, selected)
    except FrameworkNotInstalledError as error:
        raise click.UsageError(str(error)) from None
    if as_json:
        click.echo(json.dumps([o._asdict() for o in outcomes], indent=2))
    elif not outcomes:
        click.echo("no ops to check: no loaded pack registers any (see `opsdk list`)")
    else:
        click.echo(render(outcomes, quiet=quiet))
    if any(not o.passed for o in outcomes):
        sys.exit(1)
