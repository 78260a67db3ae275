"""Orthogonal, Dirac and Bilinear as Paddle's: Dirac's and Bilinear's values exactly (they
draw nothing), Orthogonal's orthogonality, shape and gain (its draws are opsdk's own)."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle

pytestmark = pytest.mark.paddle


def initialized(P, init, shape, dtype):
    w = P.create_parameter(shape, dtype, default_initializer=init(P))
    return w.numpy(), str(w.dtype).split(".")[-1]


def same_values(init, shape, dtype, paddle_dtype=None):
    paddle = import_paddle()
    got, want = initialized(opsdk, init, shape, dtype), initialized(paddle, init, shape, dtype)
    assert (got[1], want[1]) == (dtype, paddle_dtype or dtype)
    np.testing.assert_array_equal(got[0], want[0])
    return got[0]


@pytest.mark.parametrize("shape, groups", [([4, 2, 3], 1), ([6, 3, 3, 3], 2), ([2, 4, 1, 3, 3], 1),
                                           ([4, 4, 2, 2], 4), ([3, 5, 5], 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirac_as_paddle(shape, groups, dtype):
    w = same_values(lambda P: P.nn.initializer.Dirac(groups), shape, dtype)
    assert w.sum() == groups * min(shape[0] // groups, shape[1])


@pytest.mark.parametrize("shape", [[2, 2, 4, 4], [1, 1, 3, 3], [3, 1, 5, 5], [1, 2, 1, 1]])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bilinear_as_paddle(shape, dtype):
    # Paddle 3.3.1 leaves a float64 parameter float32 here (it skips its cast back); opsdk
    # keeps the parameter's dtype, with the same (float32-computed) values
    same_values(lambda P: P.nn.initializer.Bilinear(), shape, dtype, "float32")


def test_dirac_makes_a_convolution_the_identity():
    conv = opsdk.nn.Conv2D(3, 3, 3, padding=1, bias_attr=False,
                           weight_attr=opsdk.ParamAttr(initializer=opsdk.nn.initializer.Dirac()))
    x = opsdk.randn([1, 3, 5, 5])
    np.testing.assert_allclose(conv(x).numpy(), x.numpy(), rtol=1e-6)


@pytest.mark.parametrize("shape", [[4, 6], [6, 4], [3, 2, 2, 2], [5, 5]])
@pytest.mark.parametrize("gain", [1.0, 2.5])
def test_orthogonal_is_orthogonal_as_paddles(shape, gain):
    paddle = import_paddle()
    for P in (opsdk, paddle):
        w, dtype = initialized(P, lambda P: P.nn.initializer.Orthogonal(gain), shape, "float64")
        m = w.reshape(shape[0], -1)
        small = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
        np.testing.assert_allclose(small, gain ** 2 * np.eye(len(small)), atol=1e-10)
        assert w.shape == tuple(shape) and dtype == "float64"


def test_orthogonal_follows_the_seed():
    init = opsdk.nn.initializer.Orthogonal()
    opsdk.seed(5)
    a = opsdk.create_parameter([3, 4], "float32", default_initializer=init).numpy()
    opsdk.seed(5)
    b = opsdk.create_parameter([3, 4], "float32", default_initializer=init).numpy()
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("make, family", [
    (lambda P: P.create_parameter([3], "float32",
                                  default_initializer=P.nn.initializer.Orthogonal()),
     AssertionError),
    (lambda P: P.create_parameter([3, 3], "float32",
                                  default_initializer=P.nn.initializer.Dirac()), AssertionError),
    (lambda P: P.create_parameter([3, 2, 2], "float32",
                                  default_initializer=P.nn.initializer.Dirac(2)), AssertionError),
    (lambda P: P.nn.initializer.Dirac(0), AssertionError),
    (lambda P: P.create_parameter([1, 1, 2, 3], "float32",
                                  default_initializer=P.nn.initializer.Bilinear()), ValueError),
    (lambda P: P.create_parameter([1, 2, 2], "float32",
                                  default_initializer=P.nn.initializer.Bilinear()), ValueError),
])
def test_bad_shapes_raise_as_paddle(make, family):
    assert_raises_as_paddle(make, family)


def test_docstring_example_runs():
    import doctest
    result = doctest.testmod(opsdk.nn.initializer, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0
