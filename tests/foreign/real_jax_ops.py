"""A jax.custom_vjp as a public project writes it (the maths ported, the code our own), verified
by a declaration of a few lines.

- segment_matmul: the segmented matmul of jax-md's UMA potential (jax-md/jax-md,
  jax_md/_nn/uma/kernels.py: ``_segment_mm_2d`` with ``_segment_mm_fwd``/``_segment_mm_bwd``).
  Rows of ``x`` [N, I] are split into consecutive segments of lengths ``sizes`` [B] (int); row n
  of segment b is multiplied by ``weights[b]`` [O, I] transposed: out[n] = weights[b] @ x[n].
  Rows past the last segment give 0. Its VJP is written by hand: dx is the same segmented matmul
  of the cotangent with the transposed weights, dweights[b] the outer products of the cotangent
  and x summed over the rows of segment b only; ``sizes`` gets no cotangent.

BUGS: each with a bug of a class custom-VJP authors report, planted in the VJP (or in what it
keeps between calls), with the check that must catch it and the words of its report;
tests/foreign/ported_jax_paddle_ops.py plants the same ones in the same maths ported to opsdk.
"""
import jax
import jax.numpy as jnp

import opsdk
from opsdk import TensorSpec


def _segment_masks(rows, sizes, inclusive_starts=False):
    """[B, rows] bool: row n belongs to segment b."""
    ends = jnp.cumsum(sizes)
    starts = ends if inclusive_starts else ends - sizes
    n = jnp.arange(rows)
    return (n >= starts[:, None]) & (n < (starts + sizes)[:, None])


def segment_matmul_plain(x, weights, sizes):
    """The forward, and the reference: JAX's own autograd through it is the truth."""
    per_segment = jnp.einsum("ni,boi->bno", x, weights)
    mask = _segment_masks(x.shape[0], sizes)[:, :, None]
    return jnp.where(mask, per_segment, 0.0).sum(axis=0)


def _vjp_rule(dx_weights, dweight_terms, name="segment_matmul"):
    """A custom_vjp segment matmul whose VJP is built from the two pieces given."""

    def primal(x, weights, sizes):
        return segment_matmul_plain(x, weights, sizes)

    primal.__name__ = primal.__qualname__ = name  # what opsdk's reports name
    segment_matmul = jax.custom_vjp(primal)

    def fwd(x, weights, sizes):
        return segment_matmul_plain(x, weights, sizes), (x, weights, sizes)

    def bwd(residuals, dy):
        x, weights, sizes = residuals
        dx = segment_matmul_plain(dy, dx_weights(weights), sizes)
        return dx, dweight_terms(x, dy, sizes), None

    segment_matmul.defvjp(fwd, bwd)
    return segment_matmul


def _transposed(weights):
    return jnp.swapaxes(weights, 1, 2)


def _dweights(x, dy, sizes):
    mask = _segment_masks(x.shape[0], sizes)[:, :, None]
    return jnp.einsum("bno,bni->boi", jnp.where(mask, dy, 0.0), jnp.where(mask, x, 0.0))


segment_matmul = _vjp_rule(_transposed, _dweights)


# --- the same op with one bug each -------------------------------------------------------------
def _dweights_every_row(x, dy, sizes):
    # BUG (wrong reduction): summed over every row, not the segment's rows, for every segment
    return jnp.broadcast_to(jnp.einsum("no,ni->oi", dy, x), (sizes.shape[0],) + (
        dy.shape[1], x.shape[1]))


def _dweights_inclusive_starts(x, dy, sizes):
    # BUG (forward/backward index mismatch): the segment starts recomputed as an inclusive
    # cumsum in the backward, so every segment's rows are shifted by its own size
    mask = _segment_masks(x.shape[0], sizes, inclusive_starts=True)[:, :, None]
    return jnp.einsum("bno,bni->boi", jnp.where(mask, dy, 0.0), jnp.where(mask, x, 0.0))


_TRANSPOSED_BY_SHAPE = {}


def _transposed_cached(weights):
    # BUG (stateful cache): the transposed weights memoised by shape "since the weights do not
    # change within a step": every later call of the same shape gets the first call's weights
    return _TRANSPOSED_BY_SHAPE.setdefault(weights.shape, _transposed(weights))


def _dweights_float32(x, dy, sizes):
    # BUG (dtype): the weight gradient accumulated in float32 "as the kernel does", returned
    # as it is for float64 weights (JAX takes a float32 cotangent without a word)
    return _dweights(x.astype(jnp.float32), dy.astype(jnp.float32), sizes)


segment_matmul_every_row = _vjp_rule(_transposed, _dweights_every_row,
                                     "segment_matmul_every_row")
segment_matmul_inclusive_starts = _vjp_rule(_transposed, _dweights_inclusive_starts,
                                            "segment_matmul_inclusive_starts")
segment_matmul_cached_transpose = _vjp_rule(_transposed_cached, _dweights,
                                            "segment_matmul_cached_transpose")
segment_matmul_float32_dweights = _vjp_rule(_transposed, _dweights_float32,
                                            "segment_matmul_float32_dweights")


# the declaration: what a user of jax-md writes to verify it
def declare_segment_matmul(fn, name="segment_matmul"):
    return opsdk.foreign_op(fn, framework="jax", name=f"realjax.{name}",
                            inputs=[TensorSpec(shape=(6, 3)), TensorSpec(shape=(2, 4, 3)),
                                    TensorSpec(shape=(2,), integer=True, low=1, high=4)],
                            double_backward=True, reference=segment_matmul_plain)


OP = declare_segment_matmul(segment_matmul)
CORRECT = [OP]
# (op, the check that must catch the bug, words its report must hold: the cause named)
BUGS = [
    # wrong reduction: the weight gradient summed over every row, not the segment's
    (declare_segment_matmul(segment_matmul_every_row, "segment_matmul_every_row"),
     "gradcheck", "w.r.t. weights"),
    # index mismatch: backward's segment starts an inclusive cumsum (shifted by the size)
    (declare_segment_matmul(segment_matmul_inclusive_starts, "segment_matmul_inclusive_starts"),
     "gradcheck", "w.r.t. weights"),
    # stateful cache: transposed weights memoised by shape (under jax.jit, a tracer kept)
    (declare_segment_matmul(segment_matmul_cached_transpose, "segment_matmul_cached_transpose"),
     "needs_input_grad", "uses a value traced in an earlier call"),
    # dtype: the weight gradient computed and returned in float32 for float64 weights
    (declare_segment_matmul(segment_matmul_float32_dweights, "segment_matmul_float32_dweights"),
     "protocol", "wrong dtype; expected: float64; got: float32"),
]

# every op: opsdk check --op foreign.real_jax_ops:OPS (from tests/)
OPS = CORRECT + [op for op, _, _ in BUGS]
