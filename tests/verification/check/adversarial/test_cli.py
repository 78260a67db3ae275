"""`opsdk check` over the adversarial pack: every planted bug reported with its cause, no correct
op flagged (seed 0 here; test_seeds.py runs more seeds)."""
import pytest

from .expected import BUGS, CORRECT, missed

# the whole adversarial pack, in both modes (minutes): deselected unless -m slow (tests/conftest.py)
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_is_reported_by_the_check_that_names_its_cause(seed0, name):
    assert name not in missed(seed0), missed(seed0)[name]


@pytest.mark.parametrize("name", CORRECT)
def test_no_correct_op_is_flagged(seed0, name):
    rows = seed0[f"adv.{name}"]
    assert rows == [], "\n\n".join(f"{r['backend']}-{r['dtype']}-{r['check']}:\n{r['detail']}"
                                   for r in rows[:3])


def test_every_class_of_the_issue_has_two_bugs_in_python_and_c_kernels():
    classes = {}
    for name, (cls, _, _) in BUGS.items():
        classes.setdefault(cls, []).append(name)
    assert sorted(classes) == list(range(1, 11))
    assert all(len(names) >= 2 for names in classes.values()), classes
    assert any(n.endswith("_c") for n in BUGS) and any(not n.endswith("_c") for n in BUGS)


def test_results_carry_the_fields_a_renderer_needs(seed0):
    row = seed0["adv.view_output"][0]
    assert row["check"] == "isolation" and row["status"] == "fail"
    assert row["message"].startswith("adv.view_output: output 0 shares memory with input 'x'")
    assert row["replay"] == ("opsdk check adv.view_output --backend python --dtype "
                             f"{row['dtype']} --check isolation --seed 0")


def test_a_report_names_the_ops_own_code_never_the_cli(seed0):
    details = "\n".join(r["detail"] for rows in seed0.values() for r in rows)
    assert "click" not in details and "opsdk/cli" not in details
    assert "bugs_shapes.py" in details


def test_fast_mode_still_catches_the_bugs_it_can_see_cheaply():
    from .conftest import cli_failures

    failed = cli_failures(0, "--fast")
    assert [f"adv.{n}" for n in CORRECT if failed[f"adv.{n}"]] == []
    caught = set(BUGS) - set(missed(failed))
    assert {"inplace_fwd", "grad_inplace_c", "shape_cache", "cube_notail_c", "mul_axis0",
            "reshape_write", "tanhx_nan0", "leaky_hardcoded", "gelu_const_c"} <= caught
