"""A real JAX custom_vjp (jax-md's segmented matmul) and a real Paddle PyLayer (PaddleGAN's NAFNet
LayerNorm2D), their maths ported, verified through their own framework by a declaration of a
few lines each: no false alarm in any dtype, each planted bug fails its check with the cause
named; and what JAX's own tool says of the same bugs (Paddle has no public gradient checker)."""
import importlib
import inspect

import pytest

from opsdk.verification.check import plan_cases, run_checks

# importing JAX or Paddle and compiling JAX's levels take seconds
pytestmark = pytest.mark.slow
FRAMEWORKS = [pytest.param("jax", marks=pytest.mark.jax),
              pytest.param("paddle", marks=pytest.mark.paddle)]


def _pack(framework):
    """tests/foreign/real_<framework>_ops, skipped with the reason where the framework is absent."""
    pytest.importorskip(framework, reason=f"{framework} is not installed "
                                          f"(pip install opsdk[{framework}])")
    return importlib.import_module(f".real_{framework}_ops", __package__)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_declaration_is_at_most_a_dozen_lines(framework):
    pack = _pack(framework)
    (declare,) = [f for n, f in vars(pack).items() if n.startswith("declare_")]
    assert len(inspect.getsource(declare).splitlines()) <= 12


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_correct_op_passes_every_check_in_every_dtype(framework):
    results = run_checks(plan_cases(_pack(framework).CORRECT))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed]
    assert {"gradcheck", "reference", "isolation", "special_points", "needs_input_grad"} <= {
        r.check for r in results if r.status == "pass"}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_planted_bug_fails_its_check_naming_the_cause(framework):
    for op, check, words in _pack(framework).BUGS:
        (result,) = run_checks(plan_cases([op], backends=["python"], dtypes=["float64"],
                                           checks=[check]))
        assert result.failed, (op.name, check, result.detail)
        assert words in result.detail, (op.name, result.detail)


@pytest.mark.jax
def test_check_grads_at_the_authors_point_misses_the_cache_and_the_float32_gradient():
    """jax.test_util.check_grads, first order, reverse mode, at one point, as a test of the op
    would run it: it catches the two wrong gradients, not the stale cache (one point: the cache
    holds the very weights it checks) nor the float32 weight gradient (within its float64
    tolerance; second order shows it)."""
    pack = _pack("jax")
    import jax.numpy as jnp
    import numpy as np
    from jax.test_util import check_grads

    rng = np.random.default_rng(0)
    x, w = jnp.asarray(rng.standard_normal((6, 3))), jnp.asarray(rng.standard_normal((2, 4, 3)))
    sizes = jnp.asarray([2, 3])
    pack._TRANSPOSED_BY_SHAPE.clear()  # as in a fresh process

    def passes(fn, order):
        try:
            check_grads(lambda x, w: fn(x, w, sizes), (x, w), order=order, modes=["rev"])
        except AssertionError:
            return False
        return True

    assert passes(pack.segment_matmul, 2)
    assert not passes(pack.segment_matmul_every_row, 1)
    assert not passes(pack.segment_matmul_inclusive_starts, 1)
    assert passes(pack.segment_matmul_cached_transpose, 2)
    assert passes(pack.segment_matmul_float32_dweights, 1)
    assert not passes(pack.segment_matmul_float32_dweights, 2)
