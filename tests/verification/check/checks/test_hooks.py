from ..helpers import verdict
from ..ops import X, XY, Product, Square


def test_hooks_see_the_gradient_of_a_one_input_op(pack):
    assert verdict(pack, Square, "hooks", inputs=X).status == "pass"


def test_hooks_see_the_gradients_of_a_two_input_op(pack):
    assert verdict(pack, Product, "hooks", inputs=XY).status == "pass"
