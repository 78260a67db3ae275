"""Regime samples: every float input at several scales of its domain, rows nearly constant and
of other lengths; the same on every seed, inside a declared domain."""
from types import SimpleNamespace

import numpy as np

from opsdk import TensorSpec
from opsdk.verification.check.samples import REGIME, CaseSample, TensorSlot
from opsdk.verification.check.variants.regimes import regime_variants


def _op(inputs=None):
    return SimpleNamespace(inputs=inputs or [TensorSpec(shape=(3, 5))], sample_fn=None)


def _sample(values=None, kwargs=None, seed=0):
    rng = np.random.default_rng(seed)
    x = values if values is not None else rng.uniform(-2, 2, (3, 5))
    return CaseSample("sample 0", (TensorSlot(x, True),), kwargs or {}, [seed])


def _labels(variants):
    return [v.label.split("regime: ")[1] for v in variants]


def test_every_regime_is_derived_from_the_first_sample():
    variants = regime_variants(_op(), _sample(), True, accepts=lambda s: True)
    assert all(v.kind == REGIME for v in variants)
    # x10 would leave the declared domain (-2, 2): not derived
    assert _labels(variants) == ["×0.1 of the domain", "across the domain (×1)",
                                 "near-constant rows", "rows of 2", "rows of 17, ×0.1",
                                 "a single row"]


def test_leading_axes_of_size_one_together_and_each_alone_where_a_squeeze_would_drop_them():
    sample = _sample(np.random.default_rng(0).uniform(-2, 2, (2, 3, 5)))
    variants = regime_variants(_op([TensorSpec(shape=(2, 3, 5))]), sample, True,
                               accepts=lambda s: True)
    shapes = {label: v.args[0].values.shape for label, v in zip(_labels(variants), variants)}
    assert shapes["a single row"] == (1, 1, 5)
    assert shapes["an axis of size 1 (axis 0)"] == (1, 3, 5)
    assert shapes["an axis of size 1 (axis 1)"] == (2, 1, 5)


def test_the_values_do_not_depend_on_the_seed_the_sample_was_drawn_with():
    one = regime_variants(_op(), _sample(seed=1), True, accepts=lambda s: True)
    two = regime_variants(_op(), _sample(seed=2), True, accepts=lambda s: True)
    assert all(np.array_equal(a.args[0].values, b.args[0].values) for a, b in zip(one, two))


def test_scales_stay_inside_the_declared_domain_and_rows_are_what_they_say():
    variants = dict(zip(_labels(v := regime_variants(_op(), _sample(), True, lambda s: True)), v))
    tenth = variants["×0.1 of the domain"].args[0].values
    assert tenth.min() >= -0.2 and tenth.max() <= 0.2
    near = variants["near-constant rows"].args[0].values
    assert np.all(np.ptp(near, axis=1) <= 4e-3) and np.ptp(near.mean(axis=1)) > 0.1
    assert variants["rows of 17, ×0.1"].args[0].shape == [3, 17]


def test_an_op_without_a_declared_domain_is_also_spread_ten_times_wider():
    op = SimpleNamespace(inputs=(), sample_fn=lambda rng, dtype: [])
    variants = regime_variants(op, _sample(), True, accepts=lambda s: True)
    wide = [v for v in variants if "×10" in v.label]
    assert wide and np.abs(wide[0].args[0].values).max() > 10


def test_declared_kinks_are_kept_clear_of():
    op = _op([TensorSpec(shape=(3, 5), avoid=(0.0,), min_distance=0.05)])
    for variant in regime_variants(op, _sample(), True, accepts=lambda s: True):
        assert np.abs(variant.args[0].values).min() >= 0.05


def test_a_length_the_op_refuses_is_dropped_and_ints_naming_the_length_follow_it():
    sample = CaseSample("sample 0", (TensorSlot(np.ones((3, 5)), True), [5]), {}, [0])
    variants = regime_variants(_op(), sample, True, accepts=lambda s: s.args[0].shape[1] != 2)
    rows = [v for v in variants if "rows of" in v.label]
    assert [(v.args[0].shape, v.args[1]) for v in rows] == [([3, 17], [17])]


def test_fast_mode_keeps_the_tenth_only():
    assert _labels(regime_variants(_op(), _sample(), False, accepts=lambda s: True)) == \
        ["×0.1 of the domain"]
