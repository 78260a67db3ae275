"""One Markdown file's blocks, run in order as a reader would: in a scratch directory, with a
throw-away venv that sees this interpreter's packages, so `pip install` in a doc installs there
(offline) and `opsdk`, `pytest`, `python` are that venv's."""
import json
import os
import subprocess
from pathlib import Path

import opsdk
from helpers.venvs import venv_seeing_this_interpreter

from .markdown_blocks import console_commands, output_matches

HERE = Path(__file__).resolve().parent
TIMEOUT = 600

# pip here must not reach an index or build in isolation: it sees this interpreter's setuptools
_PIP = """#!/bin/sh
case "$1" in
  install|wheel|download) cmd="$1"; shift
    exec "{python}" -m pip "$cmd" --no-index --no-build-isolation --no-cache-dir --disable-pip-version-check "$@";;
esac
exec "{python}" -m pip "$@"
"""
_MODULE = '#!/bin/sh\nexec "{python}" -m {module} "$@"\n'
# the console script, named so (click's usage lines say "opsdk"), run by the docs venv's python
_OPSDK = '#!/bin/sh\nexec "{python}" -c "import sys; sys.argv[0] = \'opsdk\'; from opsdk.cli import main; main()" "$@"\n'


class BlockFailed(AssertionError):
    """A block did not run as documented; the message says which block and what happened."""


class DocSession:
    """Runs the blocks of one file, in order, sharing a working directory, environment and
    Python namespace between them."""

    # the scratch directory the blocks run in, as console outputs show it
    SHOWN_WORK = "~/work"

    def __init__(self, doc, scratch):
        self.doc = Path(doc)
        self.scratch = Path(scratch)
        self.work = self.scratch / "work"
        self.state = self.scratch / "state"
        self.work.mkdir(parents=True)
        self.state.mkdir()
        self.python = venv_seeing_this_interpreter(self.scratch / "venv")
        self._see_the_opsdk_under_test()
        self._shims(Path(self.python).parent)
        self.env = self._environment(Path(self.python).parent)
        (self.state / "cwd").write_text(str(self.work))
        self._driver = None
        self._count = 0

    def _see_the_opsdk_under_test(self):
        """The docs run the opsdk these tests import (a checkout under test), before any other
        one this interpreter's site directories hold (an install elsewhere): a .pth first in line."""
        purelib = subprocess.run([self.python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        # a folder holding only the package: the checkout's other folders (tests/) stay out of sight
        under_test = self.scratch / "opsdk-under-test"
        under_test.mkdir()
        (under_test / "opsdk").symlink_to(Path(opsdk.__file__).resolve().parent, target_is_directory=True)
        with open(os.path.join(purelib, "_opsdk_under_test.pth"), "w", encoding="utf-8") as f:
            f.write(f"import sys; sys.path.insert(0, {str(under_test)!r})\n")

    def _shims(self, bin_dir):
        shims = {"pip": _PIP.format(python=self.python),
                 "opsdk": _OPSDK.format(python=self.python),
                 "pytest": _MODULE.format(python=self.python, module="pytest")}
        for name, text in shims.items():
            path = bin_dir / name
            path.write_text(text)
            path.chmod(0o755)

    def _environment(self, bin_dir):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTEST_", "OPSDK_", "PIP_")) and k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(bin_dir.parent),
                   OPSDK_CACHE_DIR=str(self.scratch / "kernel-cache"), PYTHONDONTWRITEBYTECODE="1",
                   COLUMNS="100")
        return env

    @property
    def cwd(self):
        return (self.state / "cwd").read_text().strip()

    # -- blocks ------------------------------------------------------------------------------

    def run(self, block):
        """Run (or write out) one block; BlockFailed when it does not behave as documented."""
        kind = block.runs
        if kind == "file":
            target = Path(self.cwd, block.marker[1])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.code, encoding="utf-8")
        elif kind == "python":
            self._python(block)
        elif kind == "shell":
            self._shell(block, "set -e\n" + block.code)
        elif kind == "console":
            for command, documented in console_commands(block.code):
                output = self._shell(block, command).replace(str(self.work), self.SHOWN_WORK)
                for line in documented:
                    if line.startswith("exit code:") and line not in output.splitlines():
                        raise BlockFailed(f"{block.where}: `{command}` printed no '{line}'; output:\n{output}")
                if not output_matches(documented, output):
                    shown = "\n".join(documented)
                    raise BlockFailed(f"{block.where}: `{command}` printed other than the doc shows.\n"
                                      f"shown:\n{shown}\nprinted:\n{output}")

    def _shell(self, block, script):
        """Run script with bash in the session's cwd and environment; its output, or BlockFailed."""
        env_file, cwd_file = self.state / "env", self.state / "cwd"
        prologue = f'[ -f "{env_file}" ] && . "{env_file}"; cd "$(cat "{cwd_file}")" || exit 97\n'
        epilogue = f'\n__s=$?; export -p > "{env_file}"; pwd > "{cwd_file}"; exit $__s\n'
        # one stream, as a terminal shows it: an error line stands where it was printed
        done = subprocess.run(["bash", "-o", "pipefail", "-c", prologue + script + epilogue],
                              env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=TIMEOUT)
        output = done.stdout
        if done.returncode != 0:
            raise BlockFailed(f"{block.where}: exit status {done.returncode} from:\n{script}\n"
                              f"output:\n{output}")
        return output

    def _python(self, block):
        if self._driver is None:
            self._start_driver()
        self._count += 1
        path = self.state / f"block{self._count}.py"
        path.write_text(block.code, encoding="utf-8")
        request = {"path": str(path), "cwd": self.cwd, "line": block.line, "doc": str(block.path)}
        self._driver.stdin.write(json.dumps(request) + "\n")
        self._driver.stdin.flush()
        line = self._answers.readline()
        if not line:
            raise BlockFailed(f"{block.where}: the Python process died; output:\n{self._log()}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise BlockFailed(f"{block.where}: the block raised:\n{answer['error']}\noutput:\n{self._log()}")

    def _start_driver(self):
        read, write = os.pipe()
        self._log_file = open(self.state / "python.log", "w+", encoding="utf-8")
        env = {**self._shell_env(), "DOCS_RESULT_FD": str(write)}
        self._driver = subprocess.Popen([self.python, str(HERE / "python_driver.py")], stdin=subprocess.PIPE,
                                        stdout=self._log_file, stderr=subprocess.STDOUT, text=True,
                                        env=env, pass_fds=(write,), cwd=self.cwd)
        os.close(write)
        self._answers = os.fdopen(read, encoding="utf-8")

    def _shell_env(self):
        """The environment as the shell blocks left it (a doc may activate a venv, export a variable)."""
        env_file = self.state / "env"
        if not env_file.exists():
            return dict(self.env)
        done = subprocess.run(["bash", "-c", f'. "{env_file}"; env -0'], env=self.env,
                              capture_output=True, check=True)
        return dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)

    def _log(self):
        self._log_file.flush()
        self._log_file.seek(0)
        return self._log_file.read()[-4000:]

    def close(self):
        if self._driver is not None:
            self._driver.stdin.close()
            try:
                self._driver.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._driver.kill()
            self._answers.close()
            self._log_file.close()
