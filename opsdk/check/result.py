"""What a check reports: one Outcome per sample, one CheckResult per op x backend x dtype x check."""
from dataclasses import dataclass

PASS = "pass"
FAIL = "fail"
ERROR = "error"
SKIP = "skip"
NA = "n/a"
# the check could not run because the op's backward breaks the protocol (the protocol check
# reports the cause); it still fails the run, so no check passes by not running
BLOCKED = "blocked"

STATUSES = (PASS, FAIL, ERROR, BLOCKED, SKIP, NA)
# statuses that make `opsdk check` exit non-zero
FAILING = (FAIL, ERROR, BLOCKED)


@dataclass
class Outcome:
    """The verdict of one check on one sample.

    ``worst`` is the largest error measured (absolute), when the check measures one;
    ``detail`` says what went wrong (or why the check does not apply).
    """

    status: str
    worst: float = None
    detail: str = ""

    @classmethod
    def passed(cls, worst=None, detail=""):
        return cls(PASS, worst, detail)

    @classmethod
    def failed(cls, detail, worst=None):
        return cls(FAIL, worst, detail)

    @classmethod
    def not_applicable(cls, why):
        return cls(NA, None, why)


@dataclass
class CheckResult:
    """The verdict of one check of one op on one backend in one dtype, over all its samples.

    Attributes:
        op: the op's qualified name (``pack.op``); for a pack that failed to load, the pack name.
        backend: ``python``, ``c``, ``cuda`` (``-`` for a pack load failure).
        dtype: the dtype checked (``-`` for a pack load failure).
        check: the check's name (``load`` for a pack load failure).
        status: ``pass``, ``fail``, ``error``, ``blocked``, ``skip`` or ``n/a``.
        worst: the largest error measured over the samples, or None.
        detail: the report of a failure, or the reason of a skip.
        samples: how many samples the check ran on.
        mode: ``fast`` or ``full`` (the mode that gave the verdict).
        seconds: how long the check took.
    """

    op: str
    backend: str
    dtype: str
    check: str
    status: str
    worst: float = None
    detail: str = ""
    samples: int = 0
    mode: str = "fast"
    seconds: float = 0.0

    @property
    def failed(self):
        """True for ``fail``, ``error`` and ``blocked``: what makes the run exit non-zero."""
        return self.status in FAILING

    @property
    def case_id(self):
        """``pack.op[backend-dtype-check]``, the id the table, JUnit and pytest use."""
        return f"{self.op}[{self.backend}-{self.dtype}-{self.check}]"

    def as_dict(self):
        """A JSON-ready dict."""
        return {"op": self.op, "backend": self.backend, "dtype": self.dtype, "check": self.check,
                "status": self.status, "worst_error": self.worst, "detail": self.detail,
                "samples": self.samples, "mode": self.mode, "seconds": round(self.seconds, 4)}


def summarize(results):
    """Counts per status: ``{'pass': 40, 'fail': 2, 'error': 0, 'blocked': 0, 'skip': 4, 'n/a': 6}``."""
    counts = {status: 0 for status in STATUSES}
    for result in results:
        counts[result.status] += 1
    return counts
