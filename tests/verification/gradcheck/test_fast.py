"""Fast mode: random projections, cheap, its own RNG, the full Jacobian on failure."""
import numpy as np

import opsdk

from opsdk.verification.gradcheck import check_gradients, fast

from verification.gradcheck.wrong_ops import WRONG_FIRST_ORDER, Swish, counting, tensors


def test_fast_mode_calls_func_a_fixed_number_of_times():
    func, calls = counting(lambda x: Swish.apply(x))
    x = tensors(np.random.default_rng(0), "float64", (20, 30))
    assert check_gradients(func, x, fast_mode=True, seed=0).ok
    # the graph (float64: also the base point), one forward difference per direction
    assert len(calls) == 1 + fast.N_DIRECTIONS


def test_float32_inputs_cost_a_float64_base_point_more():
    func, calls = counting(lambda x: Swish.apply(x))
    x = tensors(np.random.default_rng(0), "float32", (4, 5))
    assert check_gradients(func, x, fast_mode=True, seed=0).ok
    assert len(calls) == 2 + fast.N_DIRECTIONS


def test_pairs_flagged_by_forward_differences_are_redone_with_central_ones(monkeypatch):
    # 1/x near 0: the forward difference is off by eps/x ~ 0.5%, the central one by (eps/x)^2
    func, calls = counting(lambda x: 1 / x)
    x = opsdk.to_tensor([2e-4, 3e-4, 2.5e-4, 4e-4], dtype="float64", stop_gradient=False)
    report = check_gradients(func, x, fast_mode=True, seed=0)
    assert report.ok and not report.fast_failures
    assert len(calls) == 1 + 3 * fast.N_DIRECTIONS


def test_fast_mode_failure_reports_the_full_jacobian():
    func, shapes, _ = WRONG_FIRST_ORDER["sign flip"]
    report = check_gradients(func, tensors(np.random.default_rng(0), "float64", *shapes),
                             fast_mode=True, seed=0)
    assert report.fast_failures and report.failures[0].kind == "jacobian"
    assert report.failures[0].n_bad == 12
    assert "the full Jacobian was computed for the report" in str(report)


def test_fast_flag_not_confirmed_by_the_full_jacobian_passes_with_a_note(monkeypatch):
    monkeypatch.setattr(fast, "N_WEIGHTS", 1)
    real = fast._analytic_projections

    def off(problem, analytic, rng):
        runs = real(problem, analytic, rng)
        return [[(seed, v, row * 1.5) for seed, v, row in per] for per in runs]

    monkeypatch.setattr(fast, "_analytic_projections", off)
    report = check_gradients(lambda x: Swish.apply(x),
                             tensors(np.random.default_rng(0), "float64", (3,)),
                             fast_mode=True, check_undefined_grad=False, nondet_tol=1.0, seed=0)
    assert report.ok and any("full Jacobian agrees" in n for n in report.notes)


def test_directions_have_unit_norm_and_no_tiny_entry():
    (u, w), (u2, _) = fast._random_units(np.random.default_rng(0), [16, 4], 2)
    for v in (u, w, u2):
        np.testing.assert_allclose(np.linalg.norm(v), 1.0)
        assert np.abs(v).min() >= np.abs(v).max() / 3
    assert not np.array_equal(u, u2)
