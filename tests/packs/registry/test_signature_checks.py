"""Whether an op's input specs and attrs bind to its forward's parameters."""
from opsdk.packs.registry.signature_checks import call_problems

from .conftest import Lerp, Swish


def test_specs_and_attrs_that_bind_have_no_problems():
    assert call_problems(Swish, 1, {"beta": 2.0}) == []
    assert call_problems(Swish, 1, {}) == []
    assert call_problems(Lerp, 2, {"weight": 0.3}) == []


def test_more_specs_than_parameters_is_reported():
    (problem,) = call_problems(Swish, 3, {})
    assert problem.startswith("inputs has 3 specs but Swish.forward(ctx, x, beta=1.0) takes 2")


def test_attr_that_is_no_parameter_is_reported():
    assert call_problems(Swish, 1, {"betta": 1.0}) == [
        "attrs['betta'] is not a parameter of Swish.forward(ctx, x, beta=1.0)"]


def test_attr_for_an_argument_the_inputs_supply_is_reported():
    assert "attrs['x'] sets an argument that inputs already supplies" in call_problems(Swish, 1, {"x": 1})[0]


def test_required_parameter_without_value_is_reported():
    problems = call_problems(Lerp, 1, {})
    assert any("parameter 'b' gets no value" in p for p in problems)
    assert any("parameter 'weight' gets no value" in p for p in problems)
