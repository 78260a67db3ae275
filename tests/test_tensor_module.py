"""opsdk.tensor as Paddle 3's paddle.tensor: callable (makes a tensor) and a package of
function namespaces (paddle.tensor.math.frexp is paddle.frexp)."""
import pytest

import opsdk
from opsdk.tensor_module import SUBMODULES


def test_calling_it_makes_a_tensor_as_paddle_tensor_does():
    t = opsdk.tensor([1.0, 2.0], requires_grad=True)
    assert isinstance(t, opsdk.Tensor) and not t.stop_gradient and t.dtype == opsdk.float32
    assert opsdk.tensor(1).shape == [] and opsdk.tensor(1).dtype == opsdk.int64
    assert opsdk.tensor([1, 2], dtype="float64").dtype == opsdk.float64


def test_submodule_names_resolve_to_opsdk_functions():
    assert opsdk.tensor.math.frexp is opsdk.frexp
    assert opsdk.tensor.search.argwhere is opsdk.argwhere
    assert opsdk.tensor.linalg.cholesky is opsdk.linalg.cholesky
    assert {"math", "creation", "manipulation", "search"} <= set(SUBMODULES)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="opsdk.tensor.math.*no_such_op"):
        opsdk.tensor.math.no_such_op
    with pytest.raises(AttributeError, match="no_such_module"):
        opsdk.tensor.no_such_module
    assert opsdk.tensor.Tensor is opsdk.Tensor  # the module's own names are untouched
