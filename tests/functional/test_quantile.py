"""quantile and nanquantile (opsdk/functional/order_stats.py): values, shapes and gradients
(to the interpolated sorted neighbours) against Paddle where installed, NaN handling, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import ArgumentTypeError, OpArgumentError
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

TIED = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 1.0, 5.0, 0.0]])
NANS = np.array([[1.0, np.nan, 3.0, 2.0], [4.0, 0.5, -1.0, 2.0]])

test_values_and_gradients_match_paddle = paddle_cases({
    "axis": (lambda P, x: P.quantile(x, 0.3, axis=1), [TIED]),
    "all": (lambda P, x: P.quantile(x, [0.3, 0.5, 1.0]), [TIED]),
    "keepdim": (lambda P, x: x.quantile(0.75, axis=0, keepdim=True), [signed(3, 4)]),
    "axes_list": (lambda P, x: P.quantile(x, [0.2, 0.9], axis=[0, 2], keepdim=True),
                  [signed(2, 3, 4)]),
    "axes_list_drop": (lambda P, x: P.quantile(x, 0.4, axis=[2, 0]), [signed(2, 3, 4)]),
    "lower": (lambda P, x: P.quantile(x, 0.3, axis=1, interpolation="lower"), [TIED]),
    "higher": (lambda P, x: P.quantile(x, 0.3, axis=1, interpolation="higher"), [TIED]),
    "nearest": (lambda P, x: P.quantile(x, 0.4, axis=1, interpolation="nearest"), [TIED]),
    "midpoint": (lambda P, x: P.quantile(x, 0.3, axis=1, interpolation="midpoint"), [TIED]),
    "nan": (lambda P, x: P.quantile(x, 0.5, axis=1), [NANS]),
    "nanquantile": (lambda P, x: P.nanquantile(x, [0.25, 0.5], axis=1), [NANS]),
    "nanquantile_all": (lambda P, x: x.nanquantile(0.6), [NANS]),
})


@pytest.mark.paddle
def test_float32_and_tensor_q_match_paddle():
    assert_same_as_paddle(lambda P, x: P.quantile(x, P.to_tensor([0.1, 0.7]), axis=0),
                          [signed(5, 3)], dtypes=["float32"], rtol=1e-6)


def test_gradients_to_second_order():
    assert_gradients(lambda x: opsdk.quantile(x * x, [0.3, 0.6], axis=1), [signed(2, 5)])


def test_docstring_examples_run():
    import doctest
    from opsdk.functional import order_stats
    result = doctest.testmod(order_stats, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("call, error", [
    (lambda x: opsdk.quantile(x, 1.5), OpArgumentError),
    (lambda x: opsdk.quantile(x, []), OpArgumentError),
    (lambda x: opsdk.quantile(x, "a"), ArgumentTypeError),
    (lambda x: opsdk.quantile(x, 0.5, axis=3), OpArgumentError),
    (lambda x: opsdk.quantile(x, 0.5, interpolation="cubic"), OpArgumentError),
    (lambda x: opsdk.nanquantile(x, opsdk.ones([2, 2])), OpArgumentError),
])
def test_bad_arguments_raise_opsdk_errors(call, error):
    with pytest.raises(error):
        call(opsdk.ones([2, 3]))
