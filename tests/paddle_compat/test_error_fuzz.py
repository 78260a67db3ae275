"""The bad-input fuzz (error_fuzz) against PaddlePaddle 3.3.1: every case agrees or raises in
Paddle's built-in family, but for the noted ones (Paddle crashes or returns garbage there)."""
import pytest

from helpers.frameworks import import_paddle

from . import error_fuzz


@pytest.mark.slow
def test_every_bad_input_case_agrees_with_paddle_or_raises_in_its_family():
    import_paddle()
    rows = error_fuzz.run_all()
    assert len(rows) == len(error_fuzz.CASES) > 700
    mismatches = [f"{name}: {reason}" for name, verdict, reason in rows if verdict == "mismatch"]
    assert not mismatches, "\n".join(mismatches)
    noted = {name for name, verdict, _ in rows if verdict == "noted"}
    # a note that no longer applies (Paddle now refuses, or opsdk now accepts) is stale
    assert noted == set(error_fuzz.NOTED), sorted(set(error_fuzz.NOTED) - noted)


def test_the_cases_have_distinct_names_and_the_notes_name_cases():
    names = [name for name, _ in error_fuzz.CASES]
    assert len(names) == len(set(names))
    assert set(error_fuzz.NOTED) <= set(names)
