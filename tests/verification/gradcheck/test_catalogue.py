"""A catalogue of deliberately wrong backward rules: each caught in full and in fast mode over
several seeds, with the right (output, input) named; correct ops never flagged."""
import numpy as np
import pytest

from opsdk.errors import GradcheckError
from opsdk.verification.gradcheck import check_gradients, gradgradcheck

from verification.gradcheck.wrong_ops import (CORRECT, WRONG_FIRST_ORDER, DetachedCube, NonDeterministic,
                                 RawCube, tensors)

SEEDS = range(5)
MODES = {"full": False, "fast": True}


def check(func, shapes, dtype, seed, fast, order=1):
    """The report of gradcheck (order 1) or of a failed gradgradcheck (None if it passed)."""
    args = tensors(np.random.default_rng(seed), dtype, *shapes)
    if order == 1:
        return check_gradients(func, args, fast_mode=fast, seed=seed)
    try:
        gradgradcheck(func, args, fast_mode=fast, seed=seed)
    except GradcheckError as e:
        return e.report
    return None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", WRONG_FIRST_ORDER)
def test_wrong_first_order_rule_is_caught_and_blamed_on_the_right_pair(case, dtype, mode):
    func, shapes, pairs = WRONG_FIRST_ORDER[case]
    for seed in SEEDS:
        report = check(func, shapes, dtype, seed, MODES[mode])
        assert not report.ok, f"{case}: seed {seed} passed"
        jacobian_pairs = {(f.output, f.input) for f in report.failures if f.kind == "jacobian"}
        assert jacobian_pairs == pairs, f"{case}: seed {seed}\n{report}"


@pytest.mark.parametrize("mode", MODES)
def test_non_deterministic_backward_is_caught_as_not_reentrant(mode):
    for seed in SEEDS:
        report = check(NonDeterministic.apply, [(3, 4)], "float64", seed, MODES[mode])
        assert {(f.output, f.input) for f in report.failures if f.kind == "reentrant"} == {(0, 0)}


@pytest.mark.parametrize("mode", MODES)
def test_raw_backward_fails_gradgradcheck_naming_the_op(mode):
    for seed in SEEDS:
        report = check(RawCube.apply, [(4,)], "float64", seed, MODES[mode], order=2)
        (failure,) = report.failures
        assert failure.kind == "double_backward" and failure.output == 0
        assert "'RawCube' is first-order only" in failure.message


@pytest.mark.parametrize("mode", MODES)
def test_backward_cut_from_its_input_fails_gradgradcheck(mode):
    for seed in SEEDS:
        report = check(DetachedCube.apply, [(4,)], "float64", seed, MODES[mode], order=2)
        assert report.pairs() == {(0, 0)}
        assert any("zero where non-zero" in h for h in report.failures[0].hints)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", CORRECT)
def test_correct_op_is_never_flagged(case, dtype, mode):
    func, shapes = CORRECT[case]
    for seed in range(12):
        report = check(func, shapes, dtype, seed, MODES[mode])
        assert report.ok, str(report)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", ["swish", "sin and cos", "softmax", "broadcast divide"])
def test_correct_op_passes_gradgradcheck(case, dtype, mode):
    func, shapes = CORRECT[case]
    for seed in range(4):
        assert check(func, shapes, dtype, seed, MODES[mode], order=2) is None
