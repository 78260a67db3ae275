"""The oracle itself, on functions whose derivatives are known in closed form."""
import numpy as np

from helpers.numeric import numeric_jacobian, numeric_vjp, numeric_vjp_vjp


def test_numeric_jacobian_of_elementwise_square_is_diagonal_2x():
    x = np.array([1.0, -2.0, 3.0])
    (j,) = numeric_jacobian(lambda a: a ** 2, [x])
    np.testing.assert_allclose(j, np.diag(2 * x), atol=1e-8)


def test_numeric_jacobian_has_one_block_per_input_with_output_rows():
    a, b = np.ones((2, 3)), np.ones(3)
    ja, jb = numeric_jacobian(lambda x, y: (x * y).sum(axis=0), [a, b])
    assert ja.shape == (3, 6) and jb.shape == (3, 3)


def test_numeric_jacobian_concatenates_list_outputs():
    (j,) = numeric_jacobian(lambda x: [x * 2, x * 3], [np.array([1.0])])
    np.testing.assert_allclose(j, [[2.0], [3.0]], atol=1e-8)


def test_numeric_jacobian_does_not_change_its_inputs():
    x = np.array([1.0, 2.0])
    numeric_jacobian(np.sin, [x])
    np.testing.assert_array_equal(x, [1.0, 2.0])


def test_numeric_vjp_of_matrix_product_matches_closed_form():
    rng = np.random.default_rng(0)
    a, b, v = rng.normal(size=(2, 3)), rng.normal(size=(3, 4)), rng.normal(size=(2, 4))
    ga, gb = numeric_vjp(lambda x, y: x @ y, [a, b], v)
    np.testing.assert_allclose(ga, v @ b.T, atol=1e-8)
    np.testing.assert_allclose(gb, a.T @ v, atol=1e-8)


def test_numeric_vjp_vjp_of_cube_is_6x_times_cotangent_times_tangent():
    x = np.array([2.0, -1.0])
    v, u = np.array([1.0, 3.0]), np.array([0.5, 2.0])
    (h,) = numeric_vjp_vjp(lambda a: a ** 3, [x], v, [u])
    np.testing.assert_allclose(h, 6 * x * v * u, rtol=1e-6)


def test_numeric_vjp_vjp_sees_mixed_partials():
    # f = x * y: d/dx <u, grad> picks up d2f/dxdy through u_y
    x, y = np.array([2.0]), np.array([5.0])
    hx, hy = numeric_vjp_vjp(lambda a, b: a * b, [x, y], np.array([1.0]),
                             [np.array([3.0]), np.array([7.0])])
    np.testing.assert_allclose(hx, [7.0], rtol=1e-6)
    np.testing.assert_allclose(hy, [3.0], rtol=1e-6)
