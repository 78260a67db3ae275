"""inv, det, solve: values and gradients against Paddle and central differences (to second
order), batched inputs, a vector right-hand side, errors naming the op and argument."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(7)
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)  # well conditioned
BATCH = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
B = RNG.standard_normal((3, 2))
V = RNG.standard_normal(3)


@pytest.mark.parametrize("a", [A, BATCH], ids=["matrix", "batch"])
def test_inv_and_det_to_second_order(a):
    assert_gradients(lambda x: opsdk.linalg.inv(x), [a])
    assert_gradients(lambda x: opsdk.linalg.det(x), [a])
    np.testing.assert_allclose(opsdk.linalg.inv(opsdk.to_tensor(a)).numpy(), np.linalg.inv(a), rtol=1e-12)
    np.testing.assert_allclose(opsdk.linalg.det(opsdk.to_tensor(a)).numpy(), np.linalg.det(a), rtol=1e-12)


@pytest.mark.parametrize("a, b", [(A, B), (A, V), (BATCH, RNG.standard_normal((2, 3, 2))),
                                  (BATCH, B)], ids=["matrix", "vector", "batch", "broadcast_b"])
def test_solve_to_second_order(a, b):
    got = opsdk.linalg.solve(opsdk.to_tensor(a), opsdk.to_tensor(b)).numpy()
    want = np.linalg.solve(a, b[:, None])[:, 0] if b.ndim == 1 else np.linalg.solve(a, b)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert_gradients(lambda x, y: opsdk.linalg.solve(x, y), [a, b])


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["inv", "det", "solve", "solve_vector", "inverse"])
def test_matches_paddle(case):
    fns = {"inv": (lambda P, x: P.linalg.inv(x), [BATCH]),
           "det": (lambda P, x: P.linalg.det(x), [BATCH]),
           "solve": (lambda P, x, y: P.linalg.solve(x, y), [A, B]),
           "solve_vector": (lambda P, x, y: P.linalg.solve(x, y), [A, V]),
           "inverse": (lambda P, x: P.inverse(x), [A])}
    fn, arrays = fns[case]
    assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))))


def test_float32_stays_float32():
    x = opsdk.to_tensor(A.astype("float32"), stop_gradient=False)
    y = opsdk.linalg.inv(x)
    (g,) = opsdk.grad(y.sum(), x)
    assert y.dtype == opsdk.float32 and g.dtype == opsdk.float32


def test_errors_name_the_op_and_argument():
    with pytest.raises(ShapeError, match=r"inv: argument 'x' must be a square matrix.*got: shape \[2, 3\]"):
        opsdk.linalg.inv(opsdk.ones([2, 3]))
    with pytest.raises(OpArgumentError, match="inv: the matrix is singular"):
        opsdk.linalg.inv(opsdk.zeros([2, 2]))
    with pytest.raises(DTypeError, match="det: argument 'x' must be float32 or float64; got: int64"):
        opsdk.linalg.det(opsdk.to_tensor([[1, 2], [3, 4]]))
    with pytest.raises(ShapeError, match="solve: argument 'y' must have 3 rows"):
        opsdk.linalg.solve(opsdk.to_tensor(A), opsdk.ones([2, 2], dtype="float64"))
    with pytest.raises(DTypeError, match="solve: arguments 'x' and 'y' must share one dtype"):
        opsdk.linalg.solve(opsdk.to_tensor(A), opsdk.ones([3], dtype="float32"))
    x = opsdk.to_tensor(np.array([[1.0, 2.0], [2.0, 4.0]]), stop_gradient=False)
    with pytest.raises(OpArgumentError, match="det \\(its gradient\\): the matrix is singular"):
        opsdk.grad(opsdk.linalg.det(x), x)
