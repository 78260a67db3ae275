"""Samples derived from an op's own: broadcast inputs for binary ops, and non-contiguous inputs."""
from .samples import STRIDED, TensorSlot, argument_names


def broadcast_variants(sample, op, full):
    """Samples where one of two same-shaped tensor inputs is broadcast against the other.

    An op whose first two differentiable inputs share a shape (ndim >= 1) is treated as binary:
    the second input shrinks to size 1 along the first axis (``y[1, 4]`` against ``x[3, 4]``),
    and, in full mode, the first input also loses its leading axis (``x[4]`` against
    ``y[3, 4]``). The values are taken from ``sample``, so they keep clear of declared kinks.
    """
    positions = sample.diff_positions
    if len(positions) < 2:
        return []
    first, second = positions[:2]
    a, b = sample.args[first], sample.args[second]
    if a.shape != b.shape or not a.shape:
        return []
    names = argument_names(op, max(first, second) + 1)
    variants = []
    if a.shape[0] > 1:
        shrunk = TensorSlot(b.values[:1].copy(), b.differentiable)
        variants.append(sample.replace(f"{sample.label}, broadcast {names[second]}{shrunk.shape}",
                                       {second: shrunk}))
    if full or not variants:
        dropped = TensorSlot(a.values[0].copy(), a.differentiable)
        variants.append(sample.replace(f"{sample.label}, broadcast {names[first]}{dropped.shape}",
                                       {first: dropped}))
    return variants if full else variants[:1]


def noncontiguous_variant(sample):
    """The sample with every tensor input (of more than one element) in a non-contiguous layout."""
    changed = {i: TensorSlot(a.values, a.differentiable, STRIDED)
               for i, a in enumerate(sample.args)
               if isinstance(a, TensorSlot) and a.values.size > 1}
    if not changed:
        return []
    return [sample.replace(f"{sample.label}, non-contiguous", changed)]
