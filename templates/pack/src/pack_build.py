"""This pack's build commands: opsdk's, which compile its C kernels into the wheel, where opsdk can
be imported at build time (`pip wheel --no-build-isolation`, `python -m build --no-isolation`, or
the CI workflow in .github/workflows/wheels.yml); otherwise setuptools' own, and the wheel ships
sources that compile on first call. pyproject.toml names these classes; this file is not part of
the installed pack (see opsdk's docs/packs.md)."""
try:
    from opsdk.prebuild.hooks import BdistWheel, BuildPy
except ImportError:
    import sys

    from setuptools.command.bdist_wheel import bdist_wheel as BdistWheel  # noqa: F401
    from setuptools.command.build_py import build_py as BuildPy  # noqa: F401

    print("opsdk is not importable at build time: the wheel ships C sources only (compiled on first "
          "call); build with --no-build-isolation for prebuilt kernels", file=sys.stderr)
