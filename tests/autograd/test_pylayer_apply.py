"""PyLayer.apply as in Paddle: an input returned as an output is an in-place op, integer outputs
keep stop_gradient=False, the flags of the gradients it leaves in .grad, the dtype rules."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import InplaceModifiedError, LeafInplaceError


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)


class Identity(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, dy):
        return dy


class Double(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def test_returning_a_leaf_that_needs_a_gradient_is_refused_as_in_paddle():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="in-place change of the leaf") as info:
        Identity.apply(x)
    assert isinstance(info.value, LeafInplaceError)


def test_returning_a_non_leaf_input_bumps_its_version_and_rebinds_it():
    data = leaf(np.ones((2, 3)))
    b = data ** 2
    c = b ** 2  # saves b
    out = Identity.apply(b)
    assert out is b and b.inplace_version == 1 and b.grad_fn.name == "Identity"
    with pytest.raises(RuntimeError) as info:
        opsdk.nn.functional.relu(c).sum().backward()
    assert isinstance(info.value, InplaceModifiedError)


def test_a_rebound_input_passes_gradients_through_the_layer():
    x = leaf([1.0, 2.0])
    y = x * 3
    z = Identity.apply(y)
    (z * z).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [18.0, 36.0])


def test_an_input_marked_not_inplace_comes_back_as_a_new_tensor():
    class Same(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    y = Same.apply(x)
    assert y is not x and x.is_leaf and not y.is_leaf and x.inplace_version == 0


def test_an_integer_output_reports_stop_gradient_false_and_is_not_a_leaf():
    class ToInt(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return opsdk.cast(x, "int64")

        @staticmethod
        def backward(ctx, dy):
            return opsdk.cast(dy, "float64")

    y = ToInt.apply(leaf([1.5, 2.5]))
    assert not y.stop_gradient and not y.is_leaf and y.numpy().tolist() == [1, 2]


def test_a_gradient_computed_in_backward_reports_stop_gradient_true_in_grad():
    x = leaf([1.0, 2.0])
    Double.apply(x).sum().backward()
    assert x.grad.stop_gradient and x.grad.numpy().tolist() == [2.0, 2.0]
    x2 = leaf([1.0, 2.0])
    Identity.apply(x2 * 1).sum().backward()  # the gradient into x2 comes from multiply
    assert not x2.grad.stop_gradient
    x3 = leaf([1.0, 2.0])
    Double.apply(x3 * 3).sum().backward()
    assert not x3.grad.stop_gradient


def test_dy_passed_through_unchanged_keeps_stop_gradient_false():
    class Pass(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, dy):
            return dy

    x = leaf([1.0])
    Pass.apply(x).sum().backward()
    assert not x.grad.stop_gradient


def test_an_sdk_op_written_as_a_pylayer_leaves_grads_like_a_core_op():
    # an op that names itself in _opsdk_qualname stands for a Paddle core op (erf is one):
    # its gradient reaches x.grad with stop_gradient=False, as Paddle's erf leaves it
    class SdkDouble(Double):
        _opsdk_qualname = "test.double"

    x = leaf([1.0, 2.0])
    SdkDouble.apply(x).sum().backward()
    assert not x.grad.stop_gradient and x.grad.numpy().tolist() == [2.0, 2.0]
    x2 = leaf([0.3])
    opsdk.erf(x2).sum().backward()
    assert not x2.grad.stop_gradient


def test_a_retained_gradient_reports_stop_gradient_false():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grads()
    (y * y).sum().backward()
    assert not y.grad.stop_gradient and y.grad.is_leaf
    np.testing.assert_allclose(y.grad.numpy(), [4.0, 8.0])


class ToHalf(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, dy):
        return opsdk.cast(dy, "float16")


def test_a_gradient_of_another_float_dtype_is_cast_back_by_default():
    seen = []

    class Plain(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            seen.append(dy.dtype)
            return dy * 2

    x = leaf([1.0, 2.0], "float32")
    ToHalf.apply(Plain.apply(x)).sum().backward()
    assert seen == [np.float32] and x.grad.dtype == np.float32


def test_set_grad_in_dtype_consistent_false_gets_the_gradient_uncast():
    seen = []

    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_grad_in_dtype_consistent(False)
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            seen.append(dy.dtype)
            return opsdk.cast(dy, "float32") * 2

    x = leaf([1.0, 2.0], "float32")
    ToHalf.apply(Keep.apply(x)).sum().backward()
    assert seen == [np.float16] and x.grad.dtype == np.float32


def test_missing_forward_is_not_implemented_and_missing_backward_fails_as_os_error():
    class NoForward(PyLayer):
        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(NotImplementedError, match="must define forward"):
        NoForward.apply(leaf([1.0]))

    class NoBackward(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    # Paddle raises OSError for any exception out of a PyLayer's backward
    with pytest.raises(OSError, match="must define backward"):
        NoBackward.apply(leaf([1.0])).sum().backward()


def test_a_second_backward_through_a_freed_graph_is_also_a_system_error():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(SystemError, match="retain_graph=True"):
        y.backward()


def test_a_hooked_output_of_a_multi_output_op_that_gets_no_gradient_sees_zeros():
    x = leaf(np.arange(4.0).reshape(1, 4))
    a, b = opsdk.split(x * 1, 2, axis=1)
    b.retain_grads()
    seen = []
    b.register_hook(lambda g: seen.append(g.numpy().tolist()))
    a.sum().backward()
    assert seen == [[[0.0, 0.0]]] and b.grad.numpy().tolist() == [[0.0, 0.0]]
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, 1.0, 0.0, 0.0]])


def test_the_version_error_also_says_it_in_paddles_words():
    x = leaf([1.0, 2.0])
    y = x * 1
    z = y ** 2
    with opsdk.no_grad():
        y[0] = 5.0
    with pytest.raises(RuntimeError, match="received tensor_version:1 != wrapper_version_snapshot:0"):
        z.sum().backward()
