"""Ops from packs take what core ops take: lists, NumPy arrays and numbers at tensor arguments."""
import numpy as np
import pytest

import opsdk
import opsdk.plugins
from opsdk import Sample, TensorSpec, hookimpl
from opsdk.errors import OpArgumentError


class Scale(opsdk.Function):
    """alpha * x + y, with x and y tensors and alpha an attribute."""

    @staticmethod
    def forward(ctx, x, y, alpha=2.0):
        ctx.alpha = alpha
        # x._data: what generated packs do, and what a list would crash on
        return opsdk.to_tensor(x._data * alpha + y._data)

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.alpha, dy


class Norm(opsdk.Function):
    """x scaled by the product of shape (an attribute that is a list, never a tensor)."""

    @staticmethod
    def forward(ctx, x, shape):
        return opsdk.to_tensor(x._data * float(np.prod(shape)))

    @staticmethod
    def backward(ctx, dy):
        return dy


def _norm_samples(rng, dtype):
    return [Sample(args=(opsdk.to_tensor(rng.standard_normal(4), dtype=dtype), [2, 2]))]


@pytest.fixture(scope="module")
def ops():
    @hookimpl
    def register_ops(register):
        register(Scale, name="scale", inputs=[TensorSpec(shape=(3,)), TensorSpec(shape=(3,))],
                 attrs={"alpha": 2.0})
        register(Norm, name="norm", samples=_norm_samples)

    class Plugin:
        pass

    Plugin.register_ops = staticmethod(register_ops)
    opsdk.plugins.register_pack(Plugin, name="argpack")
    yield opsdk.ops.argpack
    opsdk.plugins.unregister_pack("argpack")


def test_lists_become_tensors_of_the_default_float(ops):
    out = ops.scale([1.0, 2.0], [0.5, 0.5])
    assert out.dtype == opsdk.float32
    np.testing.assert_allclose(out.numpy(), [2.5, 4.5])


def test_numpy_arrays_keep_their_dtype(ops):
    out = ops.scale(np.ones(2), np.zeros(2))
    assert out.dtype == opsdk.float64


def test_python_numbers_follow_the_dtype_of_a_tensor_argument(ops):
    x = opsdk.to_tensor([1.0, 2.0], dtype="float64")
    out = ops.scale(x, 1.0)
    assert out.dtype == opsdk.float64
    np.testing.assert_allclose(out.numpy(), [3.0, 5.0])


def test_an_int_for_a_float_op_is_taken_as_a_float(ops):
    assert ops.scale(3, 1).dtype == opsdk.float32


def test_keyword_tensor_arguments_are_converted_and_attributes_left_alone(ops):
    np.testing.assert_allclose(ops.scale(x=[1.0], y=[1.0], alpha=3.0).numpy(), [4.0])


def test_an_op_verified_on_samples_converts_only_where_its_samples_hold_tensors(ops):
    out = ops.norm([1.0, 1.0], [2, 3])  # [2, 3] is an attribute: it stays a list
    np.testing.assert_allclose(out.numpy(), [6.0, 6.0])


def test_gradients_flow_into_tensors_alongside_converted_arguments(ops):
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    ops.scale(x, [0.0, 0.0]).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


@pytest.mark.parametrize("value, says", [
    ("hello", "must be a Tensor, a list, an array or a number; got: str"),
    ({"a": 1}, "got: dict"),
    (["a", "b"], "is not numeric"),
    (np.array([object()]), "is not numeric"),
])
def test_what_cannot_be_a_tensor_is_refused_naming_the_op_and_argument(ops, value, says):
    with pytest.raises(OpArgumentError, match=says) as caught:
        ops.scale(value, [1.0])
    assert "op 'argpack.scale': argument #0" in str(caught.value)


def test_a_registered_builtin_op_takes_a_list_like_the_core_function():
    erf = opsdk.ops.get("opsdk.erf")
    np.testing.assert_allclose(erf([0.5]).numpy(), opsdk.erf(opsdk.to_tensor([0.5])).numpy())


def test_none_at_an_optional_tensor_argument_stays_none():
    import opsdk_nn  # noqa: F401 - the pack of layer_norm, whose weight and bias may be absent

    rows = [[1.0, 2.0, 3.0, 4.0, 5.0]] * 2
    out = opsdk.ops.nn.layer_norm(rows, [5], None, None)
    ref = opsdk.ops.nn.layer_norm(opsdk.to_tensor(np.asarray(rows, "float32")), [5], None, None)
    assert out.shape == [2, 5]
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-6)
