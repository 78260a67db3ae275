"""Forward mode of an op's gradient levels, for the frameworks (torch.func.jvp, jacfwd and
hessian; JAX's jvp rule): the tangents of level k's float outputs for tangents of its float
arguments (the op's float tensors, then the cotangents of levels 1..k), by opsdk's forward
mode (autograd.functional.jvp: the op's own jvp where it has one, else its double backward).
"""
import numpy as np

from ..autograd.functional import _separate_one, jvp
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
    return derived(levels, k, "j", tensors, cotangents, list(tangents))


def derived(levels, k, path, tensors, cotangents, rest):
    """A derivative of level k taken along ``path`` (a string of "j" and "v"), as opsdk Tensors.

    Level k is f_0, a function of its float arguments (the op's float tensors, then the
    cotangents). Each step adds one group of arguments (``rest`` holds them all, in order):
    "j" one tangent per argument (f_{n+1}(ins, t) = J_n t, the jvp), "v" one cotangent per
    output (f_{n+1}(ins, w) = J_nᵀ w, the vjp). Every step is recorded (create_graph), so a
    framework's derivative of a tangent (forward over forward, reverse over forward) is one
    more step: to any order the op's rules allow (its double backward, or a jvp written with
    opsdk ops); where they do not, opsdk's error names the op."""
    positions = [i for i, t in enumerate(tensors) if is_float(t)]

    def base(*xs):
        ts = list(tensors)
        for p, x in zip(positions, xs):
            ts[p] = x
        return list(level_outputs(levels, k, ts, list(xs[len(positions):])))

    ins = [tensors[p] for p in positions] + list(cotangents) + list(rest)
    f = base
    for step, (n_in, _) in zip(path, arity(path, len(positions) + len(cotangents), len(ins))):
        f = _step(f, n_in, step)
    with enable_grad():
        return list(f(*ins))


def arity(path, n_args, n_all):
    """(arguments, outputs) of f_0 .. f_len(path), f_0 taking ``n_args`` and the last ``n_all``:
    a "j" step doubles the arguments, a "v" step adds one per output and has one output per
    argument of the step before (f_0's output count follows from n_all)."""
    def sizes(n_out):
        got = [(n_args, n_out)]
        for step in path:
            a, b = got[-1]
            got.append((2 * a, b) if step == "j" else (a + b, a))
        return got

    at0, at1 = sizes(0)[-1][0], sizes(1)[-1][0]
    n_out = 0 if at1 == at0 else (n_all - at0) // (at1 - at0)
    return sizes(n_out)


def derived_likes(path, n_args, ins, outs):
    """What the derivative of level k along ``path`` returns, each as the object it is shaped
    like (torch fakes, JAX shapes: anything): ``ins`` f_0's ``n_args`` arguments then the
    groups, ``outs`` f_0's outputs."""
    likes = list(outs)
    for step, (n_in, _) in zip(path, arity(path, n_args, len(ins))):
        likes = likes if step == "j" else list(ins[:n_in])
    return likes


def _step(f, n_in, step):
    """f_{n+1} from f_n, which takes n_in arguments."""
    if step == "j":
        def jvp_of(*ins):
            _, jv = jvp(lambda *xs: tuple(f(*xs)), list(ins[:n_in]), list(ins[n_in:]))
            return list(jv) if isinstance(jv, (tuple, list)) else [jv]
        return jvp_of

    def vjp_of(*ins):
        xs, ws = [_separate_one(x) for x in ins[:n_in]], list(ins[n_in:])
        outs = f(*xs)
        live = [(o, w) for o, w in zip(outs, ws) if not o.stop_gradient]
        grads = [None] * n_in
        if live:
            grads = grad([o for o, _ in live], xs, [w for _, w in live], create_graph=True,
                         allow_unused=True)
        return [g if g is not None else _wrap(np.zeros_like(x._data)) for g, x in zip(grads, xs)]
    return vjp_of
