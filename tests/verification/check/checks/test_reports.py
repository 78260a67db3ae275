from types import SimpleNamespace

from opsdk.verification.check.checks.reports import checker_seed, worst_error
from opsdk.verification.check.samples import CaseSample


def test_checker_seed_is_fixed_per_sample():
    a = CaseSample("s", (), {}, [0, 1, 2])
    b = CaseSample("s", (), {}, [0, 1, 3])
    assert checker_seed(a) == checker_seed(a) != checker_seed(b)


def test_worst_error_is_the_largest_listed_abs_error():
    mismatch = lambda e: SimpleNamespace(abs_err=e)  # noqa: E731
    report = SimpleNamespace(failures=[SimpleNamespace(worst=[mismatch(0.5), mismatch(2.0)]),
                                       SimpleNamespace(worst=[mismatch(1.0)])])
    assert worst_error(report) == 2.0
    assert worst_error(SimpleNamespace(failures=[])) is None
