"""Forward mode of an exported JAX op: the primitive ``opsdk_jvp`` whose value is the tangent of
gradient level k (level 0: the op) for tangents of its float arguments, computed on the host by
opsdk's forward mode (interop.forward_levels: the op's own jvp, or its double backward).

Each level is a ``jax.custom_jvp`` function (interop.jax) whose jvp rule returns this
primitive's result. The primitive is linear in the tangents, and its transpose rule is level
k+1 (the vjp), itself a custom_jvp function: so ``jax.jvp``, ``jax.jacfwd``, ``jax.grad``,
``jax.jacrev`` and ``jax.hessian`` (forward over reverse) all work, under ``jit`` (a lowering
through ``pure_callback``) and ``vmap`` (one host call per batch element).
"""
import numpy as np

from .forward_levels import level_jvp
from ._require import require

jax = require("jax")

from jax.extend.core import Primitive  # noqa: E402
from jax.interpreters import ad, batching, mlir  # noqa: E402

from . import direct  # noqa: E402

jvp_p = Primitive("opsdk_jvp")
jvp_p.multiple_results = True


def tangent(call, k, args, tangents):
    """Level k's float outputs' tangents (a tuple of arrays) for ``tangents``, one per float
    argument of level k (the op's float tensors, then the cotangents)."""
    return tuple(jvp_p.bind(*args, *tangents, call=call, k=k, n_args=len(args)))


def _shapes(call, k, args):
    shapes = call._result_shapes(k, args)
    if k == 0:
        shapes = [s for s in shapes if np.dtype(s.dtype).kind == "f"]
    return shapes


def _impl(*operands, call, k, n_args):
    args, tangents = operands[:n_args], operands[n_args:]
    shapes = _shapes(call, k, args)

    def host(*arrays):
        ins = direct.wrap_inputs([np.asarray(a) for a in arrays], [False] * len(arrays))
        tensors, cotangents = call._split(ins[:n_args])
        out = level_jvp(call.levels, k, tensors, cotangents, ins[n_args:])
        return tuple(np.asarray(o._data, dtype=s.dtype).reshape(s.shape)
                     for o, s in zip(out, shapes))

    return tuple(jax.pure_callback(host, tuple(shapes), *args, *tangents,
                                   vmap_method="sequential"))


def _abstract(*operands, call, k, n_args):
    return [jax.core.ShapedArray(s.shape, s.dtype) for s in _shapes(call, k, operands[:n_args])]


def _transpose(cts, *operands, call, k, n_args):
    """<ct, J t> = <Jᵀ ct, t>: the tangents' cotangents are level k+1 (the vjp) at ct."""
    args, tangents = operands[:n_args], operands[n_args:]
    shapes = _shapes(call, k, args)
    cts = [jax.numpy.zeros(s.shape, s.dtype) if type(c) is ad.Zero else c
           for c, s in zip(cts, shapes)]
    # level k+1 gives one gradient per float argument of level k: one per tangent
    grads = list(call.level(k + 1)(*args, *cts))
    return [None] * n_args + [g if ad.is_undefined_primal(t) else None
                              for g, t in zip(grads, tangents)]


def _batch(batched, dims, *, call, k, n_args):
    """One bind per batch element (lax.map), so a transform outside the vmap still sees the
    primitive (its jvp rule), never the bare callback."""
    size = next(a.shape[d] for a, d in zip(batched, dims) if d is not None)
    moved = [None if d is None else jax.numpy.moveaxis(a, d, 0)
             for a, d in zip(batched, dims)]

    def one(xs):
        it = iter(xs)
        ops = [next(it) if m is not None else a for a, m in zip(batched, moved)]
        return tuple(jvp_p.bind(*ops, call=call, k=k, n_args=n_args))

    outs = jax.lax.map(one, [m for m in moved if m is not None])
    assert all(o.shape[0] == size for o in outs)
    return list(outs), [0] * len(outs)


def _no_jvp(primals, tangents, *, call, k, n_args):
    from ..errors import InteropError
    raise InteropError(
        f"forward mode over forward mode through '{call.exported.qualname}': the op's tangent "
        "(the opsdk_jvp primitive) is computed by opsdk on the host and has no derivative of "
        "its own in JAX; expected: forward over reverse (jax.hessian, jacfwd(jacrev(f))); got: "
        "a derivative of a tangent (jacfwd(jacfwd(f)))")


jvp_p.def_impl(_impl)
ad.primitive_jvps[jvp_p] = _no_jvp
jvp_p.def_abstract_eval(_abstract)
ad.primitive_transposes[jvp_p] = _transpose
batching.primitive_batchers[jvp_p] = _batch
mlir.register_lowering(jvp_p, mlir.lower_fun(_impl, multiple_results=True))
