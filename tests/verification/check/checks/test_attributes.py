from opsdk import TensorSpec

from ..helpers import verdict
from ..stateful_ops import HardcodedBeta

X = [TensorSpec(shape=(3, 4))]


def test_a_backward_hard_coding_the_registered_attribute_fails_at_perturbed_values(pack):
    result = verdict(pack, HardcodedBeta, "gradcheck", inputs=X, attrs={"beta": 2.0})
    assert result.status == "fail" and "-- sample 0, beta=2.3462" in result.detail
    assert "fail on 2 of" in result.detail  # both perturbed values; the registered one passes


def test_an_attribute_verified_at_one_value_only_is_noted(pack):
    result = verdict(pack, HardcodedBeta, "gradcheck", inputs=X, attrs={"beta": 2.0},
                     attr_ranges={"beta": (2.0, 2.0)})
    assert result.status == "pass"
    assert result.notes == ["attribute 'beta' verified at 2 only: its declared range "
                            "(2.0, 2.0) holds no other value"]
