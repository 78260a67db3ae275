"""Bounded gradient checks: a Jacobian too large, or too costly, to compute whole is checked by
projections only, and the report says so; with several inputs, projections move them at once."""
import numpy as np

from opsdk.verification.gradcheck import check_gradients, fast

from verification.gradcheck.wrong_ops import WRONG_FIRST_ORDER, Swish, counting, tensors


def test_a_jacobian_beyond_max_jacobian_is_projected_even_in_full_mode():
    func, calls = counting(lambda x: Swish.apply(x))
    x = tensors(np.random.default_rng(0), "float64", (40, 50))  # a 2000 x 2000 Jacobian
    report = check_gradients(func, x, seed=0, derived=True, max_jacobian=1 << 16)
    assert report.ok and report.mode == "projected"
    assert len(calls) < 20  # a whole one would take a call per column
    assert "the Jacobian (2000 x 2000 elements, 30.5 MiB a copy) was checked along random " \
           "projections vᵀJu, not computed whole: it is larger than max_jacobian" in str(report)


def test_a_projected_jacobian_still_fails_a_wrong_gradient_without_computing_it_whole():
    func, shapes, _ = WRONG_FIRST_ORDER["sign flip"]
    report = check_gradients(func, tensors(np.random.default_rng(0), "float64", *shapes),
                             seed=0, derived=True, max_jacobian=4)
    assert not report.ok and report.failures[0].kind == "projection"
    assert "too large to compute whole" in report.failures[0].message


def test_a_jacobian_whose_computation_takes_too_many_calls_is_projected_instead():
    # rows summed over 3000 columns: a call per column (twice), or a backward per row and then
    # 3000 numeric probes (no two columns of a row probed together)
    def rowsum(x):
        return x.sum(axis=1)
    x = tensors(np.random.default_rng(0), "float64", (2, 3000))
    report = check_gradients(rowsum, x, seed=0, derived=True, max_calls=256, atol=0, rtol=0)
    assert report.ok and report.mode == "projected"
    assert "not computed whole: computing it would take 12000 calls, more than max_calls" \
        in str(report)


def test_several_inputs_move_at_once_and_only_a_disagreement_is_looked_at_input_by_input():
    func, calls = counting(lambda x, y: x * y)
    x, y = tensors(np.random.default_rng(0), "float64", (3, 4), (3, 4))
    assert check_gradients(func, (x, y), fast_mode=True, seed=0, derived=True, atol=0, rtol=0).ok
    # the graph (float64: also the base point), then two calls per direction for both inputs
    assert len(calls) == 1 + 2 * fast.N_DIRECTIONS


def test_a_joint_disagreement_still_names_the_input_whose_gradient_is_wrong():
    func, shapes, _ = WRONG_FIRST_ORDER["mean instead of sum"]  # only the bias's is wrong
    report = check_gradients(func, tensors(np.random.default_rng(0), "float64", *shapes),
                             fast_mode=True, seed=0, derived=True, atol=0, rtol=0)
    assert report.fast_failures and all("w.r.t. inputs[1]" in f for f in report.fast_failures)
