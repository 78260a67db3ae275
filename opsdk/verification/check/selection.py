"""Which ops a run verifies: named ops, whole packs, or everything; plus packs that failed to load."""
from .result import FAIL, CheckResult


def _failed_packs(registry):
    return {f.pack: f for f in registry.failures()}


def select_ops(names=(), packs=(), registry=None):
    """The ops to verify, and the load failures that belong to the selection.

    Args:
        names: op names (``pack.op`` or unambiguous short names); empty means every op.
        packs: pack names to limit the run to; empty means every pack.
        registry: the registry to read (default: the process's, loading packs on first use).

    Returns:
        ``(ops, failures)``: OpInfo list in registry order, and PluginFailure records of the
        selected packs that did not load (a failed pack is never silently absent).

    Raises:
        OpNotFoundError / AmbiguousOpError: a named op does not exist (and its pack did not fail).
        PackNotFoundError: a named pack is neither loaded nor failed.

    Example::

        ops, failures = select_ops(["mypack.swish"])
    """
    if registry is None:
        from ...packs.loading import get_registry

        registry = get_registry()
    failed = _failed_packs(registry)
    for pack in packs:
        if not registry.has_pack(pack) and pack not in failed:
            registry.pack(pack)  # raises PackNotFoundError listing the loaded packs
    wanted_packs = set(packs)
    if not names:
        ops = [op for op in registry.ops() if not wanted_packs or op.pack in wanted_packs]
        failures = [f for f in failed.values() if not wanted_packs or f.pack in wanted_packs]
        return ops, failures
    ops, failures, seen = [], [], set()
    for name in names:
        pack = name.split(".", 1)[0] if "." in name else None
        if pack in failed and not registry.has_pack(pack):
            if pack not in seen:
                failures.append(failed[pack])
                seen.add(pack)
            continue
        op = registry.get(name)
        if wanted_packs and op.pack not in wanted_packs:
            continue
        if op.qualname not in seen:
            ops.append(op)
            seen.add(op.qualname)
    return ops, failures


def failure_result(failure):
    """A CheckResult row for a pack that failed to load: check ``load``, status ``fail``."""
    return CheckResult(op=failure.pack, backend="-", dtype="-", check="load", status=FAIL,
                       detail=f"{failure}\n{failure.traceback}")

