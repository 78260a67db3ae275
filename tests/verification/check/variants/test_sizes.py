import numpy as np

from opsdk.verification.check.samples import CaseSample, TensorSlot
from opsdk.verification.check.variants.sizes import DEFAULT_SIZES, FAST_SIZES, size_variants


def _sample():
    x = TensorSlot(np.linspace(-1, 1, 24).reshape(4, 6), True)
    w = TensorSlot(np.linspace(0.5, 1.5, 6), True)
    return CaseSample("sample 0", (x, [6], w), {"epsilon": 1e-6}, [0])


def test_a_dimension_is_renamed_everywhere_ints_included_with_the_others_set_to_one():
    variants = size_variants(None, _sample(), True, accepts=lambda s: True)
    first = variants[0]
    assert first.args[0].shape == [1, 1] and first.args[1] == [1] and first.args[2].shape == [1]
    rows = [v for v in variants if "(dimension 6 -> " in v.label]
    assert [v.args[0].shape[1] for v in rows] == list(DEFAULT_SIZES)
    assert all(v.args[0].shape[0] == 1 for v in rows)


def test_values_spread_over_the_range_of_the_sample_s_own_without_ties():
    # a tie would let a selection's tie-breaking pass for a loop tail (the ties check has it)
    (variant,) = [v for v in size_variants(None, _sample(), False, accepts=lambda s: True)
                  if v.label.endswith("(dimension 6 -> 65)")]
    values = variant.args[2].values
    assert values.min() >= 0.5 and values.max() <= 1.5
    assert len(set(values.tolist())) == values.size == 65


def test_a_renaming_the_op_refuses_tries_the_others_kept_then_drops_it():
    def accepts(s):
        return s.args[0].shape[0] == 4  # rows must stay 4
    variants = size_variants(None, _sample(), False, accepts)
    assert {tuple(v.args[0].shape) for v in variants} == {(4, n) for n in FAST_SIZES}


def _square():
    x = TensorSlot(np.linspace(-1, 1, 16).reshape(4, 4), True)
    w = TensorSlot(np.linspace(0.5, 1.5, 4), True)
    return CaseSample("sample 0", (x, [4], w), {}, [0])


def test_a_square_sample_is_also_made_non_square_on_its_last_or_first_axes():
    variants = [v for v in size_variants(None, _square(), True, accepts=lambda s: True)
                if "distinct dimensions" in v.label]
    shapes = [(tuple(v.args[0].shape), v.args[1], tuple(v.args[2].shape)) for v in variants]
    assert shapes == [((4, 7), [7], (7,)), ((7, 4), [4], (4,)),
                      ((4, 65), [65], (65,)), ((65, 4), [4], (4,))]


def test_the_op_s_max_size_caps_the_derived_sizes_and_the_notes_say_so():
    from types import SimpleNamespace

    notes = []
    op = SimpleNamespace(max_size=100, cost=None)
    variants = size_variants(op, _sample(), True, accepts=lambda s: True, notes=notes)
    assert max(max(v.args[0].shape) for v in variants) <= 100
    assert notes == ["sizes 257, 4099 not derived: above what max_size=100 allows"]


def test_a_declared_cost_bounds_the_sizes_by_the_work_they_take():
    from types import SimpleNamespace

    from opsdk.packs.registry.verification_options import parse_cost

    op = SimpleNamespace(max_size=None, cost=parse_cost("sequential n^2"))
    variants = size_variants(op, _sample(), True, accepts=lambda s: True)
    assert max(max(v.args[0].shape) for v in variants) == 257  # 257^2 steps; 4099^2 too many


def test_a_size_beyond_the_budget_is_dropped_before_anything_is_allocated():
    # renaming 4 everywhere in x[4, 4] gives [65537, 65537]: 32 GiB if it were drawn
    variants = size_variants(None, _square(), True, accepts=lambda s: True)
    assert all(np.prod(v.args[0].shape) <= 1 << 22 for v in variants)
    assert not any(v.args[0].shape == [65537, 65537] for v in variants)
