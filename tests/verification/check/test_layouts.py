import numpy as np
import pytest

from opsdk.verification.check.layouts import (CONTIGUOUS, NEGATIVE, NONCONTIGUOUS, PERMUTED, STRIDED,
                                 TRANSPOSED, applies, arrange)


@pytest.mark.parametrize("layout", NONCONTIGUOUS)
def test_every_layout_keeps_the_values_and_loses_c_order(layout):
    values = np.arange(24.0).reshape(2, 3, 4)
    laid = arrange(values, layout)
    assert np.array_equal(laid, values) and not laid.flags.c_contiguous


def test_transposed_is_fortran_order_and_negative_walks_backwards():
    values = np.arange(12.0).reshape(3, 4)
    assert arrange(values, TRANSPOSED).flags.f_contiguous
    assert all(s < 0 for s in arrange(values, NEGATIVE).strides)


def test_a_layout_applies_only_where_it_changes_the_memory_order():
    assert not applies(TRANSPOSED, (5,)) and applies(TRANSPOSED, (2, 3))
    assert not applies(PERMUTED, (2, 3)) and applies(PERMUTED, (2, 3, 4))
    assert not applies(STRIDED, (1, 1)) and applies(NEGATIVE, (3,))


def test_contiguous_and_zero_d_arrays_stay_as_they_are():
    scalar = arrange(np.array(2.0), STRIDED)
    assert scalar.shape == () and arrange(np.ones((2, 2)), CONTIGUOUS).flags.c_contiguous
