"""The padding layers: F.pad with amounts, mode and layout fixed, Paddle's names and reprs."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from helpers.samples import signed


@pytest.mark.parametrize("name, mode", [("ZeroPad2D", "constant"), ("ReflectionPad2d", "reflect"),
                                        ("ReplicationPad2D", "replicate"),
                                        ("CircularPad2d", "circular")])
def test_fixed_mode_layers_are_f_pad(name, mode):
    x = opsdk.to_tensor(signed(1, 2, 3, 4))
    layer = getattr(opsdk.nn, name)([1, 0, 2, 1])
    np.testing.assert_array_equal(layer(x).numpy(), F.pad(x, [1, 0, 2, 1], mode=mode).numpy())
    assert isinstance(layer, opsdk.nn.Pad2D)


def test_an_int_pads_every_side_and_reprs_are_paddles():
    layer = opsdk.nn.ConstantPad1D(2, 3.5)
    assert layer.padding == [2, 2] and layer(opsdk.ones([1, 1, 3])).shape == [1, 1, 7]
    assert repr(layer) == "ConstantPad1D(padding=[2, 2], mode=constant, value=3.5, " \
                          "data_format=NCL)"
    assert opsdk.nn.Pad3D(1, mode="replicate")(opsdk.ones([1, 1, 2, 2, 2])).shape == \
        [1, 1, 4, 4, 4]


def test_the_layers_pass_gradients():
    x = opsdk.to_tensor(signed(1, 1, 2, 3), stop_gradient=False)
    opsdk.nn.ReflectionPad1D([1, 2])(x.reshape([1, 2, 3])).sum().backward()
    # output rows copy input rows 1, 0, 1, 2, 1, 0
    assert x.grad.numpy().ravel().tolist() == [2.0, 3.0, 1.0, 2.0, 3.0, 1.0]
