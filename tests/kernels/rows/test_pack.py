"""`opsdk check` over the rows test pack (RMSNorm, LayerNorm, softmax written with Rows): every
check passes on python, on the written C, and on the written CUDA under the simulator."""
import json

import pytest
from click.testing import CliRunner

from opsdk.cli import main

from .pack import MODULES, registered


def check(*args):
    with registered():
        result = CliRunner().invoke(main, ["check", "--pack", "rows", "--json", *args], catch_exceptions=False)
    rows = json.loads(result.output)["results"]
    failed = [f"{r['op']} {r['backend']} {r['dtype']} {r['check']}: {r['message']}" for r in rows
              if r["status"] in ("fail", "error", "blocked")]
    return result.exit_code, failed, {(r["op"], r["backend"]) for r in rows if r["status"] == "pass"}


@pytest.mark.slow
def test_opsdk_check_passes_on_python_and_c():
    code, failed, ran = check("--backend", "python", "--backend", "c")
    assert (code, failed) == (0, [])
    assert ran == {(f"rows.{m}", b) for m in MODULES for b in ("python", "c")}


@pytest.mark.slow
def test_opsdk_check_passes_on_cuda_simulated(monkeypatch):
    monkeypatch.setenv("OPSDK_CUDA_SIM", "1")
    code, failed, ran = check("--backend", "cuda", "--simulate")
    assert (code, failed) == (0, [])
    assert ran == {(f"rows.{m}", "cuda") for m in MODULES}
