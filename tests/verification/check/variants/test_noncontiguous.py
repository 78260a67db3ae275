import numpy as np

from opsdk.verification.check.samples import CaseSample, TensorSlot
from opsdk.verification.check.variants.noncontiguous import layout_variants


def _sample(*shapes):
    return CaseSample("sample 0", tuple(TensorSlot(np.ones(s), True) for s in shapes), {}, [0])


def test_full_mode_lays_every_input_out_in_every_layout_that_applies():
    labels = [v.label for v in layout_variants(_sample((2, 3, 4), (4,)), full=True)]
    assert labels == ["sample 0, transposed", "sample 0, permuted", "sample 0, strided",
                      "sample 0, negative"]
    transposed = layout_variants(_sample((2, 3, 4), (4,)), True)[0]
    assert [s.layout for s in transposed.args] == ["transposed", "contiguous"]


def test_fast_mode_keeps_transposed_and_negative_and_strided_only_for_one_axis():
    assert [v.label for v in layout_variants(_sample((2, 3)), False)] == [
        "sample 0, transposed", "sample 0, negative"]
    assert [v.label for v in layout_variants(_sample((5,)), False)] == [
        "sample 0, strided", "sample 0, negative"]
