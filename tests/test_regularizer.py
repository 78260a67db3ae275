"""opsdk.regularizer is Paddle's paddle.regularizer: L2Decay/L1Decay as an optimizer's
weight_decay and as a ParamAttr's regularizer give Paddle's updated weights."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle

W = np.array([[0.5, -1.0], [2.0, 0.25]], "float32")


def step(P, decay, where):
    P.seed(0)
    attr = P.ParamAttr(initializer=P.nn.initializer.Assign(W),
                       regularizer=decay if where == "attr" else None)
    layer = P.nn.Linear(2, 2, weight_attr=attr, bias_attr=False)
    opt = P.optimizer.SGD(0.1, parameters=layer.parameters(),
                          weight_decay=decay if where == "optimizer" else None)
    layer(P.to_tensor([[1.0, 2.0]])).sum().backward()
    opt.step()
    return layer.weight.numpy()


@pytest.mark.paddle
@pytest.mark.parametrize("kind", ["L1Decay", "L2Decay"])
@pytest.mark.parametrize("where", ["optimizer", "attr"])
def test_decay_updates_as_paddle(kind, where):
    paddle = import_paddle()
    got = step(opsdk, getattr(opsdk.regularizer, kind)(0.3), where)
    want = step(paddle, getattr(paddle.regularizer, kind)(0.3), where)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_the_namespace_is_the_optimizers_classes():
    assert opsdk.regularizer.L2Decay is opsdk.optimizer.regularizer.L2Decay
    assert sorted(opsdk.regularizer.__all__) == ["L1Decay", "L2Decay"]


def test_docstring_example_runs():
    import doctest
    result = doctest.testmod(opsdk.regularizer, extraglobs={"opsdk": opsdk})
    assert result.attempted > 0 and result.failed == 0
