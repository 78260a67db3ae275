"""Reductions: values against NumPy over every axis (keepdim or not), gradients to second order
against the oracle, tie handling, index reductions and axis errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import opsdk
from opsdk.errors import OpArgumentError
from helpers.gradients import assert_gradients
from helpers.samples import distinct, signed

AXES = [None, 0, 1, 2, -1, [0, 2], (1, -1)]
AXIS_IDS = ["all", "0", "1", "2", "neg1", "0_2", "1_neg1"]


def leaf(values, dtype="float64"):
    return opsdk.to_tensor(values, dtype=dtype, stop_gradient=False)


def np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def np_logsumexp(a, axis, keepdims):
    m = a.max(axis=axis, keepdims=True)
    return np.log(np.exp(a - m).sum(axis=axis, keepdims=keepdims)) + (
        m if keepdims else m.squeeze(axis=axis))


REFERENCES = {
    "sum": (opsdk.sum, lambda a, axis, k: a.sum(axis=axis, keepdims=k)),
    "mean": (opsdk.mean, lambda a, axis, k: a.mean(axis=axis, keepdims=k)),
    "max": (opsdk.max, lambda a, axis, k: a.max(axis=axis, keepdims=k)),
    "min": (opsdk.min, lambda a, axis, k: a.min(axis=axis, keepdims=k)),
    "logsumexp": (opsdk.logsumexp, np_logsumexp),
    "var": (opsdk.var, lambda a, axis, k: a.var(axis=axis, keepdims=k, ddof=1)),
    "std": (opsdk.std, lambda a, axis, k: a.std(axis=axis, keepdims=k, ddof=1)),
}


@pytest.mark.parametrize("keepdim", [False, True], ids=["drop", "keepdim"])
@pytest.mark.parametrize("axis", AXES, ids=AXIS_IDS)
@pytest.mark.parametrize("name", REFERENCES)
def test_reduction_values_match_numpy_over_each_axis(name, axis, keepdim):
    op, ref = REFERENCES[name]
    a = distinct(2, 3, 2)
    got = op(opsdk.to_tensor(a), axis=axis, keepdim=keepdim)
    want = ref(a, np_axis(axis), keepdim)
    assert got.shape == list(np.shape(want))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("keepdim", [False, True], ids=["drop", "keepdim"])
@pytest.mark.parametrize("axis", AXES, ids=AXIS_IDS)
@pytest.mark.parametrize("name", REFERENCES)
def test_reduction_gradients_match_central_differences_over_each_axis(name, axis, keepdim):
    op = REFERENCES[name][0]
    # squared so the second order exercises the backward of the reduction itself
    assert_gradients(lambda x: op(x, axis=axis, keepdim=keepdim) ** 2, [distinct(2, 3, 2)])


@pytest.mark.parametrize("p", [1, 2, 3, "fro"])
def test_norm_gradients_match_central_differences(p):
    assert_gradients(lambda x: opsdk.norm(x, p=p, axis=1), [signed(2, 3)])


def test_norm_values_match_numpy():
    a = signed(2, 3)
    np.testing.assert_allclose(opsdk.norm(opsdk.to_tensor(a)).numpy(), np.linalg.norm(a))
    np.testing.assert_allclose(opsdk.norm(opsdk.to_tensor(a), p=1, axis=0).numpy(),
                               np.abs(a).sum(axis=0))


def test_sum_of_a_0d_tensor_is_itself():
    x = leaf(3.0)
    y = opsdk.sum(x)
    y.backward()
    assert y.shape == [] and y.item() == 3.0 and x.grad.item() == 1.0


def test_mean_gradient_is_one_over_the_count():
    x = leaf(np.ones((2, 4)))
    (g,) = opsdk.grad(opsdk.mean(x, axis=1).sum(), x)
    np.testing.assert_array_equal(g.numpy(), np.full((2, 4), 0.25))


def test_max_ties_share_the_gradient_equally():
    x = leaf([1.0, 3.0, 3.0, 2.0])
    (g,) = opsdk.grad(opsdk.max(x), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.5, 0.5, 0.0])


def test_min_over_an_axis_sends_the_gradient_to_each_rows_minimum():
    x = leaf([[3.0, 1.0], [0.0, 5.0]])
    (g,) = opsdk.grad(opsdk.min(x, axis=1).sum(), x)
    np.testing.assert_array_equal(g.numpy(), [[0.0, 1.0], [1.0, 0.0]])


def test_logsumexp_stays_finite_for_large_inputs():
    x = opsdk.to_tensor([1000.0, 1000.0], dtype="float64")
    np.testing.assert_allclose(opsdk.logsumexp(x).item(), 1000.0 + np.log(2.0))


def test_var_is_unbiased_by_default_and_biased_on_request():
    x = opsdk.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64")
    assert opsdk.var(x).item() == pytest.approx(5.0 / 3.0)
    assert opsdk.var(x, unbiased=False).item() == pytest.approx(1.25)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", [opsdk.sum, opsdk.mean, opsdk.max, opsdk.logsumexp, opsdk.var],
                         ids=["sum", "mean", "max", "logsumexp", "var"])
def test_reductions_keep_the_float_dtype_forward_and_backward(op, dtype):
    x = leaf([[0.5, 1.5], [1.0, 2.0]], dtype)
    y = op(x, axis=0)
    y.sum().backward()
    assert y.dtype == np.dtype(dtype) and x.grad.dtype == np.dtype(dtype)


def test_sum_of_bool_counts_as_int64():
    assert opsdk.sum(opsdk.to_tensor([True, True, False])).dtype == np.int64


def test_sum_with_dtype_converts_the_result():
    x = opsdk.to_tensor([1, 2, 3], dtype="int32")
    out = opsdk.sum(x, dtype="float64")
    assert out.dtype == np.float64 and out.item() == 6.0


@pytest.mark.parametrize("op, ref", [(opsdk.argmax, np.argmax), (opsdk.argmin, np.argmin)],
                         ids=["argmax", "argmin"])
def test_index_reductions_return_int64_indices_without_gradient(op, ref):
    a = distinct(3, 4)
    x = leaf(a)
    out = op(x, axis=1)
    assert out.dtype == np.int64 and out.stop_gradient
    np.testing.assert_array_equal(out.numpy(), ref(a, axis=1))
    assert op(x).item() == ref(a)


def test_all_and_any_reduce_booleans():
    m = opsdk.to_tensor([[True, False], [True, True]])
    np.testing.assert_array_equal(opsdk.all(m, axis=1).numpy(), [False, True])
    np.testing.assert_array_equal(opsdk.any(m, axis=0).numpy(), [True, True])
    assert not opsdk.all(m).item()


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=4), st.data())
def test_sum_gradient_is_ones_of_the_input_shape_for_any_axes(shape, data):
    # distinct axes (0 and -ndim name one axis): Paddle refuses an axis named twice
    axes = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), max_size=len(shape),
                              unique_by=lambda a: a % len(shape)))
    keepdim = data.draw(st.booleans())
    x = leaf(np.ones(shape))
    (g,) = opsdk.grad(opsdk.sum(x, axis=axes or None, keepdim=keepdim).sum(), x)
    np.testing.assert_array_equal(g.numpy(), np.ones(shape))


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("op", [opsdk.sum, opsdk.mean, opsdk.max, opsdk.logsumexp],
                         ids=["sum", "mean", "max", "logsumexp"])
def test_axis_out_of_range_names_op_argument_range_and_value(op):
    with pytest.raises(OpArgumentError,
                       match=r"argument 'axis' out of range; expected: in \[-2, 1\].*got: 2"):
        op(opsdk.ones([2, 3]), axis=2)


def test_max_over_a_size_0_axis_is_an_error_naming_the_op_and_axis():
    with pytest.raises(OpArgumentError, match=r"max: cannot reduce along axis 0 of size 0"):
        opsdk.max(opsdk.ones([0, 3]))


def test_max_over_a_full_axis_of_a_tensor_with_a_size_0_dim_is_empty_as_in_paddle():
    x = opsdk.zeros([0, 3], dtype="float64")
    x.stop_gradient = False
    y = opsdk.max(x, axis=1)
    assert y.shape == [0]
    (g,) = opsdk.grad(y.sum(), x)
    assert g.shape == [0, 3]


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_argmin_of_a_gpu_tensor_stay_on_the_gpu(op):
    # the CUDA simulator stands in for CuPy (a GPU test runs the same code on a real one)
    from helpers.simulator import simulated_cupy
    data = np.array([[1.0, 5.0, 0.5], [3.0, 2.0, 7.0]])
    with simulated_cupy():
        x = opsdk.to_tensor(data).cuda()
        for kwargs in ({}, {"keepdim": True}, {"axis": 1}, {"axis": 0, "keepdim": True}):
            r = getattr(opsdk, op)(x, **kwargs)
            want = getattr(np, op)(data, axis=kwargs.get("axis"),
                                   keepdims=kwargs.get("keepdim", False))
            assert r.place.is_gpu_place() and r.dtype == np.int64
            np.testing.assert_array_equal(r.numpy(), want)


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["sum", "mean", "max", "amax", "min", "logsumexp", "var", "std"])
def test_an_empty_axis_list_reduces_every_axis_as_paddle(op):
    from helpers.frameworks import assert_same_as_paddle
    assert_same_as_paddle(lambda P, x: getattr(P, op)(x, axis=[]), [signed(2, 3, seed=4)])


@pytest.mark.paddle
@pytest.mark.parametrize("op", ["all", "any"])
def test_an_empty_axis_list_reduces_every_axis_of_a_bool_tensor_as_paddle(op):
    from helpers.frameworks import import_paddle
    paddle = import_paddle()
    b = np.array([[True, False], [True, True]])
    for P in (paddle, opsdk):
        assert bool(getattr(P, op)(P.to_tensor(b), axis=[]).numpy()) == bool(
            getattr(np, op)(b))


@pytest.mark.paddle
@pytest.mark.parametrize("axis", [1, -2, [0, 1]])
def test_a_zero_d_tensor_takes_axis_0_or_minus_1_only_as_paddle(axis):
    from helpers.frameworks import assert_raises_as_paddle
    assert_raises_as_paddle(lambda P: P.sum(P.to_tensor(3.0), axis=axis))
    assert opsdk.sum(opsdk.to_tensor(3.0), axis=-1).item() == 3.0
