"""Seed-free values: spread evenly without repeating, clear of declared kinks."""
import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.variants.pattern import clear_of, nice_bounds, spread


def test_values_spread_over_the_interval_and_never_repeat():
    values = spread((40, 50), -2.0, 2.0)
    assert values.min() >= -2 and values.max() <= 2 and np.unique(values).size == 2000
    # evenly: every tenth of the interval holds about a tenth of them
    counts, _ = np.histogram(values, bins=10, range=(-2, 2))
    assert counts.min() >= 190 and counts.max() <= 210


def test_the_same_call_gives_the_same_values_and_another_phase_others():
    assert np.array_equal(spread((5,), 0, 1), spread((5,), 0, 1))
    assert not np.array_equal(spread((5,), 0, 1, phase=0), spread((5,), 0, 1, phase=1))


def test_values_are_moved_clear_of_declared_kinks_to_the_side_they_lay_on():
    spec = TensorSpec(shape=(4,), avoid=(0.0,), min_distance=0.1)
    moved = clear_of(np.array([-0.05, 0.01, 0.5, -1.0]), spec, -2.0, 2.0)
    assert moved.tolist() == [-0.15000000000000002, 0.15000000000000002, 0.5, -1.0]


def test_a_domain_for_ops_declaring_none_is_the_values_range_rounded_outwards():
    assert nice_bounds(np.array([-1.93, 0.2, 1.97])) == (-2.0, 2.0)
    assert nice_bounds(np.array([0.12, 0.87])) == (0.1, 0.9)
    assert nice_bounds(np.array([np.nan])) is None
