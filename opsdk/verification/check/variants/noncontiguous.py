"""Layout samples: the same values with every tensor input transposed, permuted, strided or reversed."""
from dataclasses import replace

from ..layouts import NEGATIVE, NONCONTIGUOUS, STRIDED, TRANSPOSED, applies
from ..samples import LAYOUT


def layout_variants(sample, full):
    """One sample per layout that changes at least one tensor input (all of them where it applies).

    The cheap mode keeps transposed (strided where nothing has two axes) and negative strides:
    a kernel writing through ``out.reshape(-1)`` survives every-other-element strides, not those.
    """
    layouts = NONCONTIGUOUS if full else (TRANSPOSED, STRIDED, NEGATIVE)
    variants = []
    for layout in layouts:
        changed = {key: replace(slot, layout=layout) for key, slot in sample.slots()
                   if applies(layout, slot.values.shape)}
        if changed:
            variants.append(sample.with_slots(f"{sample.label}, {layout}", changed, kind=LAYOUT))
    if not full:
        kinds = [v.label.rsplit(", ", 1)[1] for v in variants]
        if TRANSPOSED in kinds and STRIDED in kinds:
            variants = [v for v, k in zip(variants, kinds) if k != STRIDED]
    return variants
