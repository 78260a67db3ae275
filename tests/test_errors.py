"""opsdk's errors are instances of the built-in class Paddle 3.3.1 raises for the same bad input
(so ``except ValueError:`` code written for Paddle keeps working), class by class: the cases
the bad-input fuzz (tests/paddle_compat/error_fuzz.py) found, one or two per fix."""
import numpy as np
import pytest

import opsdk
from opsdk import errors
from helpers.frameworks import assert_raises_as_paddle, assert_same_as_paddle

A23 = (np.arange(6, dtype=np.float32).reshape(2, 3) + 1) / 7
B23 = np.array([[True, False, True], [False, True, True]])


def T(P, a, dtype=None):
    return P.to_tensor(np.array(a), dtype=dtype)


def F(P):
    return P.nn.functional


CASES = {
    # an axis out of range: Paddle raises ValueError, IndexError or AssertionError by op
    "sum axis 2": lambda P: P.sum(T(P, A23), axis=2),
    "gather axis 2": lambda P: P.gather(T(P, A23), T(P, [0, 1]), axis=2),
    "index_select axis -3": lambda P: P.index_select(T(P, A23), T(P, [0]), axis=-3),
    "take_along_axis axis 2": lambda P: P.take_along_axis(T(P, A23), T(P, [[0], [1]]), axis=2),
    "moveaxis destination 3": lambda P: P.moveaxis(T(P, A23), 0, 3),
    "argmax axis 2": lambda P: P.argmax(T(P, A23), axis=2),
    "gumbel_softmax axis 2": lambda P: F(P).gumbel_softmax(T(P, A23), axis=2),
    # a float axis or size: TypeError (median: ValueError)
    "sum axis 1.0": lambda P: P.sum(T(P, A23), axis=1.0),
    "median axis 1.0": lambda P: P.median(T(P, A23), axis=1.0),
    "tile repeat 1.5": lambda P: P.tile(T(P, A23), [1.5, 2]),
    "ones size 2.5": lambda P: P.ones([2.5, 3]),
    # an axis named twice
    "sum axis [0, 0]": lambda P: P.sum(T(P, A23), axis=[0, 0]),
    "prod axis [0, -2]": lambda P: P.prod(T(P, A23), axis=[0, -2]),
    # None for a tensor: TypeError, ValueError or AttributeError by op
    "pow y None": lambda P: P.pow(T(P, A23), None),
    "atan2 y None": lambda P: P.atan2(T(P, A23), None),
    "not_equal y None": lambda P: P.not_equal(T(P, A23), None),
    "less_than y None": lambda P: P.less_than(T(P, A23), None),
    "zeros_like None": lambda P: P.zeros_like(None),
    "cumsum None": lambda P: P.cumsum(None),
    # a dtype Paddle has no kernel for: RuntimeError (NotFound)
    "exp of bool": lambda P: P.exp(T(P, B23)),
    "max of bool": lambda P: P.max(T(P, B23)),
    "argmax of bool": lambda P: P.argmax(T(P, B23)),
    "cumprod of bool": lambda P: P.cumprod(T(P, B23), dim=0),
    "isnan of bool": lambda P: P.isnan(T(P, B23)),
    "floor of bool": lambda P: P.floor(T(P, B23)),
    "erf of bool": lambda P: P.erf(T(P, B23)),
    "bitwise_and of floats": lambda P: P.bitwise_and(T(P, A23), T(P, A23)),
    "one_hot of floats": lambda P: F(P).one_hot(T(P, [0.0, 1.0]), 3),
    "heaviside float32 and bool": lambda P: P.heaviside(T(P, A23), T(P, B23)),
    "hypot float32 and bool": lambda P: P.hypot(T(P, A23), T(P, B23)),
    # shapes Paddle checks as a precondition (RuntimeError), by an assertion, or as an axis
    "isclose shapes [2,3] and [3]": lambda P: P.isclose(T(P, A23), T(P, A23[0])),
    "allclose shapes [2,3] and [3,2]": lambda P: P.allclose(T(P, A23), T(P, A23.T)),
    "dot lengths differ": lambda P: P.dot(T(P, A23[0]), T(P, A23[0, :2])),
    "dot of 3-d": lambda P: P.dot(T(P, A23[None]), T(P, A23[None])),
    "masked_select mask [2]": lambda P: P.masked_select(T(P, A23), T(P, [True, False])),
    "searchsorted ranks differ": lambda P: P.searchsorted(T(P, A23), T(P, A23[0])),
    "cdist last sizes differ": lambda P: P.cdist(T(P, A23), T(P, A23[:, :2])),
    "prelu weight length": lambda P: F(P).prelu(T(P, np.ones((1, 2, 4, 4), np.float32)),
                                                T(P, np.ones(3, np.float32))),
    "batch_norm of 1-d": lambda P: F(P).batch_norm(T(P, A23[0]), T(P, A23[0]), T(P, A23[0]),
                                                   training=False),
    "trace of 1-d": lambda P: P.trace(T(P, A23[0])),
    "einsum operand count": lambda P: P.einsum("ij,jk->ik", T(P, A23)),
    "matmul of 0-d": lambda P: P.matmul(T(P, 0.5), T(P, A23)),
    "bmm of 2-d": lambda P: P.bmm(T(P, A23), T(P, A23.T)),
    "heaviside shapes [2,3] and [2]": lambda P: P.heaviside(T(P, A23), T(P, A23[0, :2])),
    "mse_loss shapes [2,3] and [4]": lambda P: F(P).mse_loss(T(P, A23), T(P, np.ones(4))),
    "linear bias length": lambda P: F(P).linear(T(P, A23), T(P, np.ones((3, 2), np.float32)),
                                                T(P, np.ones(4, np.float32))),
    # lists, sizes and values Paddle refuses
    "concat of a tensor": lambda P: P.concat(T(P, A23), axis=0),
    "concat float32 and int32": lambda P: P.concat([T(P, A23), T(P, [[1, 2, 3]])]),
    "stack of []": lambda P: P.stack([]),
    "clip min above max": lambda P: P.clip(T(P, A23), min=1.0, max=0.0),
    "tile repeat -1": lambda P: P.tile(T(P, A23), [-1, 2]),
    "reshape size -2": lambda P: P.reshape(T(P, A23), [-2, 3]),
    "t of 3-d": lambda P: P.t(T(P, A23[None])),
    "where float condition": lambda P: P.where(T(P, A23), T(P, A23), T(P, A23)),
    "equal_all float32 and int32": lambda P: P.equal_all(T(P, A23), T(P, [[1, 2, 3]] * 2)),
    "eye -1": lambda P: P.eye(-1),
    "tril_indices -1": lambda P: P.tril_indices(-1, 3),
    "linspace num -1": lambda P: P.linspace(0, 1, -1),
    "to_tensor of a string": lambda P: P.to_tensor("abc"),
    "conv2d stride 0": lambda P: F(P).conv2d(T(P, np.ones((1, 2, 4, 4), np.float32)),
                                             T(P, np.ones((2, 2, 3, 3), np.float32)), stride=0),
    "max_pool2d kernel 0": lambda P: F(P).max_pool2d(T(P, np.ones((1, 2, 4, 4), np.float32)), 0),
    "cross_entropy label 5 of 3": lambda P: F(P).cross_entropy(T(P, A23), T(P, [0, 5])),
    "gather index 5": lambda P: P.gather(T(P, A23), T(P, [0, 5]), axis=1),
    "item(9) of 6": lambda P: T(P, A23).item(9),
    "item() of 6": lambda P: T(P, A23).item(),
    "setitem at 5": lambda P: T(P, A23).__setitem__(5, 1.0),
    "len of 0-d": lambda P: len(T(P, 0.5)),
    # a 0-d tensor where the op works along an axis
    "unbind of 0-d": lambda P: P.unbind(T(P, 0.5)),
    "split of 0-d": lambda P: P.split(T(P, 0.5), 1),
    "diff of 0-d": lambda P: P.diff(T(P, 0.5)),
    "flip of 0-d": lambda P: P.flip(T(P, 0.5), 0),
    "gather of 0-d": lambda P: P.gather(T(P, 0.5), T(P, [0])),
    "split sections [-1, -1, 1]": lambda P: P.split(T(P, A23), [-1, -1, 1], axis=1),
    "split sections [-2, 5]": lambda P: P.split(T(P, A23), [-2, 5], axis=1),
    "interpolate size [-1, 2]": lambda P: F(P).interpolate(
        T(P, np.ones((1, 2, 4, 4), np.float32)), size=[-1, 2]),
    "getitem step 0": lambda P: T(P, A23)[::0],
    "clip of bool": lambda P: P.clip(T(P, B23), 0, 1),
    "matmul of bool": lambda P: P.matmul(T(P, B23), T(P, B23.T)),
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_bad_input_raises_an_opsdk_error_in_paddles_builtin_family(case):
    assert_raises_as_paddle(CASES[case])


def test_the_classes_have_the_builtin_bases_paddle_code_catches():
    assert issubclass(errors.AxisOutOfRangeError, (ValueError, IndexError, AssertionError))
    assert all(issubclass(errors.AxisOutOfRangeError, c)
               for c in (ValueError, IndexError, AssertionError))
    assert all(issubclass(errors.NoneArgumentError, c)
               for c in (ValueError, TypeError, AttributeError))
    assert issubclass(errors.PreconditionShapeError, RuntimeError)
    assert issubclass(errors.AssertedShapeError, AssertionError)
    assert issubclass(errors.MissingAxesError, IndexError)
    assert all(issubclass(errors.ZeroDimLengthError, c) for c in (TypeError, AssertionError))
    assert all(issubclass(c, errors.OpArgumentError) for c in (
        errors.AxisOutOfRangeError, errors.NoneArgumentError, errors.DuplicateAxisError,
        errors.PreconditionShapeError, errors.AssertedShapeError, errors.MissingAxesError,
        errors.ZeroDimLengthError))


def test_the_messages_name_op_argument_and_what_was_given():
    with pytest.raises(errors.AxisOutOfRangeError, match=r"sum: argument 'axis' out of range; "
                       r"expected: in \[-2, 1\] for a 2-d tensor; got: 2"):
        opsdk.sum(opsdk.ones([2, 3]), axis=2)
    with pytest.raises(errors.NoneArgumentError, match="atan2: argument 'y' is required"):
        opsdk.atan2(opsdk.ones([2]), None)
    with pytest.raises(errors.DuplicateAxisError, match=r"mean: .* twice.*got: \[1, -1\]"):
        opsdk.mean(opsdk.ones([2, 3]), axis=[1, -1])


# what Paddle accepts, opsdk computes the same way
def test_item_with_one_index_reads_the_flat_element_as_paddle():
    assert_same_as_paddle(lambda P, x: P.to_tensor(x.item(4)), [A23.astype(np.float64)])
    assert_same_as_paddle(lambda P, x: P.to_tensor(x.item(1, 2)), [A23.astype(np.float64)])


def test_argmax_and_argmin_truncate_a_float_axis_as_paddle():
    assert_same_as_paddle(lambda P, x: [P.argmax(x, axis=1.5), P.argmin(x, axis=0.7)],
                          [A23.astype(np.float64)], diff=())


def test_zeros_of_shape_none_is_0d_as_paddle():
    assert_same_as_paddle(lambda P, x: P.zeros(None, dtype="float64") + x, [np.array(1.5)])


def test_erf_of_an_integer_tensor_is_the_default_float_as_paddle():
    assert_same_as_paddle(lambda P, x: P.erf(x), [np.array([0, 1, -2])], ["int32"], diff=())


def test_cross_entropy_truncates_float_hard_labels_as_paddle():
    x = np.random.RandomState(0).rand(3, 4)
    assert_same_as_paddle(lambda P, x, y: F(P).cross_entropy(x, y, reduction="none"),
                          [x, np.array([0.0, 1.7, 2.2])], ["float64", "float64"], diff=())
