"""Long-row samples: one row of 65539 nearly equal values (and its short twin of 4099)."""
from types import SimpleNamespace

import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.samples import LONG, CaseSample, TensorSlot
from opsdk.verification.check.variants.long_rows import LONG_ROW, SHORT_ROW, long_variants


def _op():
    return SimpleNamespace(inputs=[TensorSpec(shape=(3, 5))], sample_fn=None)


def _sample():
    return CaseSample("sample 0", (TensorSlot(np.zeros((3, 5), np.float32), True),), {}, [0])


def test_a_float32_run_gets_a_long_row_of_same_signed_nearly_equal_values_and_its_twin():
    (long,) = long_variants(_op(), _sample(), "float32", accepts=lambda s: True)
    assert long.kind == LONG and long.args[0].shape == [1, LONG_ROW]
    assert long.related.args[0].shape == [1, SHORT_ROW]
    values = long.args[0].values
    assert values.min() > 0 and values.max() <= 1.01 * values.min()
    assert np.unique(values).size > LONG_ROW // 2  # nearly equal, hardly ever tied


def test_float64_and_an_op_bounding_its_sizes_get_none():
    assert long_variants(_op(), _sample(), "float64", accepts=lambda s: True) == []
    assert long_variants(_op(), _sample(), "float32", accepts=lambda s: True, limit=4099) == []
