"""opsdk.linalg, Paddle's paddle.linalg namespace: norms, matrix_power, multi_dot,
matrix_transpose against Paddle and central differences; what is not provided says so."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import OpArgumentError, UnsupportedError
from helpers.frameworks import assert_same_as_paddle
from helpers.gradients import assert_gradients

RNG = np.random.default_rng(3)
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
M = RNG.standard_normal((2, 3, 4))


@pytest.mark.paddle
@pytest.mark.parametrize("case", ["norm", "norm_axis", "norm_p1", "norm_two_axes", "vector_norm",
                                  "matrix_norm_fro", "matrix_norm_1", "matrix_norm_inf",
                                  "matrix_power_3", "matrix_power_0", "matrix_power_neg2",
                                  "matrix_power_1",
                                  "multi_dot", "matrix_transpose"])
def test_matches_paddle(case):
    fns = {
        "norm": (lambda P, x: P.linalg.norm(x), [M]),
        "norm_axis": (lambda P, x: P.linalg.norm(x, axis=1), [M]),
        "norm_p1": (lambda P, x: P.linalg.norm(x, p=1, axis=-1), [M]),
        "norm_two_axes": (lambda P, x: P.linalg.norm(x, p="fro", axis=[1, 2]), [M]),
        "vector_norm": (lambda P, x: P.linalg.vector_norm(x, p=3.0, axis=2, keepdim=True), [M]),
        "matrix_norm_fro": (lambda P, x: P.linalg.matrix_norm(x), [M]),
        "matrix_norm_1": (lambda P, x: P.linalg.matrix_norm(x, p=1), [M]),
        "matrix_norm_inf": (lambda P, x: P.linalg.matrix_norm(x, p=float("inf"), keepdim=True), [M]),
        "matrix_power_3": (lambda P, x: P.linalg.matrix_power(x, 3), [A]),
        "matrix_power_0": (lambda P, x: P.linalg.matrix_power(x, 0), [A]),
        "matrix_power_neg2": (lambda P, x: P.linalg.matrix_power(x, -2), [A]),
        "matrix_power_1": (lambda P, x: P.linalg.matrix_power(x, 1), [A]),
        "multi_dot": (lambda P, x, y, z: P.linalg.multi_dot([x, y, z]),
                      [RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4)), RNG.standard_normal(4)]),
        "matrix_transpose": (lambda P, x: P.linalg.matrix_transpose(x), [M]),
    }
    fn, arrays = fns[case]
    assert_same_as_paddle(fn, arrays, diff=tuple(range(len(arrays))))


@pytest.mark.paddle
def test_matrix_power_1_is_a_new_tensor_in_the_graph_as_paddle():
    # Paddle returns a new non-leaf tensor, not x itself: writing to it leaves x as it was
    paddle = pytest.importorskip("paddle")
    for fw in (paddle, opsdk):
        x = fw.to_tensor(A, stop_gradient=False)
        p = fw.linalg.matrix_power(x, 1)
        assert (p is x, p.is_leaf, p.stop_gradient) == (False, False, False), fw.__name__
        c = fw.to_tensor(A)
        q = fw.linalg.matrix_power(c, 1)
        with fw.no_grad():
            q[0, 0] = 100.0
        assert (q is c, float(c[0, 0])) == (False, A[0, 0]), fw.__name__


@pytest.mark.parametrize("fn", [lambda x: opsdk.linalg.matrix_power(x, 5),
                                lambda x: opsdk.linalg.matrix_power(x, -1),
                                lambda x: opsdk.linalg.matrix_norm(x, p=-1),
                                lambda x: opsdk.linalg.norm(x)],
                         ids=["power5", "power_neg1", "norm_neg1", "fro"])
def test_gradients_to_second_order(fn):
    assert_gradients(fn, [A])


def test_what_is_not_provided_says_so():
    with pytest.raises(UnsupportedError, match="opsdk.linalg.eig is not provided"):
        opsdk.linalg.eig
    with pytest.raises(OpArgumentError, match="matrix_power: argument 'n' must be an int"):
        opsdk.linalg.matrix_power(opsdk.to_tensor(A), 1.5)
    with pytest.raises(AttributeError):
        opsdk.linalg.no_such_function
