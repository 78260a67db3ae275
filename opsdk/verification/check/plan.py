"""Planning a run: every op x backend x dtype x check to verify, before anything runs."""
from dataclasses import dataclass

from .checks import CHECKS, checks_for


@dataclass(frozen=True)
class Case:
    """One op x backend x dtype x check; the runner verifies it on every sample."""

    op: object
    backend: str
    dtype: str
    check: str

    @property
    def case_id(self):
        """``pack.op[backend-dtype-check]``."""
        return f"{self.op.qualname}[{self.backend}-{self.dtype}-{self.check}]"


def plan_cases(ops, backends=(), dtypes=(), checks=()):
    """The cases to run for ``ops``, in op, backend, dtype, check order.

    Args:
        ops: OpInfo list.
        backends: limit to these backends (default: every backend each op has).
        dtypes: limit to these dtypes (default: every dtype each op is registered for).
        checks: limit to these check names (default: every check that applies).

    Returns:
        list of Case.

    Example::

        [c.case_id for c in plan_cases([op], backends=["python"], checks=["gradcheck"])]
        # ['mypack.swish[python-float32-gradcheck]', 'mypack.swish[python-float64-gradcheck]']
    """
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        from ...errors import OpArgumentError

        raise OpArgumentError(f"unknown check '{unknown[0]}'; expected: one of "
                              f"{', '.join(CHECKS)}; got: '{unknown[0]}'")
    cases = []
    for op in ops:
        for backend in op.backends:
            if backends and backend not in backends:
                continue
            for dtype in op.dtypes:
                if dtypes and dtype not in dtypes:
                    continue
                for check in checks_for(op, backend, checks, dtype):
                    cases.append(Case(op, backend, dtype, check))
    return cases
