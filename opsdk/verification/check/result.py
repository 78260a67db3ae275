"""What a check reports: one Outcome per sample, one CheckResult per op x backend x dtype x check."""
from dataclasses import dataclass, field

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
    ``detail`` says what went wrong (or why the check does not apply); ``loosened`` says how,
    when a comparison passed only thanks to a tolerance the op declared; ``ratio`` is the
    largest error over its allowed error (1 is at the tolerance), when the check measures one.
    """

    status: str
    worst: float = None
    detail: str = ""
    loosened: str = ""
    ratio: float = None

    @classmethod
    def passed(cls, worst=None, detail="", loosened="", ratio=None):
        return cls(PASS, worst, detail, loosened, ratio)

    @classmethod
    def failed(cls, detail, worst=None, loosened="", ratio=None):
        return cls(FAIL, worst, detail, loosened, ratio)

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
        message: one line naming the cause of a failure ('' when it passed).
        loosened: '' or how the op's declared tolerance was needed to pass (the report says so).
        replay: the command that reruns just this case ('' when it passed).
        notes: what the check could not verify or chose not to (e.g. an attribute verified at
            one value only).
        ratio: the largest error over its allowed error among the samples (1 is at the
            tolerance; None when the check measures none).
    """

    op: str
    backend: str
    dtype: str
    check: str
    status: str
    worst: float = None
    detail: str = ""
    samples: int = 0
    mode: str = "full"
    seconds: float = 0.0
    message: str = ""
    loosened: str = ""
    replay: str = ""
    notes: list = field(default_factory=list)
    ratio: float = None

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
                "samples": self.samples, "mode": self.mode, "seconds": round(self.seconds, 4),
                "message": self.message, "loosened": self.loosened, "replay": self.replay,
                "notes": list(self.notes), "ratio": self.ratio}


def summarize(results):
    """Counts per status: ``{'pass': 40, 'fail': 2, 'error': 0, 'blocked': 0, 'skip': 4, 'n/a': 6}``."""
    counts = {status: 0 for status in STATUSES}
    for result in results:
        counts[result.status] += 1
    return counts
