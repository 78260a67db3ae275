"""``opsdk new-op OP``: an op (Function, kernels, registration, tests) added to a pack."""
import click

BACKENDS = ("python", "c", "cuda")


@click.command("new-op", short_help="Add an op (Function, kernels, tests) to a pack.")
@click.argument("name")
@click.option("--backend", "-b", "backends", multiple=True, type=click.Choice(BACKENDS),
              help="A kernel to generate; repeat for several. python is always generated: "
                   "the other backends are verified against it.")
@click.option("--pack", "pack_dir", type=click.Path(file_okay=False), default=".",
              help="The pack's directory, or any directory inside it (default: the current one).")
@click.option("--force", is_flag=True,
              help="Overwrite files that already exist (regenerates an existing op).")
@click.option("--dry-run", is_flag=True, help="List the files it would write; write nothing.")
def new_op(name, backends, pack_dir, force, dry_run):
    """Add the op NAME to a pack made by `opsdk new-pack`.

    Writes src/<package>/ops/NAME.py (the Function, its kernels and its registration), NAME.c
    and NAME.cu beside it for --backend c / cuda, and tests/ops/test_NAME.py, and lists NAME in
    the pack's ops/__init__.py. The op computes softplus as a worked example: its generated
    tests pass as generated; replace the maths with yours.

    \b
    Example:
      opsdk new-op swish --backend c --backend cuda
    """
    from ..scaffold import plan_op
    from ..scaffold.command import execute

    execute(lambda: plan_op(name, pack_dir, backends, force), force, dry_run)
