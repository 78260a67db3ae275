"""setuptools commands that ship a pack's C kernels compiled inside its wheel.

A pack's pyproject.toml names them (and lists opsdk among its build requirements)::

    [build-system]
    requires = ["setuptools>=77", "opsdk"]
    build-backend = "setuptools.build_meta"

    [tool.setuptools.cmdclass]
    build_py = "opsdk.prebuild.hooks.BuildPy"
    bdist_wheel = "opsdk.prebuild.hooks.BdistWheel"

``BuildPy`` copies the pack's files as usual, then imports the pack's entry points (group
``opsdk``) from the build tree in a child process and compiles every C source the pack's kernels
use into ``_opsdk_prebuilt/`` beside the module that declared it (``opsdk.kernels.prebuilt``).
``BdistWheel`` marks the wheel for its platform and, as cffi's API mode compiles against the
stable ABI, for every CPython 3 from the one that built it on (``cp311-abi3-linux_x86_64``): one
wheel per platform, not per Python version. ``OPSDK_PREBUILD=0`` builds a wheel of sources only
(kernels then compile on first call, as from an sdist). Editable installs compile nothing: their
kernels compile on first call into the cache, from the sources as they are edited.
"""
import os
import subprocess
import sys
import sysconfig

from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
from setuptools.command.build_py import build_py as _build_py


def prebuild_enabled():
    """Whether wheels ship compiled C kernels (``OPSDK_PREBUILD``, default 1)."""
    from opsdk.env import setting

    return bool(setting("OPSDK_PREBUILD"))


def entry_points(distribution):
    """``name=module[:attr]`` of each of a distribution's ``opsdk`` entry points."""
    points = (distribution.entry_points or {}).get("opsdk", [])
    if isinstance(points, str):
        points = points.splitlines()
    return ["=".join(part.strip() for part in p.split("=", 1)) for p in points if "=" in p]


def prebuild(build_lib, points):
    """Compile the C kernels of the packs at entry points ``points`` (``name=module[:attr]``,
    loaded from build_lib in a child process) into build_lib; returns the child's report lines.

    Raises:
        RuntimeError: a module does not import from build_lib, or a kernel does not compile.
    """
    build_lib = os.path.abspath(build_lib)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([build_lib, *filter(None, sys.path)]),
           "OPSDK_LOAD_PLUGINS": "", "PYTHONDONTWRITEBYTECODE": "1"}  # no __pycache__ into the wheel
    # cwd: `-m` puts the working directory first on sys.path, and the project's own copy of the
    # pack (a flat layout) must not shadow the build tree's
    done = subprocess.run([sys.executable, "-m", "opsdk.prebuild.collect", build_lib, *points],
                          env=env, cwd=build_lib, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"opsdk: compiling the pack's C kernels for the wheel failed\n"
                           f"{done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.splitlines()


class BuildPy(_build_py):
    """build_py that also compiles the pack's C kernels into the build tree."""

    def run(self):
        super().run()
        if self.editable_mode or not prebuild_enabled():
            return
        points = entry_points(self.distribution)
        if not points:
            return
        for line in prebuild(self.build_lib, points):
            self.announce(line, level=2)


class BdistWheel(_bdist_wheel):
    """bdist_wheel that tags the wheel for its platform and the stable ABI (prebuilt kernels)."""

    def finalize_options(self):
        enabled = prebuild_enabled()
        if enabled and not self.py_limited_api and not sysconfig.get_config_var("Py_GIL_DISABLED"):
            self.py_limited_api = f"cp{sys.version_info[0]}{sys.version_info[1]}"
        if enabled:
            # a distribution with compiled code installs into platlib and makes a platform wheel
            self.distribution.has_ext_modules = lambda: True
        super().finalize_options()
