"""How much the fuzz suite runs: a few examples per op by default (fast), many more with
OPSDK_FUZZ=deep (or OPSDK_FUZZ_EXAMPLES=N) for a deep run."""
import os

from hypothesis import HealthCheck, settings


def examples():
    """Examples per fuzz test: OPSDK_FUZZ_EXAMPLES, else 400 for OPSDK_FUZZ=deep, else 6."""
    if os.environ.get("OPSDK_FUZZ_EXAMPLES"):
        return int(os.environ["OPSDK_FUZZ_EXAMPLES"])
    return 400 if os.environ.get("OPSDK_FUZZ") == "deep" else 6


def fuzz_settings(factor=1):
    """The hypothesis settings every fuzz test uses (no deadline: Paddle's first call is slow).

    ``factor`` scales the example count for cheap tests. The default run is derandomized (the same examples every time, so CI is stable); a deep
    run draws new ones.
    """
    deep = bool(os.environ.get("OPSDK_FUZZ") or os.environ.get("OPSDK_FUZZ_EXAMPLES"))
    return settings(max_examples=examples() * factor, deadline=None, print_blob=True,
                    derandomize=not deep, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])
