"""Tie samples: values repeated bit for bit along the last axis, rows repeated along the first,
and rows of one value."""
from types import SimpleNamespace

import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.samples import TIE, CaseSample, TensorSlot
from opsdk.verification.check.variants.ties import tie_variants


def test_each_tie_sample_repeats_what_it_says():
    op = SimpleNamespace(inputs=[TensorSpec(shape=(4, 6))], sample_fn=None)
    sample = CaseSample("sample 0", (TensorSlot(np.zeros((4, 6)), True),), {}, [0])
    variants = {v.label.split("ties: ")[1]: v.args[0].values
                for v in tie_variants(op, sample, accepts=lambda s: True)}
    assert all(v.kind == TIE for v in tie_variants(op, sample, accepts=lambda s: True))
    last = variants["values repeated along the last axis"]
    assert np.array_equal(last[:, :3], last[:, 3:]) and np.unique(last[:, :3]).size == 12
    rows = variants["rows repeated along the first axis"]
    assert np.array_equal(rows[:2], rows[2:]) and np.unique(rows[:2]).size == 12
    constant = variants["constant rows"]
    assert np.all(constant == constant[:, :1]) and np.unique(constant[:, 0]).size == 4
