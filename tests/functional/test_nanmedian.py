"""nanmedian (opsdk/functional/nan_reduction.py): values, dtypes, indices and Paddle's
gradient shares (equal values share it, two different middles take half each, an all-NaN
slice spreads it over the slice), against Paddle where installed."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError
from helpers.frameworks import assert_same_as_paddle, paddle_cases

NAN = np.nan
ROWS = np.array([[1.0, NAN, 3.0, 2.0, 5.0], [4.0, 1.0, 1.0, 2.0, 0.0]])

test_values_and_gradients_match_paddle = paddle_cases({
    "odd": (lambda P, x: P.nanmedian(x), [np.array([1.0, NAN, 3.0, 2.0])]),
    "even": (lambda P, x: P.nanmedian(x), [np.array([1.0, NAN, 3.0, 2.0, 5.0])]),
    "ties": (lambda P, x: x.nanmedian(), [np.array([2.0, 1.0, 2.0, 2.0])]),
    "ties_nan": (lambda P, x: P.nanmedian(x), [np.array([2.0, 2.0, 2.0, NAN])]),
    "all_nan_row": (lambda P, x: P.nanmedian(x, axis=1), [np.array([[1.0, NAN, 3.0, 2.0, 5.0],
                                                                     [NAN] * 5])]),
    "min_axis": (lambda P, x: P.nanmedian(x, axis=1, mode="min"), [ROWS]),
    "axis0_keepdim": (lambda P, x: P.nanmedian(x, axis=0, keepdim=True), [ROWS]),
    "all": (lambda P, x: P.nanmedian(x), [ROWS]),
    "all_min": (lambda P, x: P.nanmedian(x, mode="min"), [ROWS]),
    "axes_list": (lambda P, x: P.nanmedian(x, axis=[0, 1]), [ROWS]),
    "axes_list_3d": (lambda P, x: P.nanmedian(x, axis=[0, 2], keepdim=True),
                     [np.arange(24.0).reshape(2, 3, 4) % 5]),
})


@pytest.mark.paddle
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_dtypes_match_paddle(dtype):
    assert_same_as_paddle(lambda P, x: P.nanmedian(x, axis=1), [np.array([[1, 2, 3, 4],
                                                                          [5, 0, 2, 7]])],
                          dtypes=[dtype], diff=())


def test_indices_need_no_gradient():
    v, i = opsdk.nanmedian(opsdk.to_tensor(ROWS, stop_gradient=False), axis=1, mode="min")
    assert i.stop_gradient and i.tolist() == [3, 1] and not v.stop_gradient


@pytest.mark.parametrize("kwargs", [{"mode": "max"}, {"axis": []}, {"axis": 4}])
def test_bad_arguments_raise_opsdk_errors(kwargs):
    with pytest.raises(OpArgumentError):
        opsdk.nanmedian(opsdk.ones([2, 3]), **kwargs)


@pytest.mark.parametrize("shape, axis", [((0, 3), 0), ((0, 3), None), ((3, 0), 0), ((3, 0), 1),
                                         ((2, 0, 3), [0, 1])])
def test_the_nanmedian_over_an_empty_axis_is_nan_as_paddle(shape, axis):
    assert_same_as_paddle(lambda P, x: P.nanmedian(x, axis=axis), [np.zeros(shape)], diff=())
