"""Turning an ``op_checks`` declaration into pytest items, one per op x backend x dtype x check."""
import pytest

from ..errors import CheckFailed


class OpCheckItem(pytest.Item):
    """One ``pack.op[backend-dtype-check]`` test: ``opsdk check``'s verdict on that case."""

    def __init__(self, *, case, mode, seed, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.mode = mode
        self.seed = seed
        self.result = None

    def runtest(self):
        from ..verification.check import run_case

        self.result = run_case(self.case, self.mode, self.seed)
        _verdict(self.result)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CheckFailed):
            return _failure_text(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


class PackLoadItem(pytest.Item):
    """``pack[load]``: fails when a declared pack failed to load (never silently absent)."""

    def __init__(self, *, failure, **kwargs):
        super().__init__(**kwargs)
        self.failure = failure

    def runtest(self):
        from ..verification.check.selection import failure_result

        raise CheckFailed(failure_result(self.failure))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CheckFailed):
            return _failure_text(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


def _verdict(result):
    """A CheckResult as pytest's outcome: skip, n/a -> skipped; fail, error, blocked -> failed."""
    from ..verification.check.result import NA, SKIP

    if result.status == SKIP:
        pytest.skip(result.detail.splitlines()[0] if result.detail else
                    f"{result.check} skipped on the {result.backend} backend in {result.dtype} (the check gave no reason)")
    if result.status == NA:
        pytest.skip(f"not applicable: {result.detail}")
    if result.failed:
        raise CheckFailed(result)


def _failure_text(result):
    from ..printable import printable

    title = f"{result.status.upper()} {result.case_id}" if result.check != "load" \
        else f"FAIL pack {result.op} failed to load"
    # an op's message may hold ESC, BEL, NUL or a lone surrogate: shown as escapes
    return printable(f"{title}\n{result.detail}")


def settings(getoption, declaration):
    """``(mode, seed)`` of a declaration: ``--opsdk-fast`` / ``--opsdk-full`` / ``--opsdk-seed``
    win over its own; the default is full mode, as for ``opsdk check``."""
    if getoption("opsdk_fast", False):
        mode = "fast"
    elif getoption("opsdk_full", False):
        mode = "full"
    else:
        mode = declaration.mode or "full"
    seed = getoption("opsdk_seed", None)
    if seed is None:
        seed = declaration.seed if declaration.seed is not None else 0
    return mode, seed


def collect_declaration(collector, declaration):
    """The items of one declaration, in op, backend, dtype, check order (failed packs first)."""
    from ..verification.check import plan_cases, select_ops
    from ..packs.loading import supervisor

    mode, seed = settings(collector.config.getoption, declaration)
    # packs not imported yet load in a child first: one that hangs or ends the process becomes a
    # failing `pack[load]` test instead of a stuck or silently ended (green) pytest run
    supervisor.enable("probe")
    # op objects (foreign ops from opsdk.foreign_op) are checked as given; names are looked up
    given = [op for op in declaration.ops if not isinstance(op, str)]
    names = tuple(op for op in declaration.ops if isinstance(op, str))
    ops, failures = select_ops(names, declaration.packs) if names or declaration.packs \
        or not given else ([], [])
    ops = given + [op for op in ops if op not in given]
    items = [PackLoadItem.from_parent(collector, name=f"{f.pack}[load]", failure=f) for f in failures]
    for case in plan_cases(ops, declaration.backends, declaration.dtypes, declaration.checks):
        items.append(OpCheckItem.from_parent(collector, name=case.case_id, case=case, mode=mode,
                                             seed=seed))
    return items
