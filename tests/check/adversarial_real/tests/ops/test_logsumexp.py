"""logsumexp: the forward and both gradients against a float64 NumPy reference, on every backend here.

gradcheck, backend agreement and the refusal of a second order are checked by tests/test_checks.py.
"""
import numpy
import pytest

import opsdk
from opsdk.kernels import use_backend

import realops.ops.logsumexp as op

DTYPES = ("float32", "float64")
EPS = 1e-6
RTOL = {"float32": 1e-5, "float64": 1e-12}


def reference(x, weight):
    """RMSNorm over the last axis, in float64."""
    return x / numpy.sqrt((x * x).mean(axis=-1, keepdims=True) + EPS) * weight


def inputs(dtype, shape=(2, 3, 33)):
    rng = numpy.random.default_rng(0)
    return rng.uniform(-2, 2, shape).astype(dtype), rng.uniform(0.5, 1.5, shape[-1:]).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("backend", op.forward.available_backends("cpu"))
def test_forward_matches_reference(backend, dtype):
    x, weight = inputs(dtype)
    with use_backend(backend):
        y = op.Logsumexp.apply(opsdk.to_tensor(x), opsdk.to_tensor(weight), eps=EPS).numpy()
    assert y.dtype == numpy.dtype(dtype) and y.shape == x.shape
    numpy.testing.assert_allclose(y, reference(x.astype(numpy.float64), weight.astype(numpy.float64)),
                                  rtol=RTOL[dtype], atol=RTOL[dtype])


@pytest.mark.parametrize("backend", op.backward.available_backends("cpu"))
def test_gradients_match_central_differences(backend):
    x, weight = inputs("float64", (3, 5))
    tx, tw = opsdk.to_tensor(x, stop_gradient=False), opsdk.to_tensor(weight, stop_gradient=False)
    probe = numpy.random.default_rng(1).standard_normal(x.shape)  # a loss that weighs every output
    with use_backend(backend):
        (op.Logsumexp.apply(tx, tw, eps=EPS) * opsdk.to_tensor(probe)).sum().backward()
    for tensor, array, index in ((tx, x, 0), (tw, weight, 1)):
        numeric = numpy.empty_like(array)
        for at in numpy.ndindex(array.shape):
            plus, minus = [x.copy(), weight.copy()], [x.copy(), weight.copy()]
            plus[index][at] += 1e-6
            minus[index][at] -= 1e-6
            numeric[at] = ((reference(*plus) - reference(*minus)) * probe).sum() / 2e-6
        numpy.testing.assert_allclose(tensor.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_a_weight_of_the_wrong_length_is_refused():
    with pytest.raises(opsdk.errors.OpArgumentError, match="weight"):
        op.Logsumexp.apply(opsdk.ones([2, 4], dtype="float64"), opsdk.ones([3], dtype="float64"))
