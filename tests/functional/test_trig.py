"""tan, the inverse and hyperbolic functions, hypot, copysign, ldexp, nan_to_num: values,
gradients to second order (central differences), and Paddle's values and gradients."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import paddle_cases
from helpers.gradients import assert_gradients

INSIDE = np.array([[-0.7, -0.2, 0.1], [0.3, 0.5, 0.8]])  # inside (-1, 1)
ABOVE_ONE = 1.5 + np.abs(INSIDE)

UNARY = {
    "tan": (np.tan, INSIDE), "asin": (np.arcsin, INSIDE), "acos": (np.arccos, INSIDE),
    "atan": (np.arctan, INSIDE * 3), "sinh": (np.sinh, INSIDE * 3), "cosh": (np.cosh, INSIDE * 3),
    "asinh": (np.arcsinh, INSIDE * 3), "acosh": (np.arccosh, ABOVE_ONE),
    "atanh": (np.arctanh, INSIDE),
}


@pytest.mark.parametrize("name", UNARY)
def test_values_are_numpys_and_gradients_hold_to_second_order(name):
    ref, x = UNARY[name]
    fn = getattr(opsdk, name)
    np.testing.assert_allclose(fn(opsdk.to_tensor(x)).numpy(), ref(x), rtol=1e-15)
    assert_gradients(fn, [x])


def test_binary_ones_have_their_gradients_to_second_order():
    y = INSIDE[::-1] + 2.0
    assert_gradients(lambda a, b: opsdk.hypot(a, b), [INSIDE, y])
    assert_gradients(lambda a, b: opsdk.ldexp(a, b), [INSIDE, y])
    assert_gradients(lambda a: opsdk.copysign(a, opsdk.to_tensor(-y)), [INSIDE])


def test_copysign_nan_to_num_and_integer_inputs():
    x = opsdk.to_tensor([1.0, -2.0, 0.0], stop_gradient=False)
    y = opsdk.copysign(x, opsdk.to_tensor([-1.0, -1.0, 1.0]))
    y.sum().backward()
    assert y.numpy().tolist() == [-1.0, -2.0, 0.0] and x.grad.numpy().tolist() == [-1, 1, 0]
    z = opsdk.to_tensor([np.nan, np.inf, -np.inf, 2.0], stop_gradient=False)
    out = opsdk.nan_to_num(z, nan=1.0)
    out.sum().backward()
    big = np.finfo(np.float32).max
    assert out.numpy().tolist() == [1.0, big, -big, 2.0]
    assert z.grad.numpy().tolist() == [0, 0, 0, 1]
    assert opsdk.tan(opsdk.to_tensor([1, 2])).dtype == np.float32
    assert opsdk.ldexp(opsdk.to_tensor([1.0]), opsdk.to_tensor([3])).numpy().tolist() == [8.0]


def test_in_place_forms_write_into_the_tensor():
    x = opsdk.to_tensor([0.1, 0.5], stop_gradient=False)
    y = x * 1
    assert y.tan_() is y
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 / np.cos([0.1, 0.5]) ** 2, rtol=1e-6)
    z = opsdk.to_tensor([1.0])
    assert opsdk.log1p_(z) is z and z.item() == pytest.approx(np.log(2.0))


test_values_and_gradients_match_paddle = paddle_cases({
    **{name: (lambda P, x, name=name: getattr(P, name)(x), [x]) for name, (_, x) in UNARY.items()},
    "hypot": (lambda P, a, b: P.hypot(a, b), [INSIDE, INSIDE + 2]),
    "ldexp": (lambda P, a, b: P.ldexp(a, b), [INSIDE, INSIDE + 2]),
    "copysign": (lambda P, a, b: P.copysign(a, b), [INSIDE, -INSIDE[::-1]]),
    "nan_to_num": (lambda P, a: P.nan_to_num(a, nan=3.0),
                   [np.array([np.nan, np.inf, -np.inf, 1.5])]),
})


@pytest.mark.parametrize("op", ["hypot", "ldexp", "hypot_", "ldexp_"])
@pytest.mark.parametrize("x, y", [("t", 3.8), (3.8, "t"), ("t", 3)])
def test_hypot_and_ldexp_take_only_tensors(op, x, y):
    # Paddle: "y must be tensor type" (a TypeError); a number is not broadcast
    t = opsdk.to_tensor([1.0, 2.0])
    x, y = (t if v == "t" else v for v in (x, y))
    # (the in-place form names itself for x, the op for y)
    with pytest.raises(TypeError, match=rf"{op.rstrip('_')}_?: [xy] must be tensor type, but "):
        getattr(opsdk, op)(x, y)


@pytest.mark.parametrize("op, args, steps", [("hypot_", ([3.0, 4.0],), 3),
                                             ("ldexp_", ([2],), 2), ("nan_to_num_", (), 3)])
def test_in_place_forms_count_paddles_in_place_steps_in_the_version(op, args, steps):
    # Paddle makes them of several in-place steps (hypot_: pow_, add_, sqrt_), each counted;
    # a tensor saved before then refuses backward naming that version
    x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 1.0
    z = y * y
    getattr(opsdk, op)(y, *(opsdk.to_tensor(a) for a in args))
    assert y.inplace_version == steps
    with pytest.raises(RuntimeError, match=f"tensor_version:{steps} != wrapper_version_snapshot:0"):
        z.sum().backward()
