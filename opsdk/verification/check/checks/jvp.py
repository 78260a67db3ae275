"""jvp: the op's forward mode (its own jvp, or the one derived from its double backward) is right.

For an op with its own ``jvp``: per differentiable input, the Jacobian-vector product with only
that input moving is held to central differences of forward, and to the op's vjp through the
transpose identity <u, J v> = <Jᵀu, v> on random u and v (a wrong jvp with a right vjp, or the
reverse, breaks it); with double backward, reverse over forward (the gradient of <u, J v>)
matches reverse over reverse (the gradient of <Jᵀu, v>). An op whose jvp is derived from its
double backward gets the transpose identity on its first sample (the rest of what that jvp
rests on, gradcheck and gradgradcheck verify).
"""
import numpy as np

from ....autograd import grad
from ....autograd.forward import has_jvp
from ....autograd.functional import jvp as functional_jvp
from ....tensor import Tensor
from ..result import Outcome
from ..samples import ATTRIBUTE, argument_names
from .wrapped import function_or_reason

NAME = "jvp"
SUMMARY = ("forward mode (the op's jvp, or the one derived from double backward) matches central "
           "differences of forward and the op's vjp (<u, J v> = <Jᵀu, v>); reverse over forward "
           "matches reverse over reverse")
KINDS = ("own", "attribute")
LEAD_ORIGIN = True

# central differences of a float64 forward: step and the agreement expected of them
_STEP = 1e-6
_RTOL, _ATOL = 1e-5, 1e-7
# analytic against analytic (the transpose identity, second order): rounding only
_EXACT_RTOL = 1e-8


def _own(op):
    return has_jvp(op.function)


def applies(op, backend):
    return _own(op) or bool(op.double_backward)


def applies_dtype(op, backend, dtype):
    # float64 only: central differences and the identities need its precision, and a derived
    # jvp is checked once (on the python backend)
    return dtype == "float64" and (_own(op) or backend == "python")


def _outputs(ys):
    return list(ys) if isinstance(ys, (tuple, list)) else [ys]


def _arrays(ts):
    return [np.asarray(t.numpy(), dtype=np.float64) for t in ts]


def _inner(a, b):
    return float(sum(np.vdot(x, y) for x, y in zip(a, b)))


def _close(got, want, rtol, atol):
    scale = max(abs(want), abs(got), 1.0)
    return abs(got - want) <= atol * scale + rtol * abs(want), abs(got - want)


def _tensor(a, like):
    from ....functional.creation import to_tensor
    return to_tensor(np.asarray(a, dtype=like.numpy().dtype), place=like.place)


def run(ctx):
    """Per input: J v against central differences and against <Jᵀu, v>; second order if any."""
    own = _own(ctx.op)
    if not own and not ctx.sample.lead:
        return Outcome.not_applicable("a derived jvp is checked on the op's first sample")
    wrapped = function_or_reason(ctx)
    if isinstance(wrapped, Outcome):
        return wrapped
    func, inputs = wrapped
    rng = np.random.default_rng(ctx.sample.seed)
    names = [argument_names(ctx.op, len(ctx.sample.args))[p] for p in ctx.sample.diff_positions]
    with ctx.scope():
        ys = _outputs(func(*inputs))
        us = [rng.standard_normal(tuple(y.shape)) for y in ys]
        vs = [rng.standard_normal(tuple(x.shape)) for x in inputs]
        vjp = grad(ys, list(inputs), [_tensor(u, y) for u, y in zip(us, ys)], allow_unused=True)
        problems, worst = [], 0.0
        for i, (x, name) in enumerate(zip(inputs, names)):
            found, err = _one_input(ctx, func, inputs, i, vs, us, vjp, own)
            worst = max(worst, err)
            problems += [f"'{name}' (input {i}): {p}" for p in found]
        if not problems and own and ctx.op.double_backward:
            found, err = _second_order(func, inputs, us, vs)
            worst = max(worst, err)
            problems += found
    if problems:
        kind = "jvp" if own else "jvp derived from its double backward"
        hint = ""
        if ctx.sample.kind == ATTRIBUTE:
            hint = (" (a sample whose attributes differ from the registered ones: a jvp right "
                    "only there hard-codes an attribute instead of reading it from ctx)")
        return Outcome.failed(f"{ctx.name}: the {kind} is wrong ({ctx.sample.describe()}){hint}: "
                              + "; ".join(problems), worst)
    return Outcome.passed(worst)


