"""bilinear and maxout: values, dtypes and gradients against Paddle 3.3.1, second order against
central differences, ties and errors."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(3)
X1 = RNG.standard_normal((3, 2))
X2 = RNG.standard_normal((3, 4))
W = RNG.standard_normal((5, 2, 4))
B = RNG.standard_normal((1, 5))
X = RNG.standard_normal((2, 6, 3, 2))


@pytest.mark.paddle
def test_bilinear_matches_paddle():
    assert_same_as_paddle(lambda P, a, b, w, c: P.nn.functional.bilinear(a, b, w, c),
                          [X1, X2, W, B], diff=(0, 1, 2, 3))
    assert_same_as_paddle(lambda P, a, b, w: P.nn.functional.bilinear(a, b, w),
                          [X1, X2, W], diff=(0, 1, 2))
    assert_same_as_paddle(lambda P, a, b, w: P.nn.functional.bilinear(a, b, w),
                          [X1, X2, W], dtypes=["float32"] * 3, diff=(0, 1, 2), rtol=1e-5)


@pytest.mark.paddle
@pytest.mark.parametrize("groups,axis", [(2, 1), (3, 1), (6, 1), (2, -1), (2, 3)])
def test_maxout_matches_paddle(groups, axis):
    x = X if axis == 1 else X.transpose(0, 2, 3, 1)
    assert_same_as_paddle(lambda P, a: P.nn.functional.maxout(a, groups, axis), [x])


def test_maxout_gives_every_tied_maximum_the_gradient_as_paddle():
    x = opsdk.to_tensor(np.array([[[[1.0, 1.0]], [[1.0, 0.0]]]]), stop_gradient=False)
    F.maxout(x, 2).sum().backward()
    assert x.grad.numpy().ravel().tolist() == [1.0, 1.0, 1.0, 0.0]


@pytest.mark.slow  # central differences of second order: a few seconds
def test_gradients_hold_to_second_order():
    assert_gradients(lambda a, b, w, c: F.bilinear(a, b, w, c), [X1[:2], X2[:2, :3], W[:2, :, :3],
                                                                 B[:, :2]])
    assert_gradients(lambda a: F.maxout(a, 3) * F.maxout(a, 3), [X[:1, :, :2, :1]])


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="bilinear: expected x1 \\[N, in1\\]"):
        F.bilinear(opsdk.to_tensor(X1), opsdk.to_tensor(X2), opsdk.to_tensor(W[:, :, :3]))
    with pytest.raises(ValueError, match="bilinear: bias must be a row vector \\[1, 5\\]"):
        F.bilinear(opsdk.to_tensor(X1), opsdk.to_tensor(X2), opsdk.to_tensor(W),
                   opsdk.to_tensor(B[0]))
    with pytest.raises(ValueError, match="maxout: the channel count \\(6\\) must be divisible"):
        F.maxout(opsdk.to_tensor(X), 4)
    with pytest.raises(ValueError, match="maxout: groups must be an int > 1"):
        F.maxout(opsdk.to_tensor(X), 1)
    with pytest.raises(ValueError, match="maxout: axis must be 1, -1 or 3"):
        F.maxout(opsdk.to_tensor(X), 2, axis=2)
    with pytest.raises(ValueError, match="maxout: x must be 4-D"):
        F.maxout(opsdk.ones([4, 4]), 2)
