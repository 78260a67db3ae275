import numpy as np

from opsdk.check.samples import STRIDED, CaseSample, TensorSlot
from opsdk.check.variants import broadcast_variants, noncontiguous_variant


class _Op:
    class function:
        @staticmethod
        def forward(ctx, x, y):
            return x


def _binary():
    x = TensorSlot(np.ones((3, 4)), True)
    y = TensorSlot(np.full((3, 4), 2.0), True)
    return CaseSample("sample 0", (x, y), {}, [0])


def test_fast_mode_shrinks_the_second_input_to_one_row():
    (variant,) = broadcast_variants(_binary(), _Op, full=False)
    assert variant.label == "sample 0, broadcast y[1, 4]"
    assert variant.args[1].shape == [1, 4] and variant.args[0].shape == [3, 4]


def test_full_mode_also_drops_the_leading_axis_of_the_first_input():
    labels = [v.label for v in broadcast_variants(_binary(), _Op, full=True)]
    assert labels == ["sample 0, broadcast y[1, 4]", "sample 0, broadcast x[4]"]


def test_unary_or_differently_shaped_inputs_get_no_broadcast_sample():
    x = TensorSlot(np.ones((3, 4)), True)
    w = TensorSlot(np.ones((4, 2)), True)
    assert broadcast_variants(CaseSample("s", (x,), {}, [0]), _Op, full=True) == []
    assert broadcast_variants(CaseSample("s", (x, w), {}, [0]), _Op, full=True) == []


def test_noncontiguous_variant_strides_every_tensor_with_several_elements():
    (variant,) = noncontiguous_variant(_binary())
    assert variant.label == "sample 0, non-contiguous"
    assert all(a.layout == STRIDED for a in variant.args)


def test_single_element_tensors_get_no_noncontiguous_variant():
    x = TensorSlot(np.ones(()), True)
    assert noncontiguous_variant(CaseSample("s", (x,), {}, [0])) == []
