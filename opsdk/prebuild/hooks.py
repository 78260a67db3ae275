"""setuptools commands that ship a pack's C and CUDA kernels compiled inside its wheel.

A pack's pyproject.toml names them (and lists opsdk among its build requirements)::

    [build-system]
    requires = ["setuptools>=77", "opsdk"]
    build-backend = "setuptools.build_meta"

    [tool.setuptools.cmdclass]
    build_py = "opsdk.prebuild.hooks.BuildPy"
    bdist_wheel = "opsdk.prebuild.hooks.BdistWheel"

``BuildPy`` copies the pack's files as usual, then imports the pack's entry points (group
``opsdk``) from the build tree in a child process and compiles every C source the pack's kernels
use into ``_opsdk_prebuilt/`` beside the module that declared it (``opsdk.kernels.prebuilt``),
and every CUDA source with nvcc into a cubin per architecture and PTX for the lowest
(``opsdk.kernels.prebuilt_cuda``): the architectures of ``OPSDK_CUDA_ARCHS``, else of the pack's
``[tool.opsdk] cuda-archs``, else ``prebuilt_cuda.DEFAULT_ARCHS``. Without nvcc the wheel still
builds, its CUDA kernels compiled by CuPy on first call as from source, and the build says so.
``BdistWheel`` marks the wheel for its platform and, as cffi's API mode compiles against the
stable ABI, for every CPython 3 from the one that built it on (``cp311-abi3-linux_x86_64``): one
wheel per platform, not per Python version. ``OPSDK_PREBUILD=0`` builds a wheel of sources only
(kernels then compile on first call, as from an sdist). Editable installs compile nothing: their
kernels compile on first call into the cache, from the sources as they are edited.
"""
import logging
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


def declared_cuda_archs(project_dir):
    """The CUDA architectures a pack's pyproject.toml declares (``[tool.opsdk] cuda-archs``, a list
    such as ``["sm_80", "sm_90"]`` or a string), as ``--cuda-archs`` gives them; None if it does not.

    Raises:
        ValueError: the declared value is not a list of architectures.
    """
    path = os.path.join(project_dir, "pyproject.toml")
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            return None
    try:
        with open(path, "rb") as f:
            declared = tomllib.load(f).get("tool", {}).get("opsdk", {}).get("cuda-archs")
    except (OSError, ValueError):
        return None
    if declared is None:
        return None
    from opsdk.env import cuda_archs

    text = declared if isinstance(declared, str) else ",".join(map(str, declared))
    try:
        cuda_archs(text)
    except ValueError as error:
        raise ValueError(f"{path}: [tool.opsdk] cuda-archs = {declared!r} is not valid; expected: {error}") from None
    return text


def prebuild(build_lib, points, cuda_archs=None):
    """Compile the C and CUDA kernels of the packs at entry points ``points`` (``name=module[:attr]``,
    loaded from build_lib in a child process) into build_lib.

    Args:
        cuda_archs: the architectures to compile CUDA kernels for (``"80,90"``; None: the child
            reads OPSDK_CUDA_ARCHS, else builds for ``prebuilt_cuda.DEFAULT_ARCHS``).

    Returns:
        ``(lines, notes)``: the child's report lines, and what it said on the side (such as no
        nvcc: CUDA kernels ship as sources).

    Raises:
        RuntimeError: a module does not import from build_lib, or a kernel does not compile.
    """
    build_lib = os.path.abspath(build_lib)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([build_lib, *filter(None, sys.path)]),
           "OPSDK_LOAD_PLUGINS": "", "PYTHONDONTWRITEBYTECODE": "1"}  # no __pycache__ into the wheel
    # cwd: `-m` puts the working directory first on sys.path, and the project's own copy of the
    # pack (a flat layout) must not shadow the build tree's
    archs = [] if cuda_archs is None else [f"--cuda-archs={cuda_archs}"]
    done = subprocess.run([sys.executable, "-m", "opsdk.prebuild.collect", build_lib, *points, *archs],
                          env=env, cwd=build_lib, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"opsdk: compiling the pack's C kernels for the wheel failed\n"
                           f"{done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.splitlines(), done.stderr.splitlines()


class BuildPy(_build_py):
    """build_py that also compiles the pack's C kernels into the build tree."""

    def run(self):
        super().run()
        if self.editable_mode or not prebuild_enabled():
            return
        points = entry_points(self.distribution)
        if not points:
            return
        from opsdk.env import setting

        archs = None
        if setting("OPSDK_CUDA_ARCHS") is None:  # the builder's variable overrides the pack's choice
            archs = declared_cuda_archs(os.getcwd())  # setuptools builds in the project's folder
        lines, notes = prebuild(self.build_lib, points, archs)
        for line in lines:
            self.announce(line, level=logging.INFO)
        for line in notes:
            self.announce(line, level=logging.WARNING)


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
