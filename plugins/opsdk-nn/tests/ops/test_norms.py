"""layer_norm and rms_norm: forward and every gradient vs float64 references, optional
weight/bias, multi-dim normalized shapes, higher order, errors."""
import numpy
import pytest

import opsdk
from opsdk.errors import DTypeError, ShapeError
from opsdk_nn import functional as F

from .. import reference as ref

TOL = {"float32": dict(rtol=1e-5, atol=2e-6), "float64": dict(rtol=1e-11, atol=1e-12)}
GRAD_TOL = {"float32": dict(rtol=1e-4, atol=2e-5), "float64": dict(rtol=1e-7, atol=1e-8)}


def _arrays(rng, x_shape, k, with_weight, with_bias):
    xa = rng.normal(1.0, 2.0, x_shape)
    w = rng.uniform(0.5, 1.5, x_shape[-k:]) if with_weight else None
    b = rng.uniform(-1, 1, x_shape[-k:]) if with_bias else None
    return xa, w, b


def _tensors(arrays, dtype):
    return [None if a is None else opsdk.to_tensor(a.astype(dtype), stop_gradient=False) for a in arrays]


@pytest.mark.parametrize("x_shape, k, with_weight, with_bias", [
    ((4, 6), 1, True, True), ((2, 3, 4), 2, True, False), ((3, 5), 1, False, False), ((5, 3), 1, False, True)])
def test_layer_norm_forward_and_gradients_match_reference(backend, dtype, x_shape, k, with_weight, with_bias):
    rng = numpy.random.default_rng(0)
    arrays = _arrays(rng, x_shape, k, with_weight, with_bias)
    x, w, b = _tensors(arrays, dtype)
    y = F.layer_norm(x, list(x_shape[-k:]), w, b)
    numpy.testing.assert_allclose(y.numpy(), ref.layer_norm(arrays[0], k, arrays[1], arrays[2]), **TOL[dtype])
    v = rng.normal(0, 1, x_shape)
    leaves = [t for t in (x, w, b) if t is not None]
    got = opsdk.grad([y], leaves, grad_outputs=[opsdk.to_tensor(v.astype(dtype))])
    present = [a for a in arrays if a is not None]

    def f(*parts):
        it = iter(parts)
        full = [next(it) if a is not None else None for a in arrays]
        return ref.layer_norm(full[0], k, full[1], full[2])

    for g, want in zip(got, ref.numeric_vjp(f, present, v)):
        assert g.dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(g.numpy(), want, **GRAD_TOL[dtype])


@pytest.mark.parametrize("with_weight", [True, False])
def test_rms_norm_forward_and_gradients_match_reference(backend, dtype, with_weight):
    rng = numpy.random.default_rng(1)
    xa, w, _ = _arrays(rng, (4, 6), 1, with_weight, False)
    x, wt = _tensors([xa, w], dtype)
    y, invvar = F.rms_norm(x, 6, wt, eps=1e-6)
    numpy.testing.assert_allclose(y.numpy(), ref.rms_norm(xa, 1, w), **TOL[dtype])
    # invvar as Paddle's rms_norm returns it: 1 / rms per row
    numpy.testing.assert_allclose(invvar.numpy(), 1 / numpy.sqrt((xa * xa).mean(axis=1) + 1e-6),
                                  **TOL[dtype])
    v = rng.normal(0, 1, (4, 6))
    leaves = [t for t in (x, wt) if t is not None]
    got = opsdk.grad([y], leaves, grad_outputs=[opsdk.to_tensor(v.astype(dtype))])
    present = [a for a in (xa, w) if a is not None]
    f = (lambda a, b: ref.rms_norm(a, 1, b)) if with_weight else (lambda a: ref.rms_norm(a, 1))
    for g, want in zip(got, ref.numeric_vjp(f, present, v)):
        numpy.testing.assert_allclose(g.numpy(), want, **GRAD_TOL[dtype])


def test_layer_norm_of_large_offsets_keeps_precision(backend, dtype):
    xa = (1e4 + numpy.arange(8.0).reshape(2, 4)).astype(dtype)
    y = F.layer_norm(opsdk.to_tensor(xa), 4).numpy()
    numpy.testing.assert_allclose(y, ref.layer_norm(xa.astype(numpy.float64), 1), rtol=1e-4, atol=1e-4)


def test_weight_gradient_sums_many_rows(backend, dtype):
    rng = numpy.random.default_rng(2)
    xa, w = rng.normal(0, 1, (3000, 40)), rng.uniform(0.5, 1.5, 40)
    x, wt, bt = _tensors([xa, w, numpy.zeros(40)], dtype)
    dw, db = opsdk.grad([F.layer_norm(x, 40, wt, bt).sum()], [wt, bt])
    xhat = ref.layer_norm(xa, 1)
    numpy.testing.assert_allclose(dw.numpy(), xhat.sum(axis=0), rtol=1e-4, atol=2e-3)
    numpy.testing.assert_allclose(db.numpy(), numpy.full(40, 3000.0), rtol=1e-6)


@pytest.mark.parametrize("op", ["layer_norm", "rms_norm"])
def test_second_order_matches_numeric(backend, op):
    rng = numpy.random.default_rng(3)
    xa, w = rng.normal(0, 1, (2, 5)), rng.uniform(0.5, 1.5, 5)
    x, wt = opsdk.to_tensor(xa, stop_gradient=False), opsdk.to_tensor(w, stop_gradient=False)
    # rms_norm returns (out, invvar) as Paddle's, at Paddle's eps; the reference's is 1e-6
    call = (lambda a, k, b: F.rms_norm(a, k, b, eps=1e-6)[0]) if op == "rms_norm" else F.layer_norm
    reference = getattr(ref, op)
    (g,) = opsdk.grad([(call(x, 5, wt) ** 3).sum()], [x], create_graph=True)
    (gg,) = opsdk.grad([(g * g).sum()], [x])

    def first(a):
        (d,) = ref.numeric_vjp(lambda b: reference(b, 1, w) ** 3, [a], numpy.ones_like(a), eps=1e-5)
        return d

    (want,) = ref.numeric_vjp(lambda a: first(a) ** 2, [xa], numpy.ones_like(xa), eps=1e-4)
    numpy.testing.assert_allclose(gg.numpy(), want, rtol=1e-3, atol=1e-4)


def test_normalized_shape_must_match_trailing_dims():
    with pytest.raises(ShapeError, match=r"nn.layer_norm: 'normalized_shape' must match.*got: \[3\]"):
        F.layer_norm(opsdk.to_tensor(numpy.zeros((2, 4))), 3)


def test_weight_must_have_one_value_per_element():
    with pytest.raises(ShapeError, match=r"nn.rms_norm: argument 'weight'.*expected: 4 values"):
        F.rms_norm(opsdk.to_tensor(numpy.zeros((2, 4))), 4, opsdk.to_tensor(numpy.ones(3)))


def test_weight_dtype_must_match_x():
    with pytest.raises(DTypeError, match=r"nn.layer_norm: argument 'weight'.*expected: float32; got: float64"):
        F.layer_norm(opsdk.to_tensor(numpy.zeros((2, 4), numpy.float32)), 4, opsdk.to_tensor(numpy.ones(4)))
