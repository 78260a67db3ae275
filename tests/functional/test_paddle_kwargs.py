"""Paddle 3.3.1's later keywords (alpha, rounding_mode, decimals, correction, dtype, left, the
creation functions' device / requires_grad / pin_memory, the torch-style aliases) and out=
(op_args.with_out), each compared with Paddle."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle, paddle_cases

X = np.array([7.0, -7.0, 5.5, -0.5])
Y = np.array([2.0, 2.0, -2.0, 3.0])
A = np.array([[2.0, 1.0], [0.5, 3.0]])
B = np.array([[1.0, 2.0], [3.0, 4.0]])

test_values_and_gradients_match_paddle = paddle_cases({
    "add_alpha": (lambda P, x, y: P.add(x, y, alpha=2.5), [X, Y]),
    "subtract_alpha": (lambda P, x, y: P.subtract(x, y, alpha=0.5), [X, Y]),
    "sub_alpha_method": (lambda P, x, y: x.sub(y, alpha=-2), [X, Y]),
    "divide_plain": (lambda P, x, y: P.divide(x, y, rounding_mode=None), [X, Y]),
    "round_decimals": (lambda P, x: P.round(x * 1.2345, decimals=2), [X]),
    "round_negative_decimals": (lambda P, x: P.round(x * 123.4, decimals=-2), [X]),
    "var_correction_0": (lambda P, x: P.var(x, correction=0), [X]),
    "var_correction_2": (lambda P, x: P.var(x.reshape([2, 2]), axis=1, correction=2,
                                            keepdim=True), [X]),
    "var_unbiased_false": (lambda P, x: P.var(x, unbiased=False), [X]),
    "mean_dtype": (lambda P, x: P.mean(x, dtype="float32"), [X]),
    "norm_dtype_method": (lambda P, x: x.norm(p=2, dtype="float32"), [X]),
    "solve_right": (lambda P, a, b: a.solve(b, left=False), [A, B]),
    "mm_torch_names": (lambda P, a, b: P.mm(input=a, mat2=b), [A, B]),
    "true_divide_torch_names": (lambda P, x, y: P.true_divide(input=x, other=y), [X, Y]),
    "permute_dims": (lambda P, a: P.permute(a, dims=[1, 0]), [A]),
    "permute_varargs": (lambda P, a: a.permute(1, 0), [A]),
    "t_input": (lambda P, a: P.t(input=a), [A]),
    "unbind_input": (lambda P, a: P.unbind(input=a, axis=1)[0], [A]),
    "trunc_input": (lambda P, x: P.trunc(input=x), [X]),
})


@pytest.mark.paddle
@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_divide_rounding_mode_matches_paddle(mode, dtype):
    paddle = import_paddle()
    x, y = (X * 2).astype(dtype), np.where(Y > 0, 2, -3).astype(dtype)
    for P in (paddle, opsdk):
        got = P.divide(P.to_tensor(x), P.to_tensor(y), rounding_mode=mode)
        if P is paddle:
            want = got
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.paddle
def test_divide_rounded_quotient_carries_no_gradient_as_in_paddle():
    import_paddle()
    x = opsdk.to_tensor(X, stop_gradient=False)
    opsdk.divide(x, opsdk.to_tensor(Y), rounding_mode="floor").sum().backward()
    assert x.grad is None


@pytest.mark.paddle
def test_a_bad_rounding_mode_and_unbiased_with_correction_are_refused_as_in_paddle():
    assert_raises_as_paddle(lambda P: P.divide(P.to_tensor(X), P.to_tensor(Y),
                                               rounding_mode="ceil"), ValueError)
    assert_raises_as_paddle(lambda P: P.var(P.to_tensor(X), unbiased=False, correction=2),
                            ValueError)


@pytest.mark.paddle
@pytest.mark.parametrize("make", [
    lambda P, **kw: P.ones([2, 3], **kw), lambda P, **kw: P.zeros([2], "int64", **kw),
    lambda P, **kw: P.arange(5, **kw), lambda P, **kw: P.full([2], 3.0, **kw),
    lambda P, **kw: P.eye(3, **kw), lambda P, **kw: P.linspace(0, 1, 4, **kw),
    lambda P, **kw: P.zeros_like(P.ones([2]), **kw),
    lambda P, **kw: P.ones([2]).new_ones(2, 3, **kw)],
    ids=["ones", "zeros_int", "arange", "full", "eye", "linspace", "zeros_like", "new_ones"])
def test_creation_device_and_requires_grad_match_paddle(make):
    paddle = import_paddle()
    for P in (paddle, opsdk):
        t = make(P, device="cpu", requires_grad=True)
        if P is paddle:
            want = t
    assert (t.stop_gradient, t.is_leaf, str(t.dtype), list(t.shape)) == \
        (want.stop_gradient, want.is_leaf, str(want.dtype), list(want.shape))
    np.testing.assert_allclose(t.numpy(), want.numpy(), rtol=1e-6)  # (linspace: 1 ulp)


@pytest.mark.paddle
def test_pin_memory_is_paddles_cpu_runtime_error():
    assert_raises_as_paddle(lambda P: P.ones([2], pin_memory=True), RuntimeError)
    assert_raises_as_paddle(lambda P: P.zeros_like(P.ones([2]), pin_memory=True), RuntimeError)


def test_new_ones_takes_sizes_one_by_one_or_as_a_list():
    x = opsdk.ones([1], dtype="float64")
    assert x.new_ones(2, 3).shape == x.new_zeros([2, 3]).shape == [2, 3]
    assert x.new_empty(4).shape == [4] and x.new_ones(2, 3).dtype == np.float64


def test_seed_by_keyword_and_from_dlpack_copy():
    assert opsdk.seed(seed=3).initial_seed() == 3
    a = opsdk.to_tensor([1.0, 2.0])
    copied, shared = opsdk.from_dlpack(a, copy=True), opsdk.from_dlpack(dlpack=a, device="cpu")
    copied[0], shared[1] = 9.0, 8.0
    assert a.tolist() == [1.0, 8.0]


@pytest.mark.paddle
@pytest.mark.parametrize("call", [
    lambda P, x, y: x.add_(y, alpha=3), lambda P, x, y: P.subtract_(x, y, alpha=2),
    lambda P, x, y: x.divide_(y, rounding_mode="floor"), lambda P, x, y: x.round_(decimals=1)],
    ids=["add_", "subtract_", "divide_", "round_"])
def test_in_place_forms_take_the_keywords_as_paddle(call):
    paddle = import_paddle()
    for P in (paddle, opsdk):
        x = P.to_tensor(X * 1.37)
        r = call(P, x, P.to_tensor(Y))
        if P is paddle:
            want = (r is x, x.numpy())
    assert r is x and want[0]
    np.testing.assert_allclose(x.numpy(), want[1], rtol=1e-6)
