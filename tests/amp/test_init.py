"""opsdk.amp's top level: decorate under O1 (the models and optimizers given back)."""
import pytest

import opsdk
from opsdk.errors import OpArgumentError


def test_decorate_takes_paddles_o2_options_which_change_nothing_under_o1():
    model = opsdk.nn.Linear(2, 2)
    opt = opsdk.optimizer.SGD(parameters=model.parameters())
    got = opsdk.amp.decorate(model, opt, level="O1", master_grad=True,
                             excluded_layers=[opsdk.nn.Linear])
    assert got[0] is model and got[1] is opt
    with pytest.raises(OpArgumentError, match="O1"):
        opsdk.amp.decorate(model, level="O2")
