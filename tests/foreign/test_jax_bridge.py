"""opsdk/foreign/jax_bridge.py: a custom_vjp wrapping NumPy code runs (eagerly, as its users run
it), and an op that keeps a JAX value between calls is refused naming the cause."""
import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="jax is not installed (pip install opsdk[jax])")
pytestmark = pytest.mark.jax

import jax.numpy as jnp  # noqa: E402

import opsdk  # noqa: E402
from opsdk.verification.check import plan_cases, run_checks  # noqa: E402
from opsdk.errors import StateError  # noqa: E402
from opsdk.foreign.jax_bridge import Bridge  # noqa: E402


@jax.custom_vjp
def numpy_sin(x):
    """sin computed by NumPy (fast-soft-sort wraps its NumPy ops in a custom_vjp this way)."""
    return jnp.asarray(np.sin(np.asarray(x)))


def _numpy_sin_fwd(x):
    return numpy_sin(x), x


def _numpy_sin_bwd(x, dy):
    return (jnp.asarray(np.cos(np.asarray(x)) * np.asarray(dy)),)


numpy_sin.defvjp(_numpy_sin_fwd, _numpy_sin_bwd)

_KEPT = {}


def kept_scale(x, w):
    """x * w with w memoised by shape: the first call's w (a tracer under jit) is used again."""
    return x * _KEPT.setdefault(w.shape, w)


def test_custom_vjp_of_numpy_code_is_verified_eagerly():
    op = opsdk.foreign_op(numpy_sin, framework="jax", name="bridge.numpy_sin",
                          inputs=[opsdk.TensorSpec(shape=(3, 4))])
    results = run_checks(plan_cases([op], dtypes=["float64"]))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    assert "gradcheck" in {r.check for r in results if r.status == "pass"}


def test_value_kept_between_calls_is_a_state_error_naming_the_op():
    bridge = Bridge()
    x, w = np.ones((2, 3)), np.full((2, 3), 2.0)
    bridge.call(kept_scale, [x, w], [True, True], {}, "bridge.kept_scale")
    with pytest.raises(StateError, match=r"'bridge.kept_scale' \(jax\) uses a value traced in an "
                                         r"earlier call: its code keeps a JAX array"):
        bridge.call(kept_scale, [x, w], [True, False], {}, "bridge.kept_scale")  # a new trace
