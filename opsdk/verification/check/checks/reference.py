"""reference: forward, first and second order agree with the op's declared ``reference=``.

The reference is the op's maths written with core opsdk ops; its autograd gives gradients and
second derivatives independent of the op's hand-written backward. It runs in float64, so a
float32 op is held to float32's accuracy of the true values, not to its own kernel.
"""
import numpy as np

from ....autograd import grad
from ....functional.creation import to_tensor
from ...gradcheck.tolerance import SECOND_ORDER
from ..accuracy import FACTOR, against_reference, call_scale, reduction_length
from ..context import host, outputs_of
from ..result import Outcome
from ..samples import argument_names
from .agreement import Agreement

NAME = "reference"
SUMMARY = "forward, gradients and second derivatives agree with the op's reference= in float64"
KINDS = ("own", "broadcast", "attribute")
# the op's own samples, and the broadcasts and attributes derived from its first
LEAD_ORIGIN = True


def applies(op, backend):
    return op.reference is not None


def _orders(ctx, function, backend, dtype, place):
    """(outputs, first-order grads, second-order grads) of ``function`` on the sample, as host
    arrays; the seeds come from the sample, so op and reference get the same ones."""
    args, kwargs = ctx.sample.make(place, dtype=dtype)
    positions = ctx.sample.diff_positions
    inputs = [args[p] for p in positions]
    with ctx.scope(backend), np.errstate(all="ignore"):
        outputs = outputs_of(function(*args, **kwargs))
        diff = [o for o in outputs if o.dtype.kind == "f" and not o.stop_gradient]
        result = [host(o) for o in outputs]
        if not diff:
            return result, [], []
        rng = np.random.default_rng(ctx.sample.seed)

        def seed_like(t):
            # the op's dtype first: op and reference get exactly the same seed values
            values = rng.standard_normal(tuple(t.shape)).astype(ctx.dtype).astype(t.dtype)
            return to_tensor(values, place=t.place)

        seeds = [seed_like(o) for o in diff]
        want_second = ctx.op.double_backward
        first = grad(diff, inputs, grad_outputs=seeds, create_graph=want_second,
                           allow_unused=True)
        first_host = [None if g is None else host(g) for g in first]
        if not want_second:
            return result, first_host, []
        connected = [(g, x) for g, x in zip(first, inputs) if g is not None and not g.stop_gradient]
        if not connected:
            return result, first_host, [np.zeros(x.shape) for x in inputs]
        us = [seed_like(g) for g, _ in connected]
        second = grad([g for g, _ in connected], inputs, grad_outputs=us, allow_unused=True)
        return result, first_host, [np.zeros(x.shape) if g is None else host(g)
                                    for g, x in zip(second, inputs)]


def run(ctx):
    """The op on the backend in its dtype against the reference's autograd in float64."""
    got = _orders(ctx, ctx.op, ctx.backend, None, ctx.place)
    try:
        want = _orders(ctx, ctx.op.reference, "python", "float64", None)
    except Exception as error:
        if ctx.sample.kind == "own":
            raise  # the reference itself is broken: the op's author must see it
        return Outcome.not_applicable(f"the reference refuses this derived sample: "
                                      f"{type(error).__name__}: {error}")
    names = argument_names(ctx.op, len(ctx.sample.args))
    positions = ctx.sample.diff_positions
    length = reduction_length(ctx.sample)
    inputs = [slot.values for _, slot in ctx.sample.slots()]
    scale = call_scale(list(want[0]) + list(want[1]) + list(want[2]) + inputs)
    found = Agreement()
    problems = found.problems
    if len(got[0]) != len(want[0]):
        return Outcome.failed(f"{ctx.name}: the op returns {len(got[0])} outputs, its reference "
                              f"{len(want[0])}")
    labelled = [(f"output {k}", a, b) for k, (a, b) in enumerate(zip(got[0], want[0]))]
    labelled += [(f"gradient of '{names[p]}'", a, b) for p, a, b in zip(positions, got[1], want[1])]
    labelled += [(f"second derivative (Hessian-vector product) for '{names[p]}'", a, b)
                 for p, a, b in zip(positions, got[2], want[2])]
    for label, a, b in labelled:
        if a is None or b is None:
            if (a is None) != (b is None) and np.any(a if a is not None else b):
                problems.append(f"{label}: {'the op' if a is None else 'the reference'} gives none")
            continue
        if a.dtype.kind not in "fc":
            ok = np.array_equal(a, b)
            if not ok:
                problems.append(f"{label}: differs from the reference's")
            continue
        # a second derivative rounds about twice as often as the forward
        factor = FACTOR * (SECOND_ORDER if label.startswith("second") else 1)
        result = against_reference(a, b, a.dtype, length, declared=ctx.loosening,
                                   what="the reference in float64", scale=scale, factor=factor)
        found.add(result)
        if not result.ok:
            problems.append(f"{label}: {result.message}")
    return found.outcome(ctx, f"{ctx.name} on {ctx.backend} ({ctx.dtype}) disagrees with its "
                              "reference: ")
