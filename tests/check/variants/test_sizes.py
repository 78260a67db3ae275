import numpy as np

from opsdk.check.samples import CaseSample, TensorSlot
from opsdk.check.variants.sizes import DEFAULT_SIZES, FAST_SIZES, size_variants


def _sample():
    x = TensorSlot(np.linspace(-1, 1, 24).reshape(4, 6), True)
    w = TensorSlot(np.linspace(0.5, 1.5, 6), True)
    return CaseSample("sample 0", (x, [6], w), {"epsilon": 1e-6}, [0])


def test_a_dimension_is_renamed_everywhere_ints_included_with_the_others_set_to_one():
    variants = size_variants(None, _sample(), True, accepts=lambda s: True)
    first = variants[0]
    assert first.args[0].shape == [1, 1] and first.args[1] == [1] and first.args[2].shape == [1]
    rows = [v for v in variants if "(dimension 6 -> " in v.label]
    assert [v.args[0].shape[1] for v in rows] == list(DEFAULT_SIZES)
    assert all(v.args[0].shape[0] == 1 for v in rows)


def test_values_come_from_the_sample_s_own():
    (variant,) = [v for v in size_variants(None, _sample(), False, accepts=lambda s: True)
                  if v.label.endswith("(dimension 6 -> 65)")]
    assert set(variant.args[2].values) <= set(_sample().args[2].values)


def test_a_renaming_the_op_refuses_tries_the_others_kept_then_drops_it():
    def accepts(s):
        return s.args[0].shape[0] == 4  # rows must stay 4
    variants = size_variants(None, _sample(), False, accepts)
    assert {tuple(v.args[0].shape) for v in variants} == {(4, n) for n in FAST_SIZES}
