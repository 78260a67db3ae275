"""Checks of the differential harness that run without PaddlePaddle: every program runs under
opsdk and yields comparable observations; the comparison finds what it should."""
import numpy as np
import pytest

import opsdk

from .harness import Raised, attempt, differences, judge, normalize, observe
from .programs import PROGRAMS, Program, load_all

load_all()


def test_there_are_about_two_hundred_programs_covering_every_item_of_issue_14():
    items = {p.item for p in PROGRAMS.values()}
    assert len(PROGRAMS) >= 200
    assert {str(i) for i in range(1, 14)} <= items
    assert {"names", "seed", "amp"} <= items


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_runs_under_opsdk_to_plain_observations(name):
    out = observe(PROGRAMS[name], opsdk)
    assert isinstance(out, (dict, Raised))


def test_normalize_records_value_dtype_shape_and_flags():
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    got = normalize({"y": x * 2})["y"]
    assert got["dtype"] == "float32" and got["shape"] == [2]
    assert got["stop_gradient"] is False and got["is_leaf"] is False
    np.testing.assert_array_equal(got["value"], [2.0, 4.0])


def test_differences_compare_flags_values_and_exception_families():
    a = normalize({"t": opsdk.to_tensor([1.0, 2.0])})
    b = normalize({"t": opsdk.to_tensor([1.0, 2.5])})
    assert differences(a, a) == []
    assert differences(a, b) == ["result.t.value: paddle [1.0, 2.0], opsdk [1.0, 2.5]"]
    v = attempt(lambda: (_ for _ in ()).throw(ValueError("x")))
    t = attempt(lambda: (_ for _ in ()).throw(TypeError("x")))
    assert differences({"e": v}, {"e": v}) == []
    assert "not a ValueError" in differences({"e": v}, {"e": t})[0]
    assert differences({"e": v}, {"e": None})


def test_an_opsdk_error_counts_as_the_builtin_it_also_is():
    ours = attempt(lambda: opsdk.optimizer.SGD(parameters=opsdk.ones([1])))
    assert differences({"e": attempt(lambda: (_ for _ in ()).throw(TypeError()))},
                       {"e": ours}) == []


def test_judge_checks_documented_differences_stay_exact():
    prog = Program(lambda p: None, "x", (["a"], "why"), 1e-5, 1e-6)
    assert judge(prog, {"a": 1, "b": 2}, {"a": 3, "b": 2})[0] == "documented"
    assert judge(prog, {"a": 1, "b": 2}, {"a": 3, "b": 4})[0] == "stray"
    assert judge(prog, {"a": 1}, {"a": 1})[0] == "stale"
