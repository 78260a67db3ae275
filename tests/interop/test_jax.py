"""opsdk ops as JAX functions: check_grads under jit, vmap against a loop, sharding."""
import pytest

import opsdk

from .pack import per_op

jax = pytest.importorskip("jax", reason="jax is not installed (pip install opsdk[jax])")
pytestmark = pytest.mark.jax

from opsdk.verification.frameworks import render, verify  # noqa: E402


@pytest.mark.parametrize("name", per_op())
def test_op_passes_check_grads_under_jit_and_vmap_agrees_with_a_loop(name):
    outcomes = verify("jax", [opsdk.ops.get(name)])
    from opsdk.verification.frameworks.torch_checks import forward_mode

    expected = {"forward", "check_grads[jit]", "vmap"}
    if forward_mode(opsdk.ops.get(name)):
        expected.add("jacfwd[jit]")  # forward mode against reverse mode
    assert {o.check for o in outcomes} == expected
    assert all(o.passed for o in outcomes), render(outcomes, quiet=True)


def test_int64_output_and_bool_argument():
    import numpy as np

    f = opsdk.interop.jax.op("interoptest.masked_scale")
    x = jax.numpy.linspace(-1.0, 1.0, 6)
    mask = jax.numpy.array([True, False] * 3)
    y, count = jax.jit(lambda x: f(x, mask, scale=3.0))(x)
    assert int(count) == 3 and np.dtype(count.dtype).kind == "i"
    g = jax.grad(lambda x: f(x, mask, scale=3.0)[0].sum())(x)
    np.testing.assert_allclose(g, 2 * np.asarray(x) * np.where(mask, 3.0, 1.0), rtol=1e-6)


@pytest.mark.slow
def test_sharded_example_equals_the_unsharded_run():
    from .examples import run_example

    assert "sharded over 2 devices" in run_example("jax_sharded").stdout
