"""set_global_initializer as Paddle's: layers made after it start from its initializers unless
their ParamAttr names one; None gives the layers' own defaults back."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import import_paddle


@pytest.fixture
def frameworks():
    paddle = import_paddle()
    yield opsdk, paddle
    for P in (opsdk, paddle):
        P.nn.initializer.set_global_initializer(None, None)


def linear_params(P, attr=None):
    layer = P.nn.Linear(2, 3, weight_attr=attr)
    return layer.weight.numpy().tolist(), layer.bias.numpy().tolist()


@pytest.mark.paddle
def test_global_initializers_apply_as_paddle(frameworks):
    seen = []
    for P in frameworks:
        init = P.nn.initializer
        init.set_global_initializer(init.Constant(0.5), init.Constant(0.25))
        chosen = linear_params(P)
        attr_wins = linear_params(P, P.ParamAttr(initializer=init.Constant(-1.0)))
        init.set_global_initializer(init.Constant(2.0))
        weight_only = linear_params(P)
        seen.append((chosen, attr_wins, weight_only))
    assert seen[0] == seen[1]


def test_none_restores_the_defaults():
    init = opsdk.nn.initializer
    init.set_global_initializer(init.Constant(0.5))
    init.set_global_initializer(None)
    weight, bias = linear_params(opsdk)
    assert len(set(np.ravel(weight))) > 1 and bias == [0.0, 0.0, 0.0]


def test_non_initializers_are_refused_at_once():
    # Paddle's dygraph skips this type check and fails at the next parameter made; opsdk
    # refuses where the mistake is
    with pytest.raises(TypeError, match="weight_init: expected: an opsdk.nn.initializer"):
        opsdk.nn.initializer.set_global_initializer(0.5)
    with pytest.raises(opsdk.errors.ArgumentTypeError, match="bias_init"):
        opsdk.nn.initializer.set_global_initializer(None, "zeros")
