"""layout: forward and backward on non-contiguous inputs equal the contiguous run, on every backend."""
from dataclasses import replace

from ..accuracy import against_reference, call_scale, reduction_length
from ..compare import bitwise
from ..conditioning import conditioning_run
from ..layouts import CONTIGUOUS
from ..samples import argument_names
from .agreement import Agreement

NAME = "layout"
SUMMARY = ("forward and backward on transposed, permuted, strided and reversed inputs (and "
           "incoming gradients) equal the contiguous run")
KINDS = ("layout",)
# rounding may differ with the memory order of a reduction, nothing more; what a layout bug
# does (elements unwritten, values in the wrong places) is as large as the values
FACTOR = 16


def applies(op, backend):
    return True


def _contiguous(sample):
    changed = {key: replace(slot, layout=CONTIGUOUS) for key, slot in sample.slots()}
    return sample.with_slots(sample.label, changed)


def _compare(ctx, got, want, kappa):
    names = argument_names(ctx.op, len(ctx.sample.args))
    length = reduction_length(ctx.sample)
    scale = call_scale(list(want.outputs) + list(want.grads) + list(want.grad_outputs))
    found = Agreement()
    pairs = [(f"output {k}", a, b, None if kappa is None else kappa.outputs[k])
             for k, (a, b) in enumerate(zip(got.outputs, want.outputs))]
    pairs += [(f"gradient of '{names[p]}'", a, b, None if kappa is None else kappa.grads[i])
              for i, (p, a, b) in enumerate(zip(ctx.sample.diff_positions, got.grads, want.grads))]
    for label, a, b, c in pairs:
        if a is None or b is None:
            if (a is None) != (b is None):
                found.problems.append(f"{label}: a gradient in one run only")
            continue
        if a.dtype.kind not in "fc":
            result = bitwise(a, b)
        else:
            result = against_reference(a, b, a.dtype, length, factor=FACTOR,
                                       what="the contiguous run", scale=scale, conditioning=c)
            found.float_failed |= not result.ok
        found.add(result)
        if not result.ok:
            found.problems.append(f"{label}: {result.message}")
    return found


def run(ctx):
    """Run the laid-out sample (incoming gradients in the same layout) and the contiguous one."""
    layout = next(s.layout for _, s in ctx.sample.slots() if s.layout != CONTIGUOUS)
    got = ctx.run(grad_layout=layout)
    contiguous = _contiguous(ctx.sample)
    want = ctx.run(sample=contiguous, grad_outputs=got.grad_outputs or None)
    found = _compare(ctx, got, want, None)
    if found.float_failed:
        # an ill-conditioned op rounds differently in another memory order by that much more
        kappa = conditioning_run(ctx, contiguous, want.grad_outputs)
        if kappa is not None:
            found = _compare(ctx, got, want, kappa)
    return found.outcome(ctx, f"{ctx.name} on {ctx.backend} gives other results for {layout} "
                              "inputs than for contiguous ones (a kernel that assumes C order, "
                              "e.g. writes through reshape(-1), which copies a non-contiguous "
                              "array): ")
