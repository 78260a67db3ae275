"""Learning-rate schedulers."""
import math

import pytest

from opsdk.errors import OpArgumentError
from opsdk.optimizer import lr


def _rates(sched, n):
    out = []
    for _ in range(n):
        out.append(sched())
        sched.step()
    return out


def test_step_decay_multiplies_by_gamma_every_step_size_epochs():
    assert _rates(lr.StepDecay(0.5, step_size=2, gamma=0.1), 6) == pytest.approx(
        [0.5, 0.5, 0.05, 0.05, 0.005, 0.005])


def test_step_decay_validates_its_arguments():
    with pytest.raises(OpArgumentError, match="step_size"):
        lr.StepDecay(0.1, step_size=0)
    with pytest.raises(OpArgumentError, match="gamma"):
        lr.StepDecay(0.1, step_size=1, gamma=1.5)


def test_cosine_annealing_follows_the_closed_form_within_one_period():
    sched = lr.CosineAnnealingDecay(0.1, T_max=10, eta_min=0.01)
    rates = _rates(sched, 11)
    want = [0.01 + 0.09 * (1 + math.cos(math.pi * e / 10)) / 2 for e in range(11)]
    assert rates == pytest.approx(want, rel=1e-9)


def test_cosine_annealing_step_with_an_epoch_jumps_there():
    sched = lr.CosineAnnealingDecay(1.0, T_max=4)
    sched.step(2)
    assert sched() == pytest.approx(0.5)


def test_multistep_and_exponential_decay():
    assert _rates(lr.MultiStepDecay(1.0, milestones=[1, 3], gamma=0.5), 4) == [1.0, 0.5, 0.5,
                                                                                0.25]
    assert _rates(lr.ExponentialDecay(1.0, gamma=0.5), 3) == [1.0, 0.5, 0.25]


def test_scheduler_state_dict_round_trip():
    a = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    a.step()
    a.step()
    b = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    b.set_state_dict(a.state_dict())
    assert (b.last_epoch, b()) == (2, a())


def test_natural_exp_inverse_time_and_lambda_decays():
    assert _rates(lr.NaturalExpDecay(1.0, gamma=0.5), 3) == pytest.approx(
        [1.0, math.exp(-0.5), math.exp(-1.0)])
    assert _rates(lr.InverseTimeDecay(1.0, gamma=0.5), 3) == pytest.approx([1.0, 1 / 1.5, 0.5])
    assert _rates(lr.LambdaDecay(2.0, lambda e: 1.0 / (e + 1)), 3) == pytest.approx(
        [2.0, 1.0, 2.0 / 3])
    assert _rates(lr.MultiplicativeDecay(1.0, lambda e: 0.5), 4) == pytest.approx(
        [1.0, 0.5, 0.25, 0.125])


def test_polynomial_decay_stops_at_end_lr_or_cycles():
    assert _rates(lr.PolynomialDecay(1.0, decay_steps=2, end_lr=0.0, power=1.0), 4) == \
        pytest.approx([1.0, 0.5, 0.0, 0.0])
    assert _rates(lr.PolynomialDecay(1.0, decay_steps=2, end_lr=0.0, cycle=True), 4) == \
        pytest.approx([1.0, 0.5, 0.0, 0.25])


def test_piecewise_decay_and_its_argument_check():
    assert _rates(lr.PiecewiseDecay([1, 3], [1.0, 0.5, 0.1]), 4) == [1.0, 0.5, 0.5, 0.1]
    with pytest.raises(OpArgumentError, match="one more value than boundaries"):
        lr.PiecewiseDecay([1, 3], [1.0, 0.5])


def test_linear_warmup_then_the_wrapped_schedule_from_its_epoch_zero():
    inner = lr.StepDecay(1.0, step_size=1, gamma=0.5)
    assert _rates(lr.LinearWarmup(inner, warmup_steps=2, start_lr=0.0, end_lr=1.0), 5) == \
        pytest.approx([0.0, 0.5, 1.0, 0.5, 0.25])
    assert _rates(lr.LinearWarmup(0.3, warmup_steps=1, start_lr=0.1, end_lr=0.3), 3) == \
        pytest.approx([0.1, 0.3, 0.3])


def test_noam_decay_rises_then_falls_as_the_inverse_square_root():
    rates = _rates(lr.NoamDecay(d_model=16, warmup_steps=2), 5)
    assert rates[0] == 0.0
    assert rates[1] == pytest.approx(0.25 * 2 ** -1.5)
    assert rates[4] == pytest.approx(0.25 * 4 ** -0.5)


def test_linear_lr_ramps_the_factor():
    assert _rates(lr.LinearLR(1.0, total_steps=2, start_factor=0.5), 4) == pytest.approx(
        [0.5, 0.75, 1.0, 1.0])


def test_cosine_warm_restarts_restart_with_longer_periods():
    rates = _rates(lr.CosineAnnealingWarmRestarts(1.0, T_0=2, T_mult=2), 7)
    half = [(1 + math.cos(math.pi * k / 4)) / 2 for k in range(4)]
    assert rates == pytest.approx([1.0, 0.5] + half + [1.0], abs=1e-12)


def test_one_cycle_goes_up_to_the_peak_then_down_to_the_end():
    rates = _rates(lr.OneCycleLR(1.0, total_steps=10, phase_pct=0.3, anneal_strategy="linear",
                                 end_learning_rate=0.0), 10)
    assert rates[0] == pytest.approx(0.04) and max(rates) == pytest.approx(1.0)
    assert rates[-1] == pytest.approx(0.0, abs=1e-12)
    assert rates.index(max(rates)) == 2


def test_cyclic_triangular2_halves_the_amplitude_each_cycle():
    rates = _rates(lr.CyclicLR(0.0, 1.0, step_size_up=1, mode="triangular2"), 5)
    assert rates == pytest.approx([0.0, 1.0, 0.0, 0.5, 0.0])


def test_reduce_on_plateau_cuts_after_patience_and_waits_for_cooldown():
    sched = lr.ReduceOnPlateau(1.0, factor=0.5, patience=1, cooldown=1)
    seen = []
    for metric in [3.0, 3.0, 3.0, 3.0, 3.0, 3.0]:
        sched.step(metric)
        seen.append(sched())
    assert seen == [1.0, 1.0, 0.5, 0.5, 0.5, 0.25]
    assert set(sched.state_dict()) == {"cooldown_counter", "best", "num_bad_epochs",
                                       "last_epoch", "last_lr"}


def test_state_dict_holds_paddles_keys():
    assert set(lr.ExponentialDecay(0.5, gamma=0.9).state_dict()) == {"last_epoch", "last_lr"}


def test_a_float_step_count_is_a_type_error_as_in_paddle():
    with pytest.raises(TypeError, match="step_size must be an int"):
        lr.StepDecay(0.5, step_size=0.5)
