"""tensordot, baddbmm, ger, vecdot, cdist, pdist, trapezoid, cumulative_trapezoid: values
and gradients against Paddle where installed (cdist in both of Paddle's forms, zero distances
included), second order through the composition, errors."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import signed

ROWS = np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [3.0, -1.0, 0.5]])

test_values_and_gradients_match_paddle = paddle_cases({
    "tensordot_int": (lambda P, x, y: P.tensordot(x, y, axes=1), [signed(2, 3), signed(3, 4)]),
    "tensordot_default": (lambda P, x, y: x.tensordot(y), [signed(2, 3, 4), signed(3, 4, 2)]),
    "tensordot_lists": (lambda P, x, y: P.tensordot(x, y, axes=[[0, 2], [2, 0]]),
                        [signed(2, 3, 4), signed(4, 5, 2)]),
    "tensordot_size1": (lambda P, x, y: P.tensordot(x, y, axes=[[1], [0]]),
                        [signed(2, 1), signed(3, 4)]),
    "baddbmm": (lambda P, i, x, y: P.baddbmm(i, x, y, beta=0.5, alpha=2.0),
                [signed(1, 2, 4), signed(3, 2, 5), signed(3, 5, 4)]),
    "ger": (lambda P, x, y: P.ger(x, y), [signed(3), signed(4)]),
    "vecdot": (lambda P, x, y: P.vecdot(x, y, axis=0), [signed(3, 2), signed(3, 1)]),
    "cdist_direct": (lambda P, x, y: P.cdist(x, y), [ROWS, signed(4, 3)]),
    "cdist_p1": (lambda P, x, y: P.cdist(x, y, p=1.0), [ROWS, signed(2, 4, 3)[0]]),
    "cdist_mm": (lambda P, x, y: P.cdist(x, y, compute_mode="use_mm_for_euclid_dist"),
                 [signed(2, 3, 4), signed(2, 5, 4)]),
    "cdist_many_rows": (lambda P, x, y: P.cdist(x, y), [signed(30, 3), signed(4, 3)]),
    "pdist": (lambda P, x: P.pdist(x), [ROWS]),
    "pdist_p3": (lambda P, x: P.pdist(x, p=3.0), [signed(4, 3)]),
    "trapezoid": (lambda P, y: P.trapezoid(y), [signed(2, 5)]),
    "trapezoid_dx": (lambda P, y: y.trapezoid(dx=0.25, axis=0), [signed(4, 2)]),
    "trapezoid_x": (lambda P, y, x: P.trapezoid(y, x), [signed(2, 5), np.cumsum(
        np.abs(signed(5)))]),
    "trapezoid_x_nd": (lambda P, y, x: P.trapezoid(y, x=x, axis=0), [signed(4, 2), signed(4, 2)]),
    "cumulative_trapezoid": (lambda P, y: P.cumulative_trapezoid(y), [signed(2, 5)]),
    "cumulative_trapezoid_x": (lambda P, y, x: y.cumulative_trapezoid(x, axis=0),
                               [signed(4, 2), np.array([0.0, 0.5, 2.0, 2.5])]),
})


def test_baddbmm_in_place_writes_the_input():
    i = opsdk.zeros([1, 2, 2])
    out = i.baddbmm_(opsdk.ones([1, 2, 3]), opsdk.ones([1, 3, 2]), alpha=0.5)
    assert out is i and i.tolist() == [[[1.5, 1.5], [1.5, 1.5]]]
    opsdk.baddbmm_(i, opsdk.ones([1, 2, 3]), opsdk.ones([1, 3, 2]), beta=0.0)
    assert i.tolist() == [[[3.0, 3.0], [3.0, 3.0]]]


@pytest.mark.parametrize("name", ["tensordot", "cdist", "trapezoid", "cumulative_trapezoid"])
def test_second_order_gradients(name):
    fns = {"tensordot": (lambda x, y: opsdk.tensordot(x * x, y, axes=1), [signed(2, 3),
                                                                         signed(3, 2)]),
           "cdist": (lambda x, y: opsdk.cdist(x, y), [signed(3, 2), signed(2, 2, seed=1)]),
           "trapezoid": (lambda y, x: opsdk.trapezoid(y * y, x), [signed(2, 4),
                                                                  np.array([0.0, 1, 3, 4])]),
           "cumulative_trapezoid": (lambda y: opsdk.cumulative_trapezoid(y ** 3), [signed(4)])}
    fn, arrays = fns[name]
    assert_gradients(fn, arrays)


def test_vecdot_is_in_linalg_and_ger_is_outer():
    x, y = opsdk.to_tensor([1.0, 2.0]), opsdk.to_tensor([3.0, 4.0])
    assert opsdk.linalg.vecdot(x, y).item() == 11.0
    assert opsdk.ger(x, y).tolist() == [[3.0, 4.0], [6.0, 8.0]]


def test_docstring_examples_run():
    import doctest
    from opsdk.functional import more_linalg
    result = doctest.testmod(more_linalg, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("call, error", [
    (lambda: opsdk.tensordot(opsdk.ones([2, 3]), opsdk.ones([4, 2]), axes=1), ShapeError),
    (lambda: opsdk.tensordot(opsdk.ones([2]), opsdk.ones([2]), axes=-1), OpArgumentError),
    (lambda: opsdk.tensordot(opsdk.ones([2], dtype="int64"), opsdk.ones([2]), 1), DTypeError),
    (lambda: opsdk.baddbmm(opsdk.ones([2, 2]), opsdk.ones([2, 2]), opsdk.ones([2, 2])),
     ShapeError),
    (lambda: opsdk.cdist(opsdk.ones([2, 3]), opsdk.ones([2, 4])), ShapeError),
    (lambda: opsdk.cdist(opsdk.ones([2, 3]), opsdk.ones([2, 3]), p=-1.0), OpArgumentError),
    (lambda: opsdk.cdist(opsdk.ones([2, 3]), opsdk.ones([2, 3]), compute_mode="x"),
     OpArgumentError),
    (lambda: opsdk.pdist(opsdk.ones([2])), ShapeError),
    (lambda: opsdk.trapezoid(opsdk.ones([3]), opsdk.ones([3]), dx=1.0), OpArgumentError),
    (lambda: opsdk.trapezoid(opsdk.to_tensor([1, 2])), DTypeError),
])
def test_bad_arguments_raise_opsdk_errors(call, error):
    with pytest.raises(error):
        call()
