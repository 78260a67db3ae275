"""Deriving a formula in a child process: its answer comes back, and its time is bounded."""
import time

import pytest

from opsdk.errors import FormulaError
from opsdk.scaffold.formula import formula_context
from opsdk.scaffold.formula.worker import bounded_formula_context

pytest.importorskip("sympy")


def test_the_child_answers_what_the_formula_context_is_in_this_process():
    made = bounded_formula_context("soft", "log(1 + exp(beta * x))", attrs={"beta": 2.0}, backends=("python", "c"))
    here = formula_context("soft", "log(1 + exp(beta * x))", attrs={"beta": 2.0}, backends=("python", "c"))
    assert made["python"] == here["python"] and made["c_bodies"] == here["c_bodies"]
    assert [tuple(a) for a in made["attrs"]] == here["attrs"] and made["domain"] == here["domain"]


def test_a_refusal_in_the_child_is_the_same_formula_error():
    with pytest.raises(FormulaError, match="SymPy makes part of it zoo"):
        bounded_formula_context("bad", "x + 1/0")


def test_a_refusal_sympy_is_not_needed_for_comes_without_a_child(monkeypatch):
    monkeypatch.setattr("subprocess.run", lambda *a, **k: pytest.fail("a child was started"))
    with pytest.raises(FormulaError, match="beyond float64"):
        bounded_formula_context("big", "x * 1e400")


def test_a_child_past_its_time_is_stopped_and_named():
    started = time.perf_counter()
    with pytest.raises(FormulaError, match=r"took longer than 0\.05 s and was stopped.*OPSDK_FORMULA_TIMEOUT"):
        bounded_formula_context("slow", "x * tanh(log(1 + exp(x)))", timeout=0.05)
    assert time.perf_counter() - started < 10
