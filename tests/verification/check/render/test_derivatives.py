"""The data behind the HTML report's plots: analytic against numeric derivatives of an op."""
import numpy as np
import pytest

from fixtures.packs import registered
from opsdk.verification.check.render.derivatives import Curve, ErrorMap, derivative_data
from opsdk.packs.loading import get_registry


@pytest.fixture(scope="module")
def badpack():
    with registered("bad_pack", "badpack"), registered("good_pack", "goodpack"):
        yield get_registry()


def test_an_elementwise_op_gives_both_derivatives_along_its_domain(badpack):
    curve = derivative_data(badpack.get("badpack.cube_c_factor"), "python", "float64", "gradcheck")
    assert isinstance(curve, Curve) and curve.x[0] == -2.0 and curve.x[-1] == 2.0
    np.testing.assert_allclose(curve.numeric, 3 * curve.x ** 2, atol=1e-6)  # d(x^3)/dx
    np.testing.assert_allclose(curve.analytic, curve.numeric, atol=1e-6)  # python's backward is right


def test_a_wrong_backward_shows_where_it_is_worst(badpack):
    curve = derivative_data(badpack.get("badpack.cube_c_factor"), "c", "float64", "gradcheck")
    np.testing.assert_allclose(curve.analytic, 2 * curve.x ** 2, atol=1e-6)  # the C backward's 2x^2
    assert abs(curve.x[curve.worst]) == 2.0  # the error x^2 is largest at the ends of [-2, 2]


def test_gradgradcheck_plots_second_derivatives(badpack):
    curve = derivative_data(badpack.get("badpack.cube_bad_double"), "python", "float64", "gradgradcheck")
    assert curve.order == 2
    np.testing.assert_allclose(curve.numeric, 6 * curve.x, atol=1e-5)
    np.testing.assert_allclose(curve.analytic, 3 * curve.x, atol=1e-6)  # the detach halves it


def test_an_op_of_two_inputs_gives_the_jacobian_error_of_the_sample_that_errs_most(badpack):
    found = derivative_data(badpack.get("badpack.mul_mean_broadcast"), "python", "float64", "gradcheck",
                            seed=0, mode="full")
    assert isinstance(found, ErrorMap)
    assert "broadcast" in found.sample  # the own sample is right: only broadcasting shows the bug
    r, c = found.worst
    assert found.errors[r, c] == found.errors.max() > 0.1
    assert found.errors.shape == (int(np.prod(found.output_shape)), int(np.prod(found.input_shape)))


def test_a_right_op_has_no_error_to_show(badpack):
    found = derivative_data(badpack.get("goodpack.mul"), "python", "float64", "gradcheck")
    assert found.errors.max() < 1e-6
