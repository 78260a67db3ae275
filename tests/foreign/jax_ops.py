"""JAX ops declared with opsdk.foreign_op: a correct custom_vjp, and the same op whose
backward ignores its attribute (hard-coded beta = 1, verified by its author at beta = 1 only)."""
from functools import partial

import jax
import jax.numpy as jnp

import opsdk
from opsdk import TensorSpec


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def swish(x, beta=1.0):
    """x * sigmoid(beta * x)."""
    return x * jax.nn.sigmoid(beta * x)


def _swish_fwd(x, beta):
    return swish(x, beta), x


def _swish_bwd(beta, x, dy):
    s = jax.nn.sigmoid(beta * x)
    return (dy * (s + beta * x * s * (1 - s)),)


swish.defvjp(_swish_fwd, _swish_bwd)


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def swish_fixed_beta(x, beta=1.0):
    return x * jax.nn.sigmoid(beta * x)


def _fixed_bwd(beta, x, dy):
    s = jax.nn.sigmoid(x)                              # BUG: beta = 1 hard-coded
    return (dy * (s + x * s * (1 - s)),)


swish_fixed_beta.defvjp(_swish_fwd, _fixed_bwd)


def _declare(fn, name):
    return opsdk.foreign_op(fn, framework="jax", name=f"jaxpack.{name}",
                            inputs=[TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))],
                            attrs={"beta": 1.0}, attr_ranges={"beta": (0.5, 3.0)},
                            double_backward=True,
                            reference=lambda x, beta=1.0: x * jax.nn.sigmoid(beta * x))


CORRECT = [_declare(swish, "swish")]
BUGS = [(_declare(swish_fixed_beta, "swish_fixed_beta"), "gradcheck", "beta=")]

# every op of the pack: opsdk check --op foreign.jax_ops:OPS (from tests/)
OPS = CORRECT + [op for op, _, _ in BUGS]
