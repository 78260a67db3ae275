"""``opsdk new-pack NAME``: a pip-installable op pack, ready for ``opsdk new-op``."""
import click


@click.command("new-pack", short_help="Create a pip-installable op pack.")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=None,
              help="Directory to create the pack in (default: ./NAME).")
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
@click.option("--dry-run", is_flag=True, help="List the files it would write; write nothing.")
def new_pack(name, directory, force, dry_run):
    """Create the op pack NAME: pyproject.toml with the opsdk entry point, the package, tests, README.

    NAME is the pack's name: its ops are called NAME.<op>. It must be a Python identifier.

    \b
    Example:
      opsdk new-pack my_ops && cd my_ops
      opsdk new-op swish --backend c
      pip install -e . && pytest
    """
    from ..scaffold import plan_pack
    from ..scaffold.command import execute

    execute(lambda: plan_pack(name, directory), force, dry_run)
