"""Forward mode of an op's gradient levels, for the frameworks (torch.func.jvp, jacfwd and
hessian; JAX's jvp rule): the tangents of level k's float outputs for tangents of its float
arguments (the op's float tensors, then the cotangents of levels 1..k), by opsdk's forward
mode (autograd.functional.jvp: the op's own jvp where it has one, else its double backward).
"""
import numpy as np

from ..autograd.functional import jvp
from ..autograd.grad_api import grad
from ..autograd.grad_mode import enable_grad
from ..tensor import _wrap
from .levels import float_outputs, is_float


def level_outputs(levels, k, tensors, cotangents):
    """Level k's float outputs as opsdk Tensors, every level recorded (create_graph), so they
    can be differentiated again."""
    with enable_grad():
        outputs = levels.forward(tensors, record=True)
        outs = [outputs[i] for i in float_outputs(outputs)]
        args = [t for t in tensors if is_float(t)]
        used = 0
        for _ in range(k):
            cots = list(cotangents[used:used + len(outs)])
            used += len(outs)
            live = [(o, c) for o, c in zip(outs, cots) if not o.stop_gradient]
            grads = [None] * len(args)
            if live:
                grads = grad([o for o, _ in live], args, [c for _, c in live],
                             create_graph=True, allow_unused=True)
            outs = [g if g is not None else _wrap(np.zeros_like(a._data))
                    for g, a in zip(grads, args)]
            args = args + cots
    return outs


def level_jvp(levels, k, tensors, cotangents, tangents):
    """The tangents of level k's float outputs (opsdk Tensors); ``tangents`` has one per float
    argument of level k: the op's float tensors, then the cotangents."""
    positions = [i for i, t in enumerate(tensors) if is_float(t)]

    def f(*xs):
        ts = list(tensors)
        for p, x in zip(positions, xs):
            ts[p] = x
        return tuple(level_outputs(levels, k, ts, list(xs[len(positions):])))

    xs = [tensors[p] for p in positions] + list(cotangents)
    _, jv = jvp(f, xs, list(tangents))
    return list(jv) if isinstance(jv, (tuple, list)) else [jv]
