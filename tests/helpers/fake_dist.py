"""A fake installed distribution: a pack module and a .dist-info with its ``opsdk`` entry point."""
import importlib
import textwrap


def install_pack(site, dist, pack, module, source):
    """Write ``module``.py (``source``) and the .dist-info of ``dist`` whose entry point registers it
    as ``pack`` into the directory ``site`` (which must be on sys.path, or PYTHONPATH, to be found)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[opsdk]\n{pack} = {module}\n")
    importlib.invalidate_caches()
