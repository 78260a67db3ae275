"""What registration finds wrong in a TensorSpec."""
import pytest

from opsdk.packs.registry import TensorSpec
from opsdk.packs.registry.spec_checks import free_length, spec_problems


def _fields(spec):
    return [field for field, _ in spec_problems(spec)]


def test_good_specs_have_no_problems():
    assert spec_problems(TensorSpec(shape=(3, 4), domain=(-3.0, 3.0), avoid=(0.0,))) == []
    assert spec_problems(TensorSpec(shape=(3,), integer=True, high=4, dtype="int32")) == []


def test_non_spec_is_reported_with_its_type():
    assert spec_problems(3) == [("", "must be a TensorSpec; got: int")]


@pytest.mark.parametrize("shape", [(-1, 2), (2.0,), "ab", (True,)])
def test_shape_must_be_non_negative_ints(shape):
    assert _fields(TensorSpec(shape=shape)) == ["shape"]


@pytest.mark.parametrize("domain", [(1.0, 1.0), (2.0, 1.0), (0.0,), (0.0, float("inf")), ("a", "b")])
def test_domain_must_be_finite_low_below_high(domain):
    assert _fields(TensorSpec(shape=(2,), domain=domain)) == ["domain"]


def test_avoid_points_must_be_numbers():
    assert _fields(TensorSpec(shape=(2,), avoid=("kink",))) == ["avoid"]


def test_negative_min_distance_is_refused():
    assert _fields(TensorSpec(shape=(2,), min_distance=-1.0)) == ["min_distance"]


def test_avoid_zones_covering_the_domain_are_refused():
    (field, problem), = spec_problems(TensorSpec(shape=(2,), domain=(0.0, 1.0), avoid=(0.25, 0.75),
                                                 min_distance=0.25))
    assert field == "avoid" and "cover the whole domain" in problem


def test_float_spec_with_an_integer_dtype_points_to_integer_true():
    (field, problem), = spec_problems(TensorSpec(shape=(2,), dtype="int64"))
    assert field == "dtype" and "integer=True" in problem


def test_integer_spec_needs_an_integer_dtype():
    assert _fields(TensorSpec(shape=(2,), integer=True, high=3, dtype="float32")) == ["dtype"]


def test_unknown_dtype_is_reported():
    assert _fields(TensorSpec(shape=(2,), dtype="float99")) == ["dtype"]


def test_integer_spec_needs_high_above_low():
    assert _fields(TensorSpec(shape=(2,), integer=True)) == ["high"]
    assert _fields(TensorSpec(shape=(2,), integer=True, low=3, high=3)) == ["high"]


def test_flags_must_be_booleans():
    assert _fields(TensorSpec(shape=(2,), requires_grad="yes")) == ["requires_grad"]


def test_free_length_subtracts_overlapping_zones_once():
    assert free_length((0.0, 10.0), (2.0, 3.0), 1.0) == pytest.approx(7.0)
    assert free_length((0.0, 1.0), (), 0.1) == 1.0
    assert free_length((0.0, 1.0), (0.0,), 0.5) == pytest.approx(0.5)
