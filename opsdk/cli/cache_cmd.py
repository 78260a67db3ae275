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


@cache_cmd.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def info(as_json):
    """Where the cache is, how many kernel builds it holds, and its size."""
    from ..kernels import cache_info

    found = cache_info()
    if as_json:
        click.echo(json.dumps({"path": found.path, "entries": found.entries, "bytes": found.total_bytes}))
        return
    click.echo(f"path:    {found.path}\nbuilds:  {found.entries}\nsize:    {human_size(found.total_bytes)}")


@cache_cmd.command("clear")
def clear():
    """Remove every cached build; kernels compile again on their next use (or `opsdk build`)."""
    from ..kernels import cache_dir, clear_cache

    removed = clear_cache()
    click.echo(f"Removed {removed} build(s) from {cache_dir()}.")
