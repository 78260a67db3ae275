"""The report: which output and input, the worst elements, how many, the seed to replay."""
import numpy as np

from opsdk.errors import GradcheckError
from opsdk.verification.gradcheck import GradcheckReport, check_gradients
from opsdk.verification.gradcheck.report import Failure, Mismatch

from verification.gradcheck.wrong_ops import WRONG_FIRST_ORDER, tensors


def report_of(case, seed=0):
    func, shapes, _ = WRONG_FIRST_ORDER[case]
    return check_gradients(func, tensors(np.random.default_rng(seed), "float64", *shapes),
                           seed=seed)


def test_failure_names_output_and_input_with_shapes_and_dtypes():
    text = str(report_of("wrong second output"))
    assert "outputs[1] (shape [3, 4], float64) w.r.t. inputs[0] (shape [3, 4], float64)" in text


def test_failure_counts_elements_beyond_tolerance():
    (failure,) = report_of("one element off by 1%").failures
    assert (failure.n_bad, failure.n_total) == (1, 36)
    assert "1 of 36 Jacobian elements exceed the tolerance" in failure.message


def test_worst_element_has_index_values_and_errors():
    (failure,) = report_of("one element off by 1%").failures
    (worst,) = failure.worst
    assert worst.out_index == (0, 1) and worst.in_index == (0, 1)
    np.testing.assert_allclose(worst.analytic, 1.01 * worst.numeric, rtol=1e-6)
    np.testing.assert_allclose(worst.rel_err, 0.01, rtol=1e-4)
    assert worst.abs_err == abs(worst.analytic - worst.numeric)


def test_worst_elements_are_listed_worst_first_and_at_most_five():
    (failure,) = report_of("sign flip").failures
    ratios = [m.abs_err for m in failure.worst]
    assert len(failure.worst) == 5 and ratios == sorted(ratios, reverse=True)


def test_rendered_element_reads_as_a_derivative():
    m = Mismatch((0, 1), (2,), 1.5, 1.0, 0.5, 0.5)
    assert m.describe("out", "x") == ("d out[0, 1] / d x[2]: analytic 1.5, numeric 1, "
                                      "abs err 0.5, rel err 0.5")


def test_report_ends_with_the_replay_line():
    report = report_of("sign flip", seed=42)
    assert str(report).splitlines()[-1] == (
        "replay: gradcheck(func, inputs, ..., fast_mode=False, seed=42)")


def test_passed_report_says_so_and_has_no_replay_line():
    report = GradcheckReport(1, "full", 7, 1e-6, 1e-5, 1e-3)
    assert report.ok and str(report) == ("gradcheck passed (full mode, seed 7, eps 1e-06, "
                                         "atol 1e-05, rtol 0.001)")


def test_error_carries_the_report():
    report = GradcheckReport(2, "fast", 1, 1e-6, 1e-5, 1e-3,
                             failures=[Failure("zero_grad", None, 0, "boom")])
    error = GradcheckError(report)
    assert error.report is report and "gradgradcheck failed" in str(error)
    assert isinstance(error, AssertionError)


def test_pairs_lists_output_input_positions_of_failures():
    assert report_of("swapped inputs").pairs() == {(0, 0), (0, 1)}
