"""An op's Function run through its protocol without an opsdk graph (opsdk.interop.direct): what
its backward returns is checked and prepared exactly as the engine's PyLayer node does it."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import BackwardReturnError, OpBackwardError
from opsdk.interop import direct


def _function(backward, materialize=True):
    """A Function y = 3 x (x: the first argument) whose backward is ``backward(ctx, dy)``."""

    class Scaled(opsdk.Function):
        _opsdk_qualname = "test.scaled"

        @staticmethod
        def forward(ctx, x, beta=1.0):
            ctx.set_materialize_grads(materialize)
            ctx.seen = []
            return x * 3.0

    Scaled.backward = staticmethod(backward)
    return Scaled


def _run(function, x, seed, args=()):
    """(gradients, the ctx) of one forward and backward through ``direct``."""
    state = direct.forward(function, "test.scaled", (direct.wrap(x, True), *args), {})
    grads = direct.backward(state, [None if seed is None else direct.wrap(seed, False)])
    return grads, state.ctx


def _same_as_engine(function, x, seed, args=()):
    t = opsdk.to_tensor(x, stop_gradient=False)
    (want,) = opsdk.grad(function.apply(t, *args), t, None if seed is None else opsdk.to_tensor(seed))
    (got,), _ = _run(function, x, seed, args)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert got.numpy().dtype == want.numpy().dtype


def test_a_gradient_of_the_input_s_dtype_and_shape_is_returned_as_it_is():
    returned = []

    def backward(ctx, dy):
        returned.append(dy * 3.0)
        return returned[-1]

    (g,), _ = _run(_function(backward), np.arange(4.0), np.ones(4))
    assert g is returned[0]
    np.testing.assert_array_equal(g.numpy(), [3.0, 3.0, 3.0, 3.0])


def test_one_gradient_per_forward_argument_with_none_for_attributes_works():
    def backward(ctx, dy):
        return dy * 3.0, None

    _same_as_engine(_function(backward), np.arange(4.0), np.ones(4), args=(2.0,))


def test_a_gradient_of_the_broadcast_shape_is_summed_back():
    def backward(ctx, dy):
        return opsdk.ones([2, 3], dtype="float64") * 3.0

    (g,), _ = _run(_function(backward), np.ones(3), np.ones(3))
    np.testing.assert_array_equal(g.numpy(), [6.0, 6.0, 6.0])


def test_a_gradient_of_another_float_dtype_is_cast_back_as_the_engine_does():
    def backward(ctx, dy):
        return dy.astype("float32") * 3.0

    _same_as_engine(_function(backward), np.arange(4.0), np.ones(4))


def test_an_integer_gradient_is_an_error_naming_the_op():
    def backward(ctx, dy):
        return dy.astype("int64")

    with pytest.raises(BackwardReturnError, match=r"test\.scaled\.backward .*wrong dtype"):
        _run(_function(backward), np.arange(4.0), np.ones(4))


def test_a_gradient_of_the_wrong_shape_is_an_error_naming_the_op():
    def backward(ctx, dy):
        return opsdk.ones([5], dtype="float64")

    with pytest.raises(BackwardReturnError, match=r"test\.scaled\.backward .*wrong shape"):
        _run(_function(backward), np.arange(4.0), np.ones(4))


def test_an_array_returned_as_the_gradient_is_wrapped_as_the_engine_does():
    def backward(ctx, dy):
        return dy.numpy() * 3.0

    _same_as_engine(_function(backward), np.arange(4.0), np.ones(4))


def test_an_exception_in_backward_names_the_op_and_keeps_its_cause():
    def backward(ctx, dy):
        raise ValueError("boom")

    with pytest.raises(OpBackwardError, match=r"backward of 'test\.scaled'.*ValueError: boom") as info:
        _run(_function(backward), np.arange(4.0), np.ones(4))
    assert isinstance(info.value.__cause__, ValueError)


def test_a_missing_incoming_gradient_is_materialized_as_zeros():
    def backward(ctx, dy):
        ctx.seen.append(dy.numpy().copy())
        return dy * 3.0

    _, ctx = _run(_function(backward), np.arange(4.0), None)
    np.testing.assert_array_equal(ctx.seen[0], np.zeros(4))


def test_without_materialize_a_missing_incoming_gradient_stays_none():
    def backward(ctx, dy):
        ctx.seen.append(dy)
        return None

    (g,), ctx = _run(_function(backward, materialize=False), np.arange(4.0), None)
    assert ctx.seen == [None] and g is None


def test_an_incoming_gradient_of_another_float_dtype_reaches_backward_in_the_output_s():
    def backward(ctx, dy):
        ctx.seen.append(dy.numpy().dtype)
        return dy * 3.0

    (g,), ctx = _run(_function(backward), np.arange(4.0), np.ones(4, dtype=np.float32))
    assert ctx.seen == [np.dtype(np.float64)] and g.numpy().dtype == np.float64
