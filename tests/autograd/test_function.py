"""The PyLayer protocol: forward/backward, the context, apply with several inputs and outputs."""
import gc
import weakref

import numpy as np
import pytest

import opsdk
from opsdk.autograd import PyLayer, PyLayerContext
from opsdk.errors import BackwardReturnError, InplaceModifiedError, PyLayerError


def leaf(values, dtype="float32"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


class CustomOp(PyLayer):
    """The seed document's example, as written there."""

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return x ** alpha

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensor()
        alpha = ctx.alpha
        grad_input = alpha * (x ** (alpha - 1)) * grad_output
        return grad_input, None


class Scale(PyLayer):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.factor


def test_the_seed_example_runs_as_written():
    x = leaf([1.0, 2.0, 3.0])
    CustomOp.apply(x, 2.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_backward_may_return_one_gradient_per_tensor_input():
    x = leaf([1.0, -2.0])
    Scale.apply(x, 3.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


def test_function_is_the_same_class_as_pylayer():
    assert opsdk.Function is PyLayer
    assert opsdk.autograd.PyLayerContext is PyLayerContext


def test_forward_runs_without_recording_a_graph():
    seen = {}

    class Probe(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            seen["inner"] = y.stop_gradient
            return y

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    y = Probe.apply(leaf([1.0]))
    assert seen["inner"] is True
    assert y.stop_gradient is False


def test_several_tensor_and_non_tensor_arguments_and_outputs():
    class AffinePair(PyLayer):
        @staticmethod
        def forward(ctx, x, scale, w, shift):
            ctx.save_for_backward(x, w)
            ctx.scale = scale
            return x * w * scale + shift, x - w

        @staticmethod
        def backward(ctx, d_affine, d_diff):
            x, w = ctx.saved_tensor()
            return (d_affine * w * ctx.scale + d_diff, None,
                    d_affine * x * ctx.scale - d_diff, None)

    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    a, d = AffinePair.apply(x, 2.0, w, 1.0)
    (a.sum() + 10 * d.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), [2 * 3 + 10, 2 * 4 + 10])
    np.testing.assert_allclose(w.grad.numpy(), [2 * 1 - 10, 2 * 2 - 10])


def test_non_tensor_outputs_pass_through_unchanged():
    class WithCount(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, "two"

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    y, label = WithCount.apply(leaf([1.0]))
    assert label == "two"
    y.sum().backward()


def test_apply_without_any_input_needing_grad_records_nothing():
    y = Scale.apply(opsdk.to_tensor([1.0, 2.0]), 2.0)
    assert y.stop_gradient and y.grad_fn is None


def test_apply_under_no_grad_records_nothing():
    with opsdk.no_grad():
        y = Scale.apply(leaf([1.0]), 2.0)
    assert y.grad_fn is None


def test_needs_input_grad_has_one_flag_per_forward_argument():
    seen = {}

    class Probe(PyLayer):
        @staticmethod
        def forward(ctx, x, k, w):
            seen["flags"] = ctx.needs_input_grad
            return x * w

        @staticmethod
        def backward(ctx, dy):
            return dy, None, None

    Probe.apply(leaf([1.0]), 3, opsdk.to_tensor([2.0]))
    assert seen["flags"] == (True, False, False)


def test_attributes_stored_on_ctx_reach_backward():
    x = leaf([1.0, 1.0])
    Scale.apply(x, 5.0).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 5.0])


def test_mark_non_differentiable_output_has_no_gradient_and_backward_gets_zeros():
    seen = {}

    class SortLike(PyLayer):
        @staticmethod
        def forward(ctx, x):
            idx = opsdk.to_tensor([1.0, 0.0])
            ctx.mark_non_differentiable(idx)
            return x * 1.0, idx

        @staticmethod
        def backward(ctx, dy, didx):
            seen["didx"] = didx.numpy().copy()
            return dy

    y, idx = SortLike.apply(leaf([3.0, 4.0]))
    # Paddle 3.3.1: stop_gradient, yet an op's result, not a leaf
    assert idx.stop_gradient and not idx.is_leaf
    y.sum().backward()
    np.testing.assert_array_equal(seen["didx"], [0.0, 0.0])


def test_materialized_grads_are_zeros_for_unused_outputs():
    seen = {}

    class Two(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0, x * 2.0

        @staticmethod
        def backward(ctx, da, db):
            seen["db"] = db
            return da + 2 * db

    a, _ = Two.apply(leaf([1.0]))
    a.sum().backward()
    np.testing.assert_array_equal(seen["db"].numpy(), [0.0])


def test_set_materialize_grads_false_passes_none_for_unused_outputs():
    seen = {}

    class Two(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 1.0, x * 2.0

        @staticmethod
        def backward(ctx, da, db):
            seen["db"] = db
            return da

    a, _ = Two.apply(leaf([1.0]))
    a.sum().backward()
    assert seen["db"] is None


def test_saved_output_is_version_checked():
    class Exp(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = opsdk.exp(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * y

    y = Exp.apply(leaf([0.0, 1.0]))
    with opsdk.no_grad():
        y += 1
    with pytest.raises(InplaceModifiedError, match="Exp"):
        y.sum().backward()


def test_saved_input_is_version_checked():
    x = leaf([1.0, 2.0])
    base = x * 1.0
    y = CustomOp.apply(base, 2.0)
    with opsdk.no_grad():
        base *= 3
    with pytest.raises(InplaceModifiedError, match="CustomOp"):
        y.sum().backward()


def test_tensors_passed_by_keyword_get_gradients_after_the_positional_ones():
    class Kw(PyLayer):
        @staticmethod
        def forward(ctx, x, w=None):
            ctx.save_for_backward(x, w)
            return x * w

        @staticmethod
        def backward(ctx, dy):
            x, w = ctx.saved_tensor()
            return dy * w, dy * x

    x, w = leaf([1.0]), leaf([2.0])
    Kw.apply(x, w=w).backward()
    assert x.grad.item() == 2.0 and w.grad.item() == 1.0
    a, b = leaf([3.0]), leaf([4.0])
    Kw.apply(x=a, w=b).backward()
    assert a.grad.item() == 4.0 and b.grad.item() == 3.0


def test_tensors_inside_a_list_argument_get_gradients_as_in_paddle():
    class Cat(PyLayer):
        @staticmethod
        def forward(ctx, xs, scale):
            return opsdk.concat(xs) * scale

        @staticmethod
        def backward(ctx, dy):
            return opsdk.split(dy * 2.0, 2)

    a, b = leaf([1.0, 5.0]), leaf([2.0, 3.0])
    z = Cat.apply(xs=[a, b], scale=2.0)
    assert not z.stop_gradient
    z.sum().backward()
    assert a.grad.numpy().tolist() == [2.0, 2.0] and b.grad.numpy().tolist() == [2.0, 2.0]


def test_one_gradient_per_argument_takes_a_list_for_a_list_argument():
    class Pair(PyLayer):
        @staticmethod
        def forward(ctx, xs, k):
            return xs[0] * xs[1] * k

        @staticmethod
        def backward(ctx, dy):
            return [dy * 3.0, dy * 4.0], None

    a, b = leaf([1.0]), leaf([2.0])
    Pair.apply([a, b], 1.0).sum().backward()
    assert a.grad.item() == 3.0 and b.grad.item() == 4.0

    class Short(Pair):
        @staticmethod
        def backward(ctx, dy):
            return [dy], None

    with pytest.raises(BackwardReturnError, match=r"argument 0 \('xs'\).*a list of 2"):
        Short.apply([leaf([1.0]), leaf([2.0])], 1.0).sum().backward()


def test_forward_returning_an_array_is_an_error_naming_the_op():
    class Raw(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.numpy() * 2

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(PyLayerError, match="Raw.forward.*ndarray"):
        Raw.apply(leaf([1.0]))


def test_registered_name_is_used_in_errors():
    class Named(PyLayer):
        _opsdk_qualname = "mypack.named"

        @staticmethod
        def forward(ctx, x):
            return x.numpy()

        @staticmethod
        def backward(ctx, dy):
            return dy

    with pytest.raises(PyLayerError, match="mypack.named"):
        Named.apply(leaf([1.0]))


def test_context_is_freed_with_the_graph_when_nothing_saved_is_an_output():
    refs = []

    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            refs.append(weakref.ref(ctx))
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return dy * 2

    y = Keep.apply(leaf([1.0]))
    del y
    assert refs[0]() is None


def test_context_saving_its_output_is_freed_after_backward():
    refs = []

    class Exp(PyLayer):
        @staticmethod
        def forward(ctx, x):
            refs.append(weakref.ref(ctx))
            y = opsdk.exp(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * y

    y = Exp.apply(leaf([1.0]))
    y.backward()
    del y
    gc.collect()
    assert refs[0]() is None


def test_outputs_come_back_in_the_container_forward_used():
    from collections import namedtuple
    Pair = namedtuple("Pair", "double triple")

    class Named(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return Pair(x * 2, x * 3)

        @staticmethod
        def backward(ctx, d2, d3):
            return 2 * d2 + 3 * d3

    class Listed(Named):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]

    x = leaf([1.0])
    pair = Named.apply(x)
    assert isinstance(pair, Pair) and not pair.triple.stop_gradient
    (pair.double + pair.triple).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0])
    assert isinstance(Listed.apply(x), list)
