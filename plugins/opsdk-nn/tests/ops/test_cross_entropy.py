"""cross_entropy with integer labels: reductions, ignore_index, class axis, large logits,
gradients vs numeric, higher order, errors."""
import numpy
import pytest

import opsdk
from opsdk.errors import DTypeError, InplaceModifiedError, OpArgumentError, ShapeError
from opsdk_nn import functional as F

from .. import reference as ref

TOL = {"float32": dict(rtol=1e-5, atol=1e-6), "float64": dict(rtol=1e-12, atol=1e-13)}
GRAD_TOL = {"float32": dict(rtol=1e-4, atol=1e-6), "float64": dict(rtol=1e-7, atol=1e-10)}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("ignore", [False, True])
def test_loss_and_gradient_match_reference(backend, dtype, reduction, ignore):
    rng = numpy.random.default_rng(0)
    xa, label = rng.normal(0, 2, (6, 5)), rng.integers(0, 5, 6)
    if ignore:
        label[[1, 4]] = -100
    x = opsdk.to_tensor(xa.astype(dtype), stop_gradient=False)
    loss = F.cross_entropy(x, opsdk.to_tensor(label), reduction=reduction)
    want = ref.cross_entropy(xa, label, reduction=reduction)
    assert loss.shape == list(numpy.shape(want)) and loss.dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(loss.numpy(), want, **TOL[dtype])
    v = rng.normal(0, 1, numpy.shape(want))
    (g,) = opsdk.grad([loss], [x], grad_outputs=[opsdk.to_tensor(numpy.asarray(v, dtype))])
    (num,) = ref.numeric_vjp(lambda a: ref.cross_entropy(a, label, reduction=reduction), [xa], v)
    numpy.testing.assert_allclose(g.numpy(), num, **GRAD_TOL[dtype])


def test_class_axis_in_the_middle_and_labels_with_a_unit_axis(backend):
    rng = numpy.random.default_rng(1)
    xa, label = rng.normal(0, 1, (2, 4, 3)), rng.integers(0, 4, (2, 1, 3))
    x = opsdk.to_tensor(xa, stop_gradient=False)
    loss = F.cross_entropy(x, opsdk.to_tensor(label), reduction="none", axis=1)
    moved = numpy.moveaxis(xa, 1, -1).reshape(-1, 4)
    assert loss.shape == [2, 1, 3]
    want = ref.cross_entropy(moved, label.reshape(-1), reduction="none")
    numpy.testing.assert_allclose(loss.numpy().reshape(-1), want, rtol=1e-12)
    loss.sum().backward()

    def f(a):
        return ref.cross_entropy(numpy.moveaxis(a, 1, -1).reshape(-1, 4), label.reshape(-1), reduction="sum")

    (num,) = ref.numeric_vjp(f, [xa], numpy.ones(()))
    numpy.testing.assert_allclose(x.grad.numpy(), num, rtol=1e-7, atol=1e-10)


def test_logits_of_plus_minus_1e4_give_exact_finite_losses(backend, dtype):
    xa = numpy.array([[1e4, -1e4, 0.0], [-1e4, 1e4, 1e4]], dtype)
    x = opsdk.to_tensor(xa, stop_gradient=False)
    loss = F.cross_entropy(x, opsdk.to_tensor([1, 2]), reduction="none")
    numpy.testing.assert_allclose(loss.numpy(), [2e4, numpy.log(2.0)], rtol=1e-6)
    loss.sum().backward()
    numpy.testing.assert_allclose(x.grad.numpy(), [[1, -1, 0], [0, 0.5, -0.5]], atol=1e-6)


def test_mean_over_only_ignored_rows_is_zero(backend):
    x = opsdk.to_tensor(numpy.ones((2, 3)), stop_gradient=False)
    loss = F.cross_entropy(x, opsdk.to_tensor([-100, -100]))
    loss.backward()
    assert loss.item() == 0.0 and not x.grad.numpy().any()


def test_second_order_matches_numeric(backend):
    rng = numpy.random.default_rng(2)
    xa, label = rng.normal(0, 1, (3, 4)), numpy.array([0, 3, 1])
    x = opsdk.to_tensor(xa, stop_gradient=False)
    (g,) = opsdk.grad([F.cross_entropy(x, opsdk.to_tensor(label))], [x], create_graph=True)
    (gg,) = opsdk.grad([(g * g).sum()], [x])

    def first(a):
        (d,) = ref.numeric_vjp(lambda b: ref.cross_entropy(b, label), [a], numpy.ones(()), eps=1e-5)
        return d

    (want,) = ref.numeric_vjp(lambda a: first(a) ** 2, [xa], numpy.ones_like(xa), eps=1e-4)
    numpy.testing.assert_allclose(gg.numpy(), want, rtol=1e-3, atol=1e-6)


def test_changing_the_logits_in_place_is_caught_at_backward(backend):
    x = opsdk.to_tensor(numpy.zeros((2, 3)), stop_gradient=False)
    x2 = x * 1.0
    loss = F.cross_entropy(x2, opsdk.to_tensor([0, 1]))
    x2.add_(1.0)  # in place (`x2 += 1` in grad mode rebinds x2, as in Paddle)
    with pytest.raises(InplaceModifiedError, match="nn.cross_entropy"):
        loss.backward()


def test_label_out_of_range_is_refused():
    with pytest.raises(OpArgumentError, match=r"nn.cross_entropy: 'label' holds a class index out of range.*3"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0, 3]))


def test_float_labels_are_refused():
    with pytest.raises(DTypeError, match="nn.cross_entropy: argument 'label' must hold integer"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0.0, 1.0]))


def test_label_shape_must_match_rows():
    with pytest.raises(ShapeError, match=r"expected: shape \[2\]"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0, 1, 2]))


@pytest.mark.parametrize("kwargs", [{"soft_label": True}, {"label_smoothing": 0.1}, {"use_softmax": False}])
def test_unsupported_options_are_refused_by_name(kwargs):
    (arg,) = kwargs
    with pytest.raises(OpArgumentError, match=f"argument '{arg}' is not supported"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0, 1]), **kwargs)


def test_unknown_reduction_is_refused():
    with pytest.raises(OpArgumentError, match="argument 'reduction' must be one of mean, sum, none"):
        F.cross_entropy(opsdk.to_tensor(numpy.zeros((2, 3))), opsdk.to_tensor([0, 1]), reduction="avg")
