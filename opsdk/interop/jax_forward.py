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

from ..errors import UnsupportedError
from .forward_levels import arity, derived, derived_likes
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
    return tuple(jvp_p.bind(*args, *tangents, call=call, k=k, path="j", n_args=len(args)))


def _float_args(args):
    return [a for a in args if np.dtype(a.dtype).kind == "f"]


def _shapes(call, k, path, operands, n_args):
    """The result shapes of level k's derivative along ``path`` (forward_levels.derived)."""
    args, rest = operands[:n_args], operands[n_args:]
    outs = call._result_shapes(k, args)
    if k == 0:
        outs = [s for s in outs if np.dtype(s.dtype).kind == "f"]
    floats = _float_args(args)
    likes = derived_likes(path, len(floats), floats + list(rest), outs)
    return [jax.ShapeDtypeStruct(s.shape, s.dtype) for s in likes]


def _impl(*operands, call, k, path, n_args):
    shapes = _shapes(call, k, path, operands, n_args)

    def host(*arrays):
        ins = direct.wrap_inputs([np.asarray(a) for a in arrays], [False] * len(arrays))
        tensors, cotangents = call._split(ins[:n_args])
        out = derived(call.levels, k, path, tensors, cotangents, ins[n_args:])
        return tuple(np.asarray(o._data, dtype=s.dtype).reshape(s.shape)
                     for o, s in zip(out, shapes))

    return tuple(jax.pure_callback(host, tuple(shapes), *operands, vmap_method="sequential"))


def _abstract(*operands, call, k, path, n_args):
    return [jax.core.ShapedArray(s.shape, s.dtype)
            for s in _shapes(call, k, path, operands, n_args)]


def _jvp(primals, tangents, *, call, k, path, n_args):
    """The primitive's own tangent is the path's next "j" step (forward over forward), one
    tangent per float argument, zeros where JAX has none."""
    params = dict(call=call, k=k, n_args=n_args)
    out = jvp_p.bind(*primals, path=path, **params)
    floats = [i for i, a in enumerate(primals[:n_args]) if np.dtype(a.dtype).kind == "f"]
    floats += list(range(n_args, len(primals)))
    ts = [ad.instantiate_zeros(tangents[i]) for i in floats]
    return out, jvp_p.bind(*primals, *ts, path=path + "j", **params)


def _last_group(path, operands, n_args):
    """How many operands the path's last step added (its linear group)."""
    n_floats = len(_float_args(operands[:n_args]))
    sizes = arity(path, n_floats, n_floats + len(operands) - n_args)
    return sizes[-1][0] - sizes[-2][0]


def _transpose(cts, *operands, call, k, path, n_args):
    """The primitive is linear in its last group (a "j" step's tangents, a "v" step's
    cotangents): <ct, J t> = <Jᵀ ct, t>, so the transpose of a "j" step is the "v" step at ct
    (level k+1 for the op's own tangent), and of a "v" step the "j" step."""
    shapes = _shapes(call, k, path, operands, n_args)
    cts = [jax.numpy.zeros(s.shape, s.dtype) if type(c) is ad.Zero else c
           for c, s in zip(cts, shapes)]
    n_last = _last_group(path, operands, n_args)
    fixed, group = operands[:len(operands) - n_last], operands[len(operands) - n_last:]
    if any(ad.is_undefined_primal(o) for o in fixed):
        raise UnsupportedError(
            f"opsdk_jvp of '{call.exported.qualname}' transposed in an argument it is not "
            "linear in (only its last group of tangents or cotangents)")
    if path == "j":  # level k+1 gives one gradient per float argument of level k
        grads = list(call.level(k + 1)(*fixed, *cts))
    else:
        flipped = path[:-1] + ("v" if path[-1] == "j" else "j")
        grads = list(jvp_p.bind(*fixed, *cts, call=call, k=k, path=flipped, n_args=n_args))
    return [None] * len(fixed) + [g if ad.is_undefined_primal(t) else None
                                  for g, t in zip(grads, group)]


def _batch(batched, dims, **params):
    """One bind per batch element (lax.map), so a transform outside the vmap still sees the
    primitive (its jvp rule), never the bare callback."""
    size = next(a.shape[d] for a, d in zip(batched, dims) if d is not None)
    moved = [None if d is None else jax.numpy.moveaxis(a, d, 0)
             for a, d in zip(batched, dims)]

    def one(xs):
        it = iter(xs)
        ops = [next(it) if m is not None else a for a, m in zip(batched, moved)]
        return tuple(jvp_p.bind(*ops, **params))

    outs = jax.lax.map(one, [m for m in moved if m is not None])
    assert all(o.shape[0] == size for o in outs)
    return list(outs), [0] * len(outs)


jvp_p.def_impl(_impl)
ad.primitive_jvps[jvp_p] = _jvp
jvp_p.def_abstract_eval(_abstract)
ad.primitive_transposes[jvp_p] = _transpose
batching.primitive_batchers[jvp_p] = _batch
mlir.register_lowering(jvp_p, mlir.lower_fun(_impl, multiple_results=True))
