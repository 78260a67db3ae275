"""What a derived sample may cost: the largest size a derived dimension takes, and why.

Derived sizes exist to expose something (a loop tail, a second block, a parallel chunk, a long
accumulation), not to be as large as possible. An op bounds them itself: ``max_size=N`` caps
every derived dimension, and ``cost="n^2"`` (or ``"sequential n^2"`` for a Python-level loop,
a dynamic programme) says how its work grows with a dimension's size n, from which the
largest affordable n follows: ``VECTOR_WORK`` units of array work, ``SEQUENTIAL_WORK`` steps
of a Python loop. An op that declares neither is assumed linear; as a safety net, a dimension
stops growing when its python forward took ``TRIAL_SECONDS`` at the last size, and the run
says so (declaring the cost makes the choice independent of the machine's speed).
"""
import math

VECTOR_WORK = 1 << 24
SEQUENTIAL_WORK = 1 << 17
TRIAL_SECONDS = 1.0


def size_limit(op):
    """``(largest size, why)`` a derived dimension of ``op`` may take; ``(inf, "")`` if unbounded."""
    limit, why = math.inf, ""
    max_size = getattr(op, "max_size", None)
    if max_size is not None:
        limit, why = int(max_size), f"max_size={max_size}"
    cost = getattr(op, "cost", None)
    if cost is not None:
        work = SEQUENTIAL_WORK if cost.sequential else VECTOR_WORK
        n = _largest(cost, work)
        if n < limit:
            limit, why = n, f"cost='{cost}' (at most {work} units of work: n <= {n})"
    return limit, why


def _largest(cost, work):
    """The largest n with cost.work(n) <= work (bisection: work grows with n)."""
    low, high = 1, 1 << 40
    while low < high:
        middle = (low + high + 1) // 2
        if cost.work(middle) <= work:
            low = middle
        else:
            high = middle - 1
    return low


def capped_note(kind, sizes, why):
    """The note of derived sizes left out because of the op's declared bound."""
    shown = ", ".join(str(s) for s in sizes)
    return f"{kind} {shown} not derived: above what {why} allows"


def slow_note(kind, size, seconds):
    """The note of a dimension that stopped growing because its forward got slow."""
    return (f"{kind} above {size} not derived: the python forward took {seconds:.1f} s at "
            f"{size} (declare cost= or max_size= to choose independently of this machine's "
            "speed)")
