"""The HTML report in a real browser: it loads offline, without a console message, with one plot
per failed gradient check; also when `opsdk check --html` runs outside this project."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.packs import registered
from helpers.chromium import find_chromium, render
from helpers.fake_dist import install_pack
from opsdk.verification.check import plan_cases, run_checks, select_ops
from opsdk.verification.check.render.html import write_html

pytest.importorskip("matplotlib", reason="the HTML report's plots need matplotlib (opsdk[report])")
pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="headless Chromium is not installed (Debian: apt-get install chromium)")

REPO = Path(__file__).resolve().parents[4]

WRONG_PACK = '''
import opsdk
from opsdk import TensorSpec, hookimpl


class SinTooSteep(opsdk.PyLayer):
    """sin(x), whose backward is 10% too steep."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return opsdk.sin(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return dy * opsdk.cos(x) * 1.1


class AddForgetsBroadcast(opsdk.PyLayer):
    """x + y, whose backward hands y the gradient of its first row only."""

    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, dz):
        return dz, dz[0:1]


@hookimpl
def register_ops(register):
    register(SinTooSteep, name="sin_steep", inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))])
    register(AddForgetsBroadcast, name="add_rows",
             inputs=[TensorSpec(shape=(3, 4)), TensorSpec(shape=(1, 4))])
'''


def _plots(dom):
    return dom.count('<figure class="plot"><svg')


def test_the_page_loads_without_console_messages_with_one_plot_per_failure(tmp_path):
    with registered("bad_pack", "badpack"):
        ops, failures = select_ops(packs=["badpack"])
        results = run_checks(plan_cases(ops), failures)
        write_html(tmp_path / "report.html", results)
    expected = sum(r.check in ("gradcheck", "gradgradcheck") and r.status == "fail" for r in results)
    dom, console = render(tmp_path / "report.html")
    assert console == []
    assert _plots(dom) == expected == 6
    assert f'data-plots-shown="{expected}"' in dom  # the page's script ran to its end


@pytest.mark.slow
def test_check_html_outside_the_project_over_a_failing_pack(tmp_path):
    install_pack(tmp_path / "site", "opsdk-wrongpack", "wrongpack", "wrongpack", WRONG_PACK)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "OPSDK_LOAD_PLUGINS": "wrongpack", "OPSDK_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(REPO)])}
    done = subprocess.run([sys.executable, "-m", "opsdk.cli", "check", "--pack", "wrongpack", "--json",
                           "--html", "report.html"], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 1, done.stderr
    results = json.loads(done.stdout)["results"]
    failed = [r for r in results if r["check"] in ("gradcheck", "gradgradcheck") and r["status"] == "fail"]
    assert {r["op"] for r in failed} == {"wrongpack.sin_steep", "wrongpack.add_rows"}
    dom, console = render(work / "report.html")
    assert console == []
    assert _plots(dom) == len(failed)
    assert f'data-plots-shown="{len(failed)}"' in dom
    assert "no plot:" not in dom


def test_the_browser_check_sees_a_script_error(tmp_path):
    # the checks above mean something only if a broken page is caught
    page = tmp_path / "broken.html"
    page.write_text("<!doctype html><html><body><script>undefinedFunction();</script></body></html>")
    _, console = render(page)
    assert any("undefinedFunction is not defined" in message for message in console)
