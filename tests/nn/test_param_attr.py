"""ParamAttr: how layers accept weight_attr / bias_attr."""
import numpy as np
import pytest

import opsdk as paddle
from opsdk.errors import OpArgumentError
from opsdk.nn import ParamAttr
from opsdk.nn.initializer import Constant


def test_to_attr_accepts_none_name_initializer_false_and_paramattr():
    assert isinstance(ParamAttr._to_attr(None), ParamAttr)
    assert ParamAttr._to_attr("w").name == "w"
    assert isinstance(ParamAttr._to_attr(Constant(1.0)).initializer, Constant)
    assert ParamAttr._to_attr(False) is False
    attr = ParamAttr(learning_rate=0.5)
    assert ParamAttr._to_attr(attr) is attr


def test_bias_attr_true_means_the_default_bias():
    # Paddle's GradScaler docstring builds Conv2D(3, 2, 3, bias_attr=True)
    conv = paddle.nn.Conv2D(3, 2, 3, bias_attr=True)
    assert conv.bias.shape == [2] and conv.bias.numpy().tolist() == [0.0, 0.0]
    assert isinstance(ParamAttr._to_attr(True), ParamAttr)


def test_to_attr_rejects_other_types():
    with pytest.raises(OpArgumentError, match="ParamAttr"):
        ParamAttr._to_attr(3)


def test_linear_takes_initializer_name_learning_rate_and_trainable_from_the_attr():
    fc = paddle.nn.Linear(2, 3, weight_attr=ParamAttr(name="my_w", initializer=Constant(0.5),
                                                      learning_rate=0.1, trainable=False))
    w = fc.weight
    assert w.name == "my_w" and w.optimize_attr["learning_rate"] == 0.1
    assert w.stop_gradient and not w.trainable
    np.testing.assert_array_equal(w.numpy(), np.full((2, 3), 0.5, np.float32))


def test_bias_attr_false_creates_no_bias():
    fc = paddle.nn.Linear(2, 3, bias_attr=False)
    assert fc.bias is None and len(fc.parameters()) == 1
