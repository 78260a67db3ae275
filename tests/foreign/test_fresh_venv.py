"""Issue 28's acceptance: `opsdk check --op module:attr` works in a fresh venv holding only opsdk
(no extras) and one framework: torch, JAX or Paddle. Each run installs the framework (about a
minute, hundreds of MB), so the test is `slow`; where pip cannot get the framework (no index
reachable) it is skipped with pip's words. The timings measured are in
docs/verifying-foreign-ops.md ("In a venv holding only one framework and opsdk")."""
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("torch", "jax", "paddle")
# what pip installs beside opsdk: the pins of pyproject.toml's extras
REQUIREMENTS = {"torch": ["torch==2.13.0"], "jax": ["jax>=0.10,<0.11", "jaxlib>=0.10,<0.11"],
                "paddle": ["paddlepaddle==3.3.1"]}
# pip's words when it cannot get a package (an offline machine): a skip, not a failure
UNREACHABLE = ("No matching distribution", "Could not find a version",
               "Failed to establish a new connection", "Temporary failure in name resolution")

# softplus(x, beta) = log(1 + exp(beta x)) / beta, d/dx = sigmoid(beta x); each forward asserts
# that it got the framework's own tensor, so a check not run through the framework cannot pass.
# `softplus_bug`: the same op whose backward forgets beta (fine at beta = 1 only)
MODULES = {
    "torch": """
        import torch

        import opsdk


        def _make(bug):
            class Softplus(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x, beta=1.0):
                    assert isinstance(x, torch.Tensor), type(x)
                    ctx.save_for_backward(x)
                    ctx.beta = beta
                    return torch.nn.functional.softplus(x, beta)

                @staticmethod
                def backward(ctx, dy):
                    (x,) = ctx.saved_tensors
                    return dy * torch.sigmoid((1.0 if bug else ctx.beta) * x), None

            return Softplus.apply
        """,
    "jax": """
        from functools import partial

        import jax
        import jax.numpy as jnp

        import opsdk


        def _make(bug):
            @partial(jax.custom_vjp, nondiff_argnums=(1,))
            def softplus(x, beta=1.0):
                assert isinstance(x, jax.Array), type(x)
                return jnp.logaddexp(0.0, beta * x) / beta

            def fwd(x, beta):
                return softplus(x, beta), x

            def bwd(beta, x, dy):
                return (dy * jax.nn.sigmoid((1.0 if bug else beta) * x),)

            softplus.defvjp(fwd, bwd)
            return softplus
        """,
    "paddle": """
        import paddle
        from paddle.autograd import PyLayer

        import opsdk


        def _make(bug):
            class Softplus(PyLayer):
                @staticmethod
                def forward(ctx, x, beta=1.0):
                    assert isinstance(x, paddle.Tensor), type(x)
                    ctx.save_for_backward(x)
                    ctx.beta = beta
                    return paddle.nn.functional.softplus(x, beta)

                @staticmethod
                def backward(ctx, dy):
                    (x,) = ctx.saved_tensor()
                    return dy * paddle.nn.functional.sigmoid((1.0 if bug else ctx.beta) * x)

            return Softplus.apply
        """,
}
DECLARATIONS = """

def _declare(bug, name):
    return opsdk.foreign_op(_make(bug), framework="{framework}", name=f"fresh.{{name}}",
                            inputs=[opsdk.TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
                            attrs={{"beta": 1.0}}, dtypes=["float64"])


softplus = _declare(False, "softplus")
softplus_bug = _declare(True, "softplus_bug")
"""


def _run(command, cwd, env, timeout):
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return done, time.monotonic() - started


def _clean_env():
    """This process's environment without what would let the venv see our packages."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_check_op_in_a_venv_holding_only_that_framework(framework, tmp_path):
    venv, work = tmp_path / "venv", tmp_path / "work"
    work.mkdir()
    env = _clean_env()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    installed, install_s = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q",
                                 str(ROOT), *REQUIREMENTS[framework]], work, env, 1800)
    if installed.returncode and any(w in installed.stderr for w in UNREACHABLE):
        pytest.skip(f"pip cannot get {framework} here: {installed.stderr.strip()[-300:]}")
    assert installed.returncode == 0, installed.stderr[-3000:]

    # only opsdk's own dependencies and this framework: no other framework, no pytest
    probe = ("import importlib.util as u; print(' '.join(m for m in "
             "('torch', 'jax', 'paddle', 'pytest') if u.find_spec(m)))")
    found = subprocess.run([str(bin_dir / "python"), "-c", probe], cwd=work, env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    assert found == [framework]

    (work / "myops.py").write_text(textwrap.dedent(MODULES[framework]).lstrip()
                                   + DECLARATIONS.format(framework=framework))
    opsdk_cli = str(bin_dir / "opsdk")
    ok, check_s = _run([opsdk_cli, "check", "--op", "myops:softplus", "--no-progress"],
                       work, env, 600)
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-3000:]
    assert "ok    fresh.softplus" in ok.stdout and " 0 failed, 0 errors" in ok.stdout
    bug, _ = _run([opsdk_cli, "check", "--op", "myops:softplus_bug", "--no-progress",
                   "--check", "gradcheck"], work, env, 600)
    assert bug.returncode == 1, bug.stdout[-3000:] + bug.stderr[-3000:]
    assert "FAIL  fresh.softplus_bug" in bug.stdout and "beta=" in bug.stdout
    print(f"\n{framework}: venv + pip install {install_s:.0f} s; opsdk check --op {check_s:.1f} s;"
          f"\n{ok.stdout.strip()}")
