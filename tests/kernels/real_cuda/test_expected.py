"""expected.py stays true to the sources: every planted edit applies, every faulting line is where it says.

Fast (no simulator): these run in the default suite, so a change to a shipped .cu file that
moves a line shows here rather than as a wrong verdict in the slow matrix.
"""
import os

import pytest

from . import expected, harness

REACHABLE = [b for b in expected.BUGS if b.reachable]


@pytest.mark.parametrize("bug", expected.BUGS, ids=lambda b: b.id)
def test_bug_edits_apply_and_fault_line_holds_the_faulting_statement(bug, tmp_path):
    path = harness.variant_source(bug, str(tmp_path), workaround=False)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    assert len(lines) == len(harness.shipped_lines(bug.cu)), "an edit must keep the line count"
    if bug.fault is not None:
        assert bug.fault_text in lines[bug.fault - 1], f"line {bug.fault} of {os.path.basename(path)}"


@pytest.mark.parametrize("cu", sorted(expected.WORKAROUNDS))
def test_workarounds_apply_to_the_shipped_sources(cu, tmp_path):
    lines = harness.apply_edits(harness.shipped_lines(cu), expected.WORKAROUNDS[cu], cu)
    assert len(lines) == len(harness.shipped_lines(cu))


@pytest.mark.parametrize("cls", sorted(expected.CLASSES))
def test_every_bug_class_has_at_least_two_reachable_instances(cls):
    assert sum(1 for b in REACHABLE if b.cls == cls) >= 2


def test_entry_ids_are_unique_and_name_known_modules():
    ids = [e.id for e in expected.CORRECT + expected.BUGS]
    assert len(ids) == len(set(ids))
    for entry in expected.CORRECT + expected.BUGS:
        assert os.path.exists(os.path.join(harness.CUDA_DIR, f"{entry.module}.cu")) or entry.cu
        assert hasattr(harness.pack_module(entry.module), "calls")
