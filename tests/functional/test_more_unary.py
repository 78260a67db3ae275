"""log1p, expm1, log2, log10, trunc, frac, stanh: values and gradients (numeric, to second
order; against Paddle where installed), integer inputs, precision near 0."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import DTypeError
from helpers.frameworks import assert_same_as_paddle, paddle_cases
from helpers.gradients import assert_gradients
from helpers.samples import positive, signed

SMOOTH = {
    "log1p": (lambda x: opsdk.log1p(x), positive(2, 3)),
    "expm1": (lambda x: opsdk.expm1(x), signed(2, 3)),
    "log2": (lambda x: opsdk.log2(x), positive(2, 3)),
    "log10": (lambda x: opsdk.log10(x), positive(2, 3)),
    "stanh": (lambda x: opsdk.stanh(x, 0.5, 2.0), signed(2, 3)),
    "frac": (lambda x: opsdk.frac(x), signed(2, 3) * 3.3),
}


@pytest.mark.parametrize("name", SMOOTH)
def test_gradients_match_central_differences_to_second_order(name):
    fn, x = SMOOTH[name]
    assert_gradients(fn, [x])


def test_values_match_numpy_and_stay_precise_near_zero():
    x = np.array([1e-12, 0.5, 3.0])
    for name, ref in (("log1p", np.log1p), ("expm1", np.expm1), ("log2", np.log2),
                      ("log10", np.log10), ("trunc", np.trunc)):
        np.testing.assert_allclose(getattr(opsdk, name)(opsdk.to_tensor(x)).numpy(), ref(x),
                                   rtol=1e-15)
    assert opsdk.log1p(opsdk.to_tensor(1e-12)).item() == pytest.approx(1e-12, rel=1e-12)


def test_integer_inputs_take_the_default_float_but_trunc_and_frac_keep_integers():
    i = opsdk.to_tensor([1, 4])
    assert opsdk.log2(i).dtype == np.float32 and opsdk.expm1(i).dtype == np.float32
    assert opsdk.trunc(i).dtype == np.int64 and opsdk.frac(i).numpy().tolist() == [0, 0]


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8", "bool"])
def test_frac_refuses_the_dtypes_paddles_kernel_refuses(dtype):
    # Paddle raises TypeError for these (its kernel takes int32, int64 and floats)
    with pytest.raises(DTypeError, match=f"frac: argument 'x' .*got: {dtype}"):
        opsdk.frac(opsdk.zeros([2], dtype=dtype))


def test_trunc_has_zero_gradient_and_frac_one():
    x = opsdk.to_tensor([1.5, -2.5], stop_gradient=False)
    (opsdk.trunc(x) + opsdk.frac(x) * 2).sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0]
    assert opsdk.frac(opsdk.to_tensor([-2.25])).item() == -0.25


def test_the_methods_are_on_tensor():
    x = opsdk.to_tensor([2.0])
    assert x.log2().item() == 1.0 and x.log1p().item() == pytest.approx(np.log(3.0))


test_values_and_gradients_match_paddle = paddle_cases({
    "log1p": (lambda P, x: P.log1p(x), [positive(2, 3)]),
    "expm1": (lambda P, x: P.expm1(x), [signed(2, 3)]),
    "log2": (lambda P, x: P.log2(x), [positive(2, 3)]),
    "log10": (lambda P, x: P.log10(x), [positive(2, 3)]),
    "trunc": (lambda P, x: P.trunc(x), [signed(2, 3) * 3.3]),
    "frac": (lambda P, x: P.frac(x), [signed(2, 3) * 3.3]),
    "stanh": (lambda P, x: P.stanh(x, 0.5, 2.0), [signed(2, 3)]),
})


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["log1p", "expm1", "log2", "log10", "trunc", "frac"])
def test_integer_dtypes_match_paddle(name):
    assert_same_as_paddle(lambda P, x: getattr(P, name)(x), [np.array([1, 4])],
                          dtypes=["int64"], diff=())
