import numpy as np
import pytest

import opsdk
from opsdk import TensorSpec

from ..adversarial.pack import module
from ..helpers import verdict

NanAtZero = module("bugs_points").TanhXNan0
Sqrt = module("correct").Sqrt
Exp32Overflow = module("bugs_points").SoftplusOverflow


def test_a_nan_gradient_where_the_derivative_exists_fails(pack):
    result = verdict(pack, NanAtZero, "special_points", inputs=[TensorSpec(shape=(2, 3))])
    assert result.status == "fail" and "the gradient of 'x' is nan at" in result.detail
    assert "(float64 central differences: 0)" in result.detail


def test_an_infinite_derivative_at_the_domain_end_is_no_failure(pack):
    spec = [TensorSpec(shape=(2, 3), domain=(0.0, 4.0), avoid=(0.0,), min_distance=0.05)]
    assert verdict(pack, Sqrt, "special_points", inputs=spec).status == "pass"


def test_a_float32_overflow_at_the_domain_end_is_found_on_every_seed(pack):
    spec = [TensorSpec(shape=(2, 3), domain=(-5.0, 100.0))]
    result = verdict(pack, Exp32Overflow, "special_points", dtype="float32", inputs=spec)
    assert result.status == "fail"
    assert "is inf in float32 where python in float64 gives 100" in result.detail


def test_a_nan_at_the_edge_of_the_domain_with_a_finite_one_sided_limit_fails(pack):
    from ..adversarial_outsider.pack import module as outsider

    spec = [TensorSpec(shape=(3, 4), domain=(0.0, 3.0))]
    result = verdict(pack, outsider("edge_bugs").XLogXNan, "special_points", inputs=spec)
    assert result.status == "fail" and "at the edge of the domain" in result.detail


def test_the_same_op_with_the_point_handled_passes(pack):
    from ..adversarial_outsider.pack import module as outsider

    spec = [TensorSpec(shape=(3, 4), domain=(0.0, 3.0))]
    assert verdict(pack, outsider("good").XLogX, "special_points", inputs=spec).status == "pass"


def _unary(name, f, df):
    """A PyLayer of f with derivative df, NumPy on the input's array."""

    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(all="ignore"):
            return opsdk.to_tensor(f(x.numpy()).astype(x.numpy().dtype))

    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        with np.errstate(all="ignore"):
            return opsdk.to_tensor((dy.numpy() * df(x.numpy())).astype(x.numpy().dtype))

    return type(name, (opsdk.PyLayer,), {"forward": staticmethod(forward),
                                         "backward": staticmethod(backward)})


def _sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


# swish' as c (z + d) / d^2 with c = e^z, d = c + 1 (StyleGAN2's form) without its z > 40
# guard: inf / inf past ln(max) (88 in float32, 709 in float64), far outside (-3, 3)
UnguardedSwish = _unary("UnguardedSwish", lambda z: z * _sigmoid(z),
                        lambda z: np.exp(z) * (z + np.exp(z) + 1) / (np.exp(z) + 1) ** 2)
GuardedSwish = _unary("GuardedSwish", lambda z: z * _sigmoid(z),
                      lambda z: _sigmoid(z) * (1 + z * (1 - _sigmoid(z))))
DOMAIN = [TensorSpec(shape=(2, 3), domain=(-3.0, 3.0))]


@pytest.mark.parametrize("dtype, at", [("float32", "110.9"), ("float64", "887.2")])
def test_a_nan_gradient_at_large_inputs_beyond_the_domain_fails(pack, dtype, at):
    result = verdict(pack, UnguardedSwish, "special_points", dtype=dtype, inputs=DOMAIN)
    assert result.status == "fail"
    assert "at large finite inputs beyond the declared domain" in result.detail
    assert f"the gradient of 'x' is nan at [0, 0] (x[0, 0] = {at})" in result.detail


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_guarded_form_passes_beyond_the_domain(pack, dtype):
    assert verdict(pack, GuardedSwish, "special_points", dtype=dtype,
                   inputs=DOMAIN).status == "pass"


# domains that are true restrictions: beyond them python in float64 is NaN (or the op
# raises), so they are not probed there; where float64 is finite (sqrt, log of +887) the
# op is right and passes
RESTRICTED = {
    "sqrt": (np.sqrt, lambda x: 0.5 / np.sqrt(x), (0.1, 4.0)),
    "log": (np.log, lambda x: 1 / x, (0.1, 3.0)),
    "acos": (np.arccos, lambda x: -1 / np.sqrt(1 - x * x), (-0.9, 0.9)),
    "atanh": (np.arctanh, lambda x: 1 / (1 - x * x), (-0.9, 0.9)),
}


@pytest.mark.parametrize("name", sorted(RESTRICTED))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ops_whose_domain_is_a_true_restriction_pass(pack, name, dtype):
    f, df, domain = RESTRICTED[name]
    spec = [TensorSpec(shape=(2, 3), domain=domain)]
    result = verdict(pack, _unary(name, f, df), "special_points", dtype=dtype, inputs=spec)
    assert result.status == "pass", result.detail
