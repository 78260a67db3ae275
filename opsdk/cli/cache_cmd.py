"""``opsdk cache info|clear``: the on-disk cache of compiled kernels."""
import json

import click

# OPSDK_CACHE_DIR names a directory that is not opsdk's: a usage error, as click's own
REFUSED = 2


def human_size(size):
    """Bytes as '1.2 MiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024


@click.group("cache", short_help="Show or clear the cache of compiled kernels.")
def cache_cmd():
    """The cache of compiled kernels ($OPSDK_CACHE_DIR, or the per-user cache directory)."""


def refuse(problem, doing=""):
    """Say a cache problem and its fix on one line, and exit: 2 when the directory is not opsdk's
    (a usage error), else 1."""
    click.echo(f"Error: {doing}{problem}; fix: {problem.fix}", err=True)
    raise SystemExit(REFUSED if problem.kind == "not-ours" else 1)


@cache_cmd.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def info(as_json):
    """Where the cache is, how many kernel builds it holds, and its size.

    Only opsdk's own entries are counted. Exits 1 when the cache cannot be used (not a
    directory, not writable, full, a link, or another user could write it), 2 when the
    directory is not opsdk's (it holds other files and no opsdk tag)."""
    from ..kernels import cache_info, cache_problem

    found = cache_info()
    problem = cache_problem()
    if as_json:
        click.echo(json.dumps({"path": found.path, "entries": found.entries, "bytes": found.total_bytes,
                               "ok": problem is None, "problem": problem,
                               "kind": problem.kind if problem else None}))
    else:
        click.echo(f"path:    {found.path}\nbuilds:  {found.entries}\nsize:    {human_size(found.total_bytes)}")
    if problem is not None:
        refuse(problem)


@cache_cmd.command("clear")
def clear():
    """Remove every cached build, log and memo; kernels compile again on their next use (or
    `opsdk build`).

    Only opsdk's own entries are removed; a directory that holds other files and no opsdk tag is
    refused (exit 2). A build running in another process is left to finish."""
    from ..kernels import cache_dir, clear_cache
    from ..kernels.cache import clear_problem

    problem = clear_problem()
    if problem is not None:
        refuse(problem, "cannot clear: ")
    removed = clear_cache()
    click.echo(f"Removed {removed} build(s) from {cache_dir()}.")
