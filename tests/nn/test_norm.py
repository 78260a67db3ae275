"""LayerNorm, GroupNorm, InstanceNorm1D/2D/3D: parameters named and shaped as Paddle's, the
functional ops they call, Paddle's argument checks."""
import numpy as np
import pytest

import opsdk
import opsdk.nn.functional as F
from opsdk.errors import LayerArgumentError, ShapeError
from helpers.samples import signed


def test_layer_norm_keeps_flat_parameters_as_paddle():
    ln = opsdk.nn.LayerNorm([2, 4])
    assert [list(p.shape) for p in ln.parameters()] == [[8], [8]]
    assert ln(opsdk.ones([3, 2, 4])).shape == [3, 2, 4]


def test_layer_norm_parameters_follow_the_default_dtype_as_paddle():
    opsdk.set_default_dtype("float64")
    try:
        ln = opsdk.nn.LayerNorm(3)
    finally:
        opsdk.set_default_dtype("float32")
    assert ln.weight.dtype == ln.bias.dtype == opsdk.float64


def test_group_norm_layer_parameters_and_forward():
    gn = opsdk.nn.GroupNorm(2, 4, data_format="NHWC")
    assert sorted(gn.state_dict()) == ["bias", "weight"]
    assert repr(gn) == "GroupNorm(num_groups=2, num_channels=4, epsilon=1e-05)"
    x = opsdk.to_tensor(signed(2, 3, 4, seed=1))
    np.testing.assert_allclose(gn(x).numpy(), F.group_norm(x, 2, data_format="NHWC").numpy())
    assert [n for n, _ in opsdk.nn.GroupNorm(2, 4, affine=False).named_parameters()] == []
    assert [n for n, _ in opsdk.nn.GroupNorm(2, 4, bias_attr=False).named_parameters()] == \
        ["weight"]


def test_instance_norm_layers_name_their_scale_as_paddle():
    inn = opsdk.nn.InstanceNorm2D(3)
    assert sorted(inn.state_dict()) == ["bias", "scale"]
    x = opsdk.to_tensor(signed(2, 3, 2, 2, seed=2), stop_gradient=False)
    (inn(x) * opsdk.to_tensor(signed(2, 3, 2, 2, seed=3))).sum().backward()
    assert inn.scale.grad.shape == [3] and x.grad.shape == [2, 3, 2, 2]
    assert opsdk.nn.InstanceNorm1D(3)(opsdk.ones([2, 3])).shape == [2, 3]
    assert opsdk.nn.InstanceNorm3D(3, weight_attr=False, bias_attr=False).parameters() == []


@pytest.mark.parametrize("layer, shape", [(opsdk.nn.InstanceNorm1D, [2, 3, 4, 5]),
                                          (opsdk.nn.InstanceNorm2D, [2, 3, 4]),
                                          (opsdk.nn.InstanceNorm3D, [2, 3, 4, 5])])
def test_instance_norm_layers_check_the_rank_as_paddle(layer, shape):
    with pytest.raises(ShapeError, match=rf"expected .*D input \(got {len(shape)}D input\)"):
        layer(3)(opsdk.ones(shape))


def test_instance_norm_weight_and_bias_attrs_go_off_together():
    with pytest.raises(LayerArgumentError, match="weight_attr and bias_attr must be False"):
        opsdk.nn.InstanceNorm2D(3, weight_attr=False)
    with pytest.raises(AssertionError):  # Paddle's assertion
        opsdk.nn.InstanceNorm1D(3, bias_attr=False)


@pytest.mark.paddle
@pytest.mark.parametrize("kwargs", [{"elementwise_affine": False}, {"bias": False},
                                    {"dtype": "float64", "device": "cpu"}],
                         ids=["no_affine", "no_bias", "dtype_device"])
def test_layer_norm_takes_paddles_torch_style_keywords(kwargs):
    from helpers.frameworks import import_paddle
    paddle = import_paddle()
    seen = []
    for P in (paddle, opsdk):
        ln = P.nn.LayerNorm(4, **kwargs)
        seen.append([(None if p is None else (list(p.shape), str(p.dtype)))
                     for p in (ln.weight, ln.bias)])
    assert seen[1] == seen[0]
