"""What ``opsdk new-pack`` and ``opsdk new-op`` share: plan, refuse or write, and tell the user."""
import os
from pathlib import Path

import click

from ..errors import ScaffoldError
from .plan import UPDATE, display
from .writer import check_plan, write_plan

# a refusal (bad name, existing files, not a pack) is a usage error, as click's own are
REFUSED = 2
FAILED = 1


def _actions(plan):
    """(verb, path shown) per planned file: create, overwrite (--force) or update."""
    actions = []
    for planned in plan.files:
        target = plan.target(planned)
        if planned.kind == UPDATE:
            verb = "update"
        else:
            verb = "overwrite" if os.path.lexists(target) else "create"
        actions.append((verb, display(target)))
    return actions


def _show_stale(plan):
    """List the files an earlier generation wrote that the op no longer has (they are kept)."""
    stale = getattr(plan, "stale", ())
    if stale:
        click.echo(f"\nNo longer generated, left as they are ({len(stale)}): the op does not use "
                   "them now; delete them unless your code does:")
        for path in stale:
            click.echo(f"  {display(Path(plan.root, *path.split('/')))}")


def execute(make_plan, force, dry_run):
    """Build the plan with ``make_plan()``, then list it (dry run) or write it; exit 2 on a refusal."""
    try:
        plan = make_plan()
        check_plan(plan, force)
    except ScaffoldError as error:
        click.echo(f"Error: {error}", err=True)
        raise SystemExit(REFUSED) from None
    actions = _actions(plan)
    width = max(len(verb) for verb, _ in actions)
    if dry_run:
        click.echo(f"Would write {plan.summary}:")
        for verb, shown in actions:
            click.echo(f"  {verb:<{width}}  {shown}")
        _show_stale(plan)
        click.echo("Dry run: nothing was written.")
        return plan
    from ..writable import creation_problem

    problem = creation_problem(plan.root, "directory")
    if problem is not None:
        click.echo(f"Error: {problem}; expected: a directory you can write to (--dir / --pack)\n"
                   "Nothing was written.", err=True)
        raise SystemExit(FAILED)
    try:
        write_plan(plan, force)
    except (ScaffoldError, OSError) as error:
        click.echo(f"Error: {error}\nNothing was written: the files already there are unchanged.", err=True)
        raise SystemExit(FAILED) from None
    click.echo(f"Wrote {plan.summary}:")
    for verb, shown in actions:
        click.echo(f"  {verb:<{width}}  {shown}")
    _show_stale(plan)
    if plan.next_steps:
        click.echo("\nNext:")
        for line in plan.next_steps:
            click.echo(f"  {line}")
    return plan
