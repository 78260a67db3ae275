"""The HTML report: one self-contained page, a plot per failed gradient check, nothing fetched."""
import re

import pytest
from click.testing import CliRunner

from fixtures.packs import registered
from opsdk.verification.check import plan_cases, run_checks, select_ops
from opsdk.verification.check.render import html as html_report
from opsdk.verification.check.render.html import render_html
from opsdk.verification.check.result import CheckResult
from opsdk.cli import main

pytest.importorskip("matplotlib", reason="the HTML report's plots need matplotlib (opsdk[report])")


@pytest.fixture(scope="module")
def bad_results():
    with registered("bad_pack", "badpack"):
        ops, failures = select_ops(packs=["badpack"])
        yield run_checks(plan_cases(ops), failures)


def failed_gradient_checks(results):
    return [r for r in results if r.check in ("gradcheck", "gradgradcheck") and r.status == "fail"]


@pytest.mark.slow
def test_one_plot_per_failed_gradient_check(bad_results):
    page = render_html(bad_results)
    expected = failed_gradient_checks(bad_results)
    assert len(expected) == 6
    assert page.count('<figure class="plot"><svg') == len(expected)
    for result in expected:
        assert f'id="{result.case_id}"' in page


def test_every_failure_has_its_replay_command(bad_results):
    page = render_html(bad_results)
    for result in (r for r in bad_results if r.failed):
        # full mode is the default, so the replay of a full-mode verdict needs no flag
        assert (f"opsdk check {result.op} --backend {result.backend} --dtype {result.dtype} "
                f"--check {result.check} --seed 0<") in page


def test_the_page_references_nothing_outside_itself(bad_results):
    page = render_html(bad_results)
    links = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', page)
    # internal anchors, and the images matplotlib inlines (a colour bar) as data: URIs
    assert links and all(link.startswith(("#", "data:image/")) for link in links)
    assert not re.search(r"url\((?!#)", page) and "<link" not in page and "@import" not in page


def test_every_op_and_the_summary_are_on_the_page(bad_results):
    page = render_html(bad_results)
    assert "FAILED: 5 ops:" in page
    for op in {r.op for r in bad_results}:
        assert f"<b>{op}</b>" in page


def test_a_loosened_gradient_check_is_plotted_too(bad_results):
    loosened = next(r for r in bad_results if r.op == "badpack.cube_c_factor" and r.check == "gradcheck")
    passed = CheckResult(loosened.op, "python", "float64", "gradcheck", "pass")
    passed.loosened = True  # a field the runner may set: the page shows whatever carries it
    page = render_html([passed])
    assert page.count('<figure class="plot">') == 1 and "(loosened)" in page


def test_a_plot_that_cannot_be_drawn_says_why_and_the_page_still_renders(monkeypatch):
    result = CheckResult("nopack.gone", "python", "float64", "gradcheck", "fail", detail="bad")
    page = render_html([result])
    assert 'class="noplot">no plot: OpNotFoundError' in page


def test_html_without_matplotlib_names_the_extra_before_running(monkeypatch, tmp_path):
    monkeypatch.setattr("opsdk.verification.check.render.plots.missing_dependency",
                        lambda: "--html draws its plots with matplotlib, which is not installed; "
                                f"expected: {html_report.EXTRA}")
    result = CliRunner().invoke(main, ["check", "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert "pip install 'opsdk[report]'" in result.output and not (tmp_path / "r.html").exists()


def test_check_html_writes_the_page(bad_results, tmp_path):
    result = CliRunner().invoke(main, ["check", "badpack.cube_c_factor", "--html",
                                       str(tmp_path / "r.html"), "--no-progress"])
    assert result.exit_code == 1
    assert (tmp_path / "r.html").read_text().count('<figure class="plot">') == 2
