"""What a PyLayer's backward may return: count, type, dtype and shape are checked, and errors
name the op, the argument, what was expected and what came."""
import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import BackwardReturnError


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def op_returning(make_grads, name="Op"):
    """A PyLayer computing x * w (+ a non-Tensor argument) whose backward returns
    ``make_grads(dy, x, w)``."""

    def forward(ctx, x, k, w):
        ctx.save_for_backward(x, w)
        return x * w * k

    def backward(ctx, dy):
        x, w = ctx.saved_tensor()
        return make_grads(dy, x, w)

    return type(name, (PyLayer,), {"forward": staticmethod(forward),
                                   "backward": staticmethod(backward)})


def run(op, x=None, w=None):
    x = leaf([1.0, 2.0]) if x is None else x
    w = leaf([3.0, 4.0]) if w is None else w
    op.apply(x, 2.0, w).sum().backward()
    return x, w


def test_one_gradient_per_forward_argument_with_none_for_the_non_tensor():
    x, w = run(op_returning(lambda dy, x, w: (dy * w * 2, None, dy * x * 2)))
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])


def test_wrong_count_names_the_op_and_both_accepted_counts():
    op = op_returning(lambda dy, x, w: (dy,), name="Mul")
    with pytest.raises(BackwardReturnError, match=r"Mul.backward.*wrong number of gradients; "
                       r"expected: one per Tensor input \(2\) or one per forward argument "
                       r"\(3, None for non-Tensors\); got: 1"):
        run(op)


def test_gradient_for_a_non_tensor_argument_is_an_error_naming_it():
    op = op_returning(lambda dy, x, w: (dy, dy, dy))
    with pytest.raises(BackwardReturnError, match=r"argument 1 \('k'\), which is not a Tensor"):
        run(op)


def test_wrong_type_is_an_error_naming_the_argument():
    op = op_returning(lambda dy, x, w: ("grad", dy))
    with pytest.raises(BackwardReturnError, match=r"returned a str as the gradient of "
                       r"argument 0 \('x'\); expected: a Tensor"):
        run(op)


def test_numpy_array_gradient_is_accepted():
    op = op_returning(lambda dy, x, w: ((dy * w * 2).numpy(), (dy * x * 2).numpy()))
    x, _ = run(op)
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])


def test_another_float_precision_is_cast_to_the_inputs_dtype_as_in_paddle():
    x, w = run(op_returning(lambda dy, x, w: (dy.astype("float64") * w * 2, dy.astype("float16"))))
    assert x.grad.dtype == np.float32 and w.grad.dtype == np.float32
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])


def test_integer_gradient_for_a_float_input_names_expected_and_got():
    op = op_returning(lambda dy, x, w: (dy.astype("int64"), dy))
    with pytest.raises(BackwardReturnError, match=r"argument 0 \('x'\) with the wrong dtype; "
                       r"expected: float32; got: int64"):
        run(op)


def test_wrong_shape_names_expected_and_got():
    op = op_returning(lambda dy, x, w: (dy, dy[:1]))
    with pytest.raises(BackwardReturnError, match=r"argument 2 \('w'\) with the wrong shape; "
                       r"expected: \[2\].*got: \[1\]"):
        run(op)


def test_same_size_wrong_shape_suggests_a_reshape_or_transpose():
    op = op_returning(lambda dy, x, w: (dy.T, dy.T))
    with pytest.raises(BackwardReturnError, match="missing reshape or transpose"):
        run(op, leaf([[1.0, 2.0, 3.0]]), leaf([[1.0, 2.0, 3.0]]))


def test_gradient_of_the_broadcast_shape_is_summed_back():
    op = op_returning(lambda dy, x, w: (dy * w * 2, dy * x * 2))
    x, w = run(op, leaf([[1.0, 2.0], [3.0, 4.0]]), leaf([10.0, 20.0]))
    np.testing.assert_allclose(w.grad.numpy(), [2 * (1 + 3), 2 * (2 + 4)])


def test_error_shows_where_forward_was_called():
    op = op_returning(lambda dy, x, w: (dy,))
    with pytest.raises(BackwardReturnError, match=r"forward called at .*test_function_returns"):
        run(op)


def test_gradient_for_an_input_without_grad_is_ignored():
    op = op_returning(lambda dy, x, w: (dy * w * 2, "unused"))
    x, w = run(op, w=opsdk.to_tensor([3.0, 4.0]))
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])
    assert w.grad is None


def test_gradient_on_another_device_is_an_error_naming_both():
    # CPU companion of the GPU case: the input's metadata says it lives on the GPU
    from opsdk.autograd.pylayer_backward import InputMeta
    from opsdk.autograd.pylayer_grads import check_grads

    class Rule:
        name, site, n_args, tensor_pos, list_args = "Moved", None, 1, (0,), {}
        inputs = [InputMeta(leaf([1.0]))]

        @staticmethod
        def arg_label(pos):
            return f"argument {pos}"

    Rule.inputs[0].on_cpu = False
    with pytest.raises(BackwardReturnError, match="wrong device; expected: gpu .*; got: cpu"):
        check_grads(Rule, opsdk.to_tensor([1.0]))


def test_a_pylayer_backward_gets_each_grad_in_its_outputs_dtype_as_in_paddle():
    import numpy as _np

    seen = []

    class Double(opsdk.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            seen.append(dy.dtype)
            return dy * 2

    x = opsdk.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    (g,) = opsdk.grad([Double.apply(x)], [x], grad_outputs=[opsdk.to_tensor([1.0, 1.0], dtype="float64")])
    assert seen == [_np.float32] and g.dtype == _np.float32 and g.numpy().tolist() == [2.0, 2.0]


def test_a_correct_backward_builds_no_error_label(monkeypatch):
    # the argument labels come from inspect.signature (tens of microseconds): only for errors
    import inspect

    def forbidden(*args, **kwargs):
        raise AssertionError("inspect.signature called on a backward that returned right")

    op = op_returning(lambda dy, x, w: (dy * w * 2, dy * x * 2))
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    y = op.apply(x, 2.0, w)
    monkeypatch.setattr(inspect, "signature", forbidden)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 8.0])
