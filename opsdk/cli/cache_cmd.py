"""``opsdk cache info|clear``: the on-disk cache of compiled C kernels."""
import json

import click


def human_size(size):
    """Bytes as '1.2 MiB'."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024


@click.group("cache", short_help="Show or clear the cache of compiled C kernels.")
def cache_cmd():
    """The cache of compiled C kernels ($OPSDK_CACHE_DIR, or the per-user cache directory)."""


def _unusable(problem):
    """The one-line error and exit status of a command that needs a usable cache."""
    from ..kernels import CACHE_FIX

    click.echo(f"Error: {problem}; fix: {CACHE_FIX}", err=True)
    raise SystemExit(1)


@cache_cmd.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def info(as_json):
    """Where the cache is, how many kernel builds it holds, and its size.

    Exits 1 when the cache cannot be used (not a directory, not writable)."""
    from ..kernels import cache_info, cache_problem

    found = cache_info()
    problem = cache_problem()
    if as_json:
        click.echo(json.dumps({"path": found.path, "entries": found.entries, "bytes": found.total_bytes,
                               "ok": problem is None, "problem": problem}))
    else:
        click.echo(f"path:    {found.path}\nbuilds:  {found.entries}\nsize:    {human_size(found.total_bytes)}")
    if problem is not None:
        _unusable(problem)


@cache_cmd.command("clear")
def clear():
    """Remove every cached build; kernels compile again on their next use (or `opsdk build`).

    A build running in another process is left to finish."""
    from ..kernels import cache_dir, cache_problem, clear_cache

    problem = cache_problem()
    if problem is not None:
        _unusable(f"cannot clear: {problem}")
    removed = clear_cache()
    click.echo(f"Removed {removed} build(s) from {cache_dir()}.")