def _tangents(inputs, vs, i):
    return [_tensor(v if k == i else np.zeros_like(v), x)
            for k, (x, v) in enumerate(zip(inputs, vs))]


def _one_input(ctx, func, inputs, i, vs, us, vjp, own):
    """What is wrong with J v for a tangent on input i alone, and the largest error."""
    _, jv = functional_jvp(func, list(inputs), _tangents(inputs, vs, i))
    jv = _arrays(_outputs(jv))
    problems, worst = [], 0.0
    left = _inner(us, jv)
    right = 0.0 if vjp[i] is None else float(np.vdot(_arrays([vjp[i]])[0], vs[i]))
    ok, err = _close(left, right, _EXACT_RTOL, _EXACT_RTOL)
    worst = max(worst, err)
    if not ok:
        problems.append(f"<u, J v> = {left:.10g} but <Jᵀu, v> = {right:.10g} by the op's vjp "
                        "(transpose identity broken: the jvp and the vjp disagree)")
    if own:
        numeric = _central(func, inputs, i, vs[i])
        for k, (a, n) in enumerate(zip(jv, numeric)):
            bad = np.abs(a - n) > _ATOL + _RTOL * np.abs(n)
            worst = max(worst, float(np.max(np.abs(a - n), initial=0.0)))
            if bad.any():
                j = tuple(int(q) for q in np.unravel_index(int(np.argmax(np.abs(a - n))),
                                                           a.shape))
                what = ("the jvp ignores this input's tangent (its J v is 0)"
                        if not np.any(a) and np.any(n) else "J v differs from central differences")
                problems.append(f"{what}: output {k}{list(j)} = {a[j]:.8g}, central differences "
                                f"give {n[j]:.8g} ({int(bad.sum())} of {bad.size} elements)")
    return problems, worst


def _central(func, inputs, i, v):
    """(f(x + h v) - f(x - h v)) / 2h with input i moved, the others fixed."""
    def at(sign):
        moved = [_tensor(x.numpy() + sign * _STEP * v, x) if k == i else x.detach()
                 for k, x in enumerate(inputs)]
        return _arrays(_outputs(func(*moved)))
    return [(p - m) / (2 * _STEP) for p, m in zip(at(1), at(-1))]


def _second_order(func, inputs, us, vs):
    """grad_x <u, J(x) v> (reverse over the op's jvp) against grad_x <Jᵀ(x) u, v> (reverse
    over reverse): both are the Hessian of <u, f> times v."""
    xs = [x.detach() for x in inputs]
    for x in xs:
        x.stop_gradient = False
    ys = _outputs(func(*xs))
    u = [_tensor(a, y) for a, y in zip(us, ys)]
    v = [_tensor(a, x) for a, x in zip(vs, xs)]
    _, jv = functional_jvp(func, xs, v)
    jv = _outputs(jv)
    fwd = grad([t for t in jv if isinstance(t, Tensor)], xs, u, allow_unused=True)
    first = grad(ys, xs, u, create_graph=True, allow_unused=True)
    kept = [(g, w) for g, w in zip(first, v) if g is not None and not g.stop_gradient]
    rev = grad([g for g, _ in kept], xs, [w for _, w in kept], allow_unused=True) if kept \
        else [None] * len(xs)
    problems, worst = [], 0.0
    for k, (a, b) in enumerate(zip(fwd, rev)):
        a = np.zeros(xs[k].shape) if a is None else _arrays([a])[0]
        b = np.zeros(xs[k].shape) if b is None else _arrays([b])[0]
        err = float(np.max(np.abs(a - b), initial=0.0))
        worst = max(worst, err)
        if err > 1e-7 * max(1.0, float(np.max(np.abs(b), initial=0.0))):
            problems.append(f"reverse over forward (the gradient of <u, J v>) differs from "
                            f"reverse over reverse (of <Jᵀu, v>) for input {k} by {err:.3g}: the "
                            "jvp's derivative disagrees with the double backward")
    return problems, worst
