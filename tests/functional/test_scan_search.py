"""cummax, cummin, msort, searchsorted, bucketize, argwhere, histogram_bin_edges,
unique_consecutive, add_n: values, index dtypes, Paddle's picks among equal values and the
gradients to them, against Paddle where installed; errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

TIED = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [5.0, 1.0, 5.0, 0.0, 0.0]])

test_values_and_gradients_match_paddle = paddle_cases({
    "cummax_ties": (lambda P, x: P.cummax(x, axis=1), [TIED]),
    "cummin_ties": (lambda P, x: P.cummin(x, axis=-1), [TIED]),
    "cummax_axis0": (lambda P, x: x.cummax(0), [signed(3, 4)]),
    "cummin_flat": (lambda P, x: P.cummin(x), [TIED]),
    "cummax_int32": (lambda P, x: P.cummax(x, axis=1, dtype="int32"), [TIED]),
    "cummax_0d": (lambda P, x: P.cummax(x), [np.array(2.5)]),
    "msort": (lambda P, x: P.msort(x), [TIED]),
    "add_n": (lambda P, x, y: P.add_n([x, y, x]), [signed(2, 3), signed(2, 3, seed=1)]),
    "add_n_one": (lambda P, x: P.add_n(x) * 2, [signed(2, 3)]),
})

INDEX_CASES = {
    "searchsorted": (lambda P, s, v: P.searchsorted(s, v), [np.array([1.0, 3.0, 5.0]),
                                                            np.array([[0.0, 3.0], [6.0, 5.0]])]),
    "searchsorted_right_2d": (lambda P, s, v: P.searchsorted(s, v, right=True, out_int32=True),
                              [np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]),
                               np.array([[3.0, 4.0], [4.0, 9.0]])]),
    "searchsorted_0d": (lambda P, s, v: P.searchsorted(s, v), [np.array([1.0, 3.0]),
                                                               np.array(3.0)]),
    "bucketize": (lambda P, x, s: x.bucketize(s, right=True), [np.array([0.0, 3.0, 6.0]),
                                                               np.array([1.0, 3.0, 5.0])]),
    "argwhere": (lambda P, x: P.argwhere(x > 2), [TIED]),
    "edges": (lambda P, x: P.histogram_bin_edges(x, bins=4), [TIED]),
    "edges_range": (lambda P, x: x.histogram_bin_edges(bins=3, min=-1.0, max=2.0), [TIED]),
    "edges_flat": (lambda P, x: P.histogram_bin_edges(x, bins=2), [np.array([1.0, 1.0])]),
    "unique_consecutive": (lambda P, x: P.unique_consecutive(
        x, return_inverse=True, return_counts=True), [np.array([1.0, 1.0, 2.0, 2.0, 3.0, 1.0])]),
    "unique_consecutive_axis": (lambda P, x: x.unique_consecutive(axis=0, return_counts=True),
                                [np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 3.0]])]),
}


@pytest.mark.paddle
@pytest.mark.parametrize("case", INDEX_CASES)
def test_index_results_match_paddle(case):
    fn, arrays = INDEX_CASES[case]
    assert_same_as_paddle(fn, arrays, diff=())


def test_the_gradient_goes_to_the_picked_positions_and_adds_up():
    x = opsdk.to_tensor(TIED, stop_gradient=False)
    v, i = opsdk.cummax(x, axis=1)
    assert not i.stop_gradient and i.dtype == opsdk.int64
    (g,) = opsdk.grad((v * opsdk.arange(10, dtype="float64").reshape([2, 5])).sum(), x)
    assert g.numpy().tolist() == [[0.0, 1.0, 2.0 + 3.0, 0.0, 4.0], [5.0 + 6.0, 0.0, 7.0 + 8.0 + 9.0,
                                                              0.0, 0.0]]


def test_cummax_and_cummin_gradients_to_second_order():
    assert_gradients(lambda x: opsdk.cummax(x, axis=1)[0] ** 2, [signed(2, 4)])
    assert_gradients(lambda x: opsdk.cummin(x)[0] ** 2, [signed(2, 4)])


def test_docstring_examples_run():
    import doctest
    from opsdk.functional import scan_search
    result = doctest.testmod(scan_search, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("call, error", [
    (lambda: opsdk.cummax(opsdk.ones([2]), dtype="float32"), DTypeError),
    (lambda: opsdk.cummin(opsdk.ones([2]), axis=3), OpArgumentError),
    (lambda: opsdk.argwhere(opsdk.to_tensor(1.0)), ShapeError),
    (lambda: opsdk.bucketize(opsdk.ones([2]), opsdk.ones([2, 2])), ShapeError),
    (lambda: opsdk.searchsorted(opsdk.ones([2, 3]), opsdk.ones([3, 1])), ShapeError),
    (lambda: opsdk.histogram_bin_edges(opsdk.ones([2]), min=2.0, max=1.0), OpArgumentError),
    (lambda: opsdk.add_n([opsdk.ones([2]), opsdk.ones([3])]), ShapeError),
    (lambda: opsdk.add_n([]), OpArgumentError),
])
def test_bad_arguments_raise_opsdk_errors(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_an_axis_out_of_range_is_an_index_error_as_paddle(op):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: getattr(P, op)(P.ones([2, 3]), 2), IndexError)
