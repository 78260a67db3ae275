"""The LLTM C++ extension (pytorch/extension-cpp's, ported) verified as a foreign op: the correct
op passes every check, each planted C++ backward bug is caught with its cause named. The build
(half a minute or more) happens once per test session, in the slow job; the fast test needs no
compiler."""
import sys

import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install opsdk[torch])")
pytestmark = pytest.mark.torch

from opsdk.verification.check import clear_caches, plan_cases, run_checks  # noqa: E402

from . import lltm_cpp, lltm_ops  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_samples():
    """Samples drawn while the extension could not build (the first test) have no derived ones:
    each test draws its own."""
    clear_caches()


def test_declaration_loads_without_compiling_and_a_failed_build_names_the_op(monkeypatch):
    from torch.utils import cpp_extension

    def no_ninja():
        raise RuntimeError("Ninja is required to load C++ extensions")

    monkeypatch.delitem(sys.modules, lltm_cpp.NAME, raising=False)
    monkeypatch.setattr(cpp_extension, "verify_ninja_availability", no_ninja)
    assert lltm_ops.lltm.qualname == "cpp.lltm"
    (result,) = run_checks(plan_cases([lltm_ops.lltm], backends=["python"], checks=["gradcheck"]))
    assert result.status == "error"
    assert "cpp.lltm" in result.detail and "cannot build here" in result.detail


@pytest.mark.slow
def test_correct_extension_passes_every_check(lltm_built):
    results = run_checks(plan_cases([lltm_ops.lltm]))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    passed = {r.check for r in results if r.status == "pass"}
    assert {"gradcheck", "reference", "isolation", "layout", "special_points"} <= passed, [
        (r.check, r.status, r.detail[:200]) for r in results if r.check not in passed]


@pytest.mark.slow
@pytest.mark.parametrize("op, check, words", lltm_ops.BUGS, ids=[b[0].name for b in lltm_ops.BUGS])
def test_planted_cpp_backward_bug_is_caught_naming_the_cause(lltm_built, op, check, words):
    (result,) = run_checks(plan_cases([op], checks=[check]))
    assert result.failed, result.detail
    assert words in result.detail
