"""`opsdk check` over the outsider's pack: every planted bug reported by the check that names its
cause, no correct op flagged (seed 0 here; test_seeds.py runs seed 1, run_pack.py more)."""
import pytest

from .expected import BUGS, CORRECT, missed

# the whole outsider pack (minutes): deselected unless -m slow (tests/conftest.py)
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_bug_is_reported_with_its_cause(outsider_seed0, name):
    assert name not in missed(outsider_seed0), missed(outsider_seed0)[name]


@pytest.mark.parametrize("name", CORRECT)
def test_no_correct_op_is_flagged(outsider_seed0, name):
    rows = outsider_seed0[f"out.{name}"]
    assert rows == [], "\n\n".join(f"{r['backend']}-{r['dtype']}-{r['check']}:\n{r['detail']}"
                                   for r in rows[:3])


def test_every_class_has_two_bugs_and_twelve_correct_ops_stand_beside_them():
    classes = {}
    for name, (cls, _, _) in BUGS.items():
        classes.setdefault(cls, []).append(name)
    assert len(BUGS) >= 30 and len(CORRECT) >= 12
    assert all(len(names) >= 2 for names in classes.values()), classes
    assert any(n.endswith("_c") for n in BUGS) and any(not n.endswith("_c") for n in BUGS)


def test_every_op_of_the_pack_is_a_bug_or_a_correct_op(outsider_seed0):
    assert {op.split(".", 1)[1] for op in outsider_seed0} == set(BUGS) | set(CORRECT)


def test_reports_name_the_ops_own_code_never_the_cli_or_the_verifier(outsider_seed0):
    details = "\n".join(r["detail"] for rows in outsider_seed0.values() for r in rows)
    assert "click" not in details and "opsdk/cli" not in details
    assert "kernels/unwritten.py" not in details and "opsdk/verification/" not in details
    assert "int_row_bugs.py" in details or "broadcast_bugs.py" in details
