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
