import numpy as np

from opsdk.verification.check.samples import CaseSample, TensorSlot
from opsdk.verification.check.variants.attributes import attribute_variants, float_attributes, perturbed_values


class _Op:
    attr_ranges = {}

    class function:
        @staticmethod
        def forward(ctx, x, beta, flag=False, axis=0):
            return x


def _sample():
    return CaseSample("sample 0", (TensorSlot(np.ones(3), True), 1.5), {"flag": True, "axis": 1,
                                                                        "eps": 1e-6}, [0])


def test_only_float_attributes_count_positional_or_keyword():
    assert float_attributes(_Op, _sample()) == [(1, "beta", 1.5), ("eps", "eps", 1e-6)]


def test_perturbed_values_are_non_round_inside_a_declared_range_and_large_for_small_ones():
    assert perturbed_values(1.5) == [1.75965, 1.24035]
    assert perturbed_values(0.0) == [0.1731, -0.1731]
    assert perturbed_values(1e-6) == [3.731e-05, 5.731e-06]
    assert perturbed_values(0.1, (0.0, 1.0)) == [0.2731, 0.8269]
    assert perturbed_values(0.5, (0.5, 0.5)) == []


def test_an_attribute_the_op_only_takes_at_one_value_is_noted():
    variants, notes = attribute_variants(_Op, _sample(), True,
                                         accepts=lambda s: s.args[1] == 1.5)
    assert [v.kwargs["eps"] for v in variants if "eps=" in v.label] == [3.731e-05, 5.731e-06]
    assert notes == ["attribute 'beta' verified at 1.5 only: the op refuses 1.75965, 1.24035 "
                     "(declare attr_ranges to verify it at other values)"]


def test_flags_are_flipped_and_integers_moved_by_one_either_way():
    variants, notes = attribute_variants(_Op, _sample(), True, accepts=lambda s: True)
    discrete = [v.label for v in variants if "flag=" in v.label or "axis=" in v.label]
    assert discrete == ["sample 0, flag=False", "sample 0, axis=0", "sample 0, axis=2"]
    assert [v.kwargs["axis"] for v in variants if "axis=" in v.label] == [0, 2]


def test_an_integer_the_op_refuses_to_change_is_left_without_a_note():
    variants, notes = attribute_variants(_Op, _sample(), True,
                                         accepts=lambda s: s.kwargs["axis"] == 1)
    assert not [v for v in variants if "axis=" in v.label]
    assert not [n for n in notes if "axis" in n]


def test_the_floats_of_a_tuple_attribute_are_moved_one_at_a_time():
    sample = CaseSample("sample 0", (TensorSlot(np.ones(3), True),), {"bounds": (-0.5, 0.5)}, [0])
    variants, _ = attribute_variants(_Op, sample, True, accepts=lambda s: True)
    assert [v.kwargs["bounds"] for v in variants] == [(-0.58655, 0.5), (-0.41345, 0.5),
                                                      (-0.5, 0.58655), (-0.5, 0.41345)]


def test_inputs_are_placed_between_the_old_and_the_new_value_of_a_threshold():
    # no declared domain: the sample's own range, [-2, 2], holds the points
    sample = CaseSample("sample 0", (TensorSlot(np.linspace(-2, 2, 4), True),), {"delta": 1.0}, [0])
    variants, _ = attribute_variants(_Op, sample, False, accepts=lambda s: True)
    (moved,) = variants
    middle = (1.0 + moved.kwargs["delta"]) / 2
    assert moved.args[0].values[0] == middle and moved.args[0].values[-1] == -middle
