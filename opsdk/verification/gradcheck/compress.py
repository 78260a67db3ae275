"""One side of the Jacobian in few probes, using the sparsity of the side computed in full.

Oriented so that ``known`` (R×C) has the probed units as columns: input elements when the numeric
side is grouped (probe = one central difference), output elements when the analytic side is
(probe = one backward; ``known`` is then the numeric Jacobian transposed). Units whose known
columns touch disjoint rows are probed together, each with its own random weight r (|r| in
[0.5, 1.5], random sign): one probe then gives every row's entry for the single unit of the group
that owns that row. A group whose result disagrees with the prediction from ``known`` anywhere is
redone unit by unit, so a wrong or missing entry still ends up compared exactly.
"""
import numpy as np

FIRST_FIT_BUDGET = 300_000  # group/unit overlap tests before giving up on grouping


def color_columns(pattern, budget=FIRST_FIT_BUDGET):
    """Column groups with pairwise disjoint nonzero rows (first fit, row sets as int bitmasks)."""
    packed = np.packbits(pattern, axis=0)
    groups, masks, checks = [], [], 0
    for c in range(pattern.shape[1]):
        mask = int.from_bytes(packed[:, c].tobytes(), "big")
        placed = False
        if checks < budget:
            for g, used in enumerate(masks):
                checks += 1
                if not used & mask:
                    groups[g].append(c)
                    masks[g] = used | mask
                    placed = True
                    break
        if not placed:
            groups.append([c])
            masks.append(mask)
    return groups


class GroupProbe:
    """How to probe the unknown side: ``group(units, r) -> (R-vector, r as applied)`` and
    ``one(unit) -> R-vector``; ``limits(rows, units) -> (atol, rtol)`` arrays of their blocks;
    ``rtol_on_probe`` says whether the probed side is the numeric one (rtol scales it)."""

    def __init__(self, group, one, limits, rtol_on_probe):
        self.group = group
        self.one = one
        self.limits = limits
        self.rtol_on_probe = rtol_on_probe


def fill_by_groups(known, probe, rng):
    """The unknown side (R×C, same orientation as ``known``)."""
    n_rows, n_units = known.shape
    unknown = np.zeros((n_rows, n_units))
    for group in color_columns(known != 0):
        units = np.asarray(group)
        if units.size > 1 and _grouped(known, unknown, units, probe, rng):
            continue
        for u in units:
            unknown[:, u] = probe.one(int(u))
    return unknown


def _grouped(known, unknown, units, probe, rng):
    """Probe the group at once; False when it must be redone unit by unit."""
    r = rng.uniform(0.5, 1.5, units.size) * rng.choice([-1.0, 1.0], units.size)
    got, r = probe.group(units, r)
    sub = known[:, units]
    expected = sub @ r
    nonzero = sub != 0
    owned = nonzero.any(axis=1)
    owner = nonzero.argmax(axis=1)
    rows = np.arange(known.shape[0])
    atol, rtol = probe.limits(rows, units[owner])
    limit = atol * np.abs(r[owner]) + rtol * np.abs(got if probe.rtol_on_probe else expected)
    free = rows[~owned]
    if free.size:
        # a row no unit owns must stay zero: hold it to the strictest limit of the group
        limit[free] = probe.limits(free[:, None], units[None, :])[0].min(axis=1)
    if not np.all(np.abs(got - expected) <= limit):
        return False
    mine = rows[owned]
    unknown[mine, units[owner[mine]]] = got[mine] / r[owner[mine]]
    return True
