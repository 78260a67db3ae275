"""The benchmarks' one way to time a call: the best of several rounds, after a warm-up.

The best round is the one the machine disturbed least (these 2 cores are shared), so it is the
steadiest measure of what the code itself costs; every table compares rows timed this way in the
same run.
"""
import time


def best_of(fn, repeat, number=1, clock=time.perf_counter):
    """The best mean seconds per call of ``fn`` over ``repeat`` rounds of ``number`` calls, after
    one warm-up call (compiles, caches, first touch of memory). ``clock=time.process_time`` counts
    this process's CPU time instead of wall time."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - start) / number)
    return best


def best_ms(fn, repeat, number=1):
    """``best_of`` in milliseconds."""
    return best_of(fn, repeat, number) * 1e3
