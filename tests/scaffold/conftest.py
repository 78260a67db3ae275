"""Fixtures for scaffolding tests: template trees, packs made by new-pack, packs run in subprocesses."""
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import opsdk
from helpers.venvs import venv_seeing_this_interpreter
from opsdk.cli import main
from opsdk.scaffold import ANSWERS_FILE, plan_op, plan_pack, write_plan


@pytest.fixture
def template_tree(tmp_path):
    """Factory: ``template_tree({"a/{{ x }}.txt.jinja": "..."})`` writes the files, returns the root."""
    def make(files):
        root = tmp_path / "tpl"
        for path, text in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        return root

    return make


@pytest.fixture
def pack_dir(tmp_path):
    """A pack made by new-pack (not installed), as ``tmp_path/packdemo``."""
    root = tmp_path / "packdemo"
    write_plan(plan_pack("packdemo", root))
    return root


@pytest.fixture
def add_op(pack_dir):
    """Factory: add an op to ``pack_dir`` the way new-op does; returns the written paths."""
    def add(name, backends=("python",), force=False):
        return write_plan(plan_op(name, pack_dir, backends, force), force)

    return add


REPO = Path(opsdk.__file__).resolve().parent.parent


def plugin_args():
    """``-p`` for opsdk's pytest plugin where its ``pytest11`` entry point is not installed (a checkout)."""
    plugins = importlib.metadata.entry_points(group="pytest11")
    if any(ep.value == "opsdk.testing.pytest_plugin" for ep in plugins):
        return []
    return ["-p", "opsdk.testing.pytest_plugin"]


@pytest.fixture(scope="session")
def kernel_cache(tmp_path_factory):
    """One private OPSDK_CACHE_DIR for the generated packs' C kernels (never the user's cache)."""
    return tmp_path_factory.mktemp("opsdk-cache")


class GeneratedPack:
    """A pack made with the real CLI, installed by an entry point on a private path, run in subprocesses."""

    def __init__(self, root, name, cache, site):
        self.root, self.name, self.cache, self.site = root, name, cache, site

    def cli(self, *args):
        """Run ``opsdk ARGS`` in-process (the click command), in the pack's directory."""
        return _invoke_in(self.root, args)

    def install(self):
        """What `pip install -e` leaves behind: a .dist-info with the entry point, and src/ on the path."""
        answers = json.loads((self.root / ANSWERS_FILE).read_text())["pack"]
        info = self.site / f"{answers['distribution'].replace('-', '_')}-0.1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {answers['distribution']}\n"
                                       "Version: 0.1.0\n")
        (info / "entry_points.txt").write_text(f"[opsdk]\n{self.name} = {answers['package']}\n")

    def env(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(self.site), str(self.root / "src")])
        env["OPSDK_CACHE_DIR"] = str(self.cache)
        # packs installed on this machine stay out of the way of the one under test
        env["OPSDK_LOAD_PLUGINS"] = self.name
        env.pop("OPSDK_BACKEND", None)
        return env

    def run(self, *command, timeout=300):
        """Run ``python COMMAND...`` in the pack's directory; returns the CompletedProcess."""
        return subprocess.run([sys.executable, *command], cwd=self.root, env=self.env(),
                              capture_output=True, text=True, timeout=timeout)

    def pytest(self, *args):
        # no Hypothesis plugin: none of a generated pack's tests uses it, and its import is about
        # half of a child pytest's start-up
        return self.run("-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                        *plugin_args(), *args)

    def pip_install_editable(self, venv):
        """`pip install -e` of the pack into a new virtual environment at ``venv``, as a user would.

        Returns:
            ``(python, env)``: the venv's interpreter and the environment to run it with.
        """
        # the venv sees this interpreter's packages (pip, setuptools, numpy, pytest) but installs into itself
        python = venv_seeing_this_interpreter(venv)
        installed = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                                    "--no-build-isolation", "--editable", str(self.root)],
                                   env=self.env(), capture_output=True, text=True, timeout=300)
        assert installed.returncode == 0, installed.stdout + installed.stderr
        return python, {**self.env(), "PYTHONPATH": str(self.env()["PYTHONPATH"]).split(os.pathsep)[0]}


def _invoke_in(folder, args):
    """Invoke the opsdk CLI with ``args`` with ``folder`` as the working directory."""
    old = os.getcwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


@pytest.fixture
def generated_pack(tmp_path, kernel_cache):
    """Factory: ``generated_pack(name, {op: backends or new-op options})``: new-pack, then new-op per op."""
    def make(name, ops):
        made = _invoke_in(tmp_path, ["new-pack", name])
        assert made.exit_code == 0, made.output
        pack = GeneratedPack(tmp_path / name, name, kernel_cache, tmp_path / "site")
        for op, backends in ops.items():
            # backends, or the new-op options themselves (--formula ..., --kind ...)
            options = [b if b.startswith("--") else f"--backend={b}" for b in backends]
            if any(b.startswith("--") for b in backends):
                options = list(backends)
            args = ["new-op", op] + options
            added = pack.cli(*args)
            assert added.exit_code == 0, added.output
        return pack

    return make
