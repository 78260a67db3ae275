"""Kernel outputs handed to frameworks (opsdk.interop.arrays.fresh): fresh memory, C-contiguous,
writable; a new kernel output passes without a copy."""
import numpy as np

from opsdk.interop.arrays import fresh


def test_a_new_output_is_handed_over_without_a_copy():
    x, y = np.arange(4.0), np.arange(4.0) * 2
    (out,) = fresh([y], [x])
    assert out is y


def test_an_input_returned_as_an_output_is_copied():
    x = np.arange(4.0)
    (out,) = fresh([x], [x])
    assert out is not x and not np.may_share_memory(out, x)
    np.testing.assert_array_equal(out, x)


def test_a_view_of_an_input_is_copied():
    x = np.arange(8.0)
    (out,) = fresh([x[2:6]], [x])
    assert not np.may_share_memory(out, x)
    np.testing.assert_array_equal(out, [2.0, 3.0, 4.0, 5.0])


def test_an_output_returned_twice_is_copied_the_second_time():
    y = np.arange(4.0)
    first, second = fresh([y, y], [])
    assert first is y and not np.may_share_memory(second, y)


def test_a_view_of_an_earlier_output_is_copied():
    y = np.arange(6.0)
    first, second = fresh([y, y[::2]], [])
    assert first is y and not np.may_share_memory(second, y)
    assert second.flags.c_contiguous


def test_non_contiguous_and_read_only_outputs_become_contiguous_writable_arrays():
    transposed = np.ones((3, 2)).T
    read_only = np.ones(3)
    read_only.flags.writeable = False
    for out in fresh([transposed, read_only], []):
        assert out.flags.c_contiguous and out.flags.writeable


def test_a_numpy_scalar_becomes_a_zero_dimensional_array():
    (out,) = fresh([np.float64(2.5)], [])
    assert isinstance(out, np.ndarray) and out.shape == () and out == 2.5
