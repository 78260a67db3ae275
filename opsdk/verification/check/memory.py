"""The memory budget of one sample: what a check may allocate before it is stopped and reported.

A derived sample can ask for far more than its inputs hold: a broadcasting bug turns two
vectors of 65537 elements into a 65537 x 65537 matrix (16 GiB in float32), and a Jacobian
grows with the square of the input. Without a limit the process is killed by the kernel's
OOM killer, with no report. While a sample runs (or is tried), the process's address-space
limit (``RLIMIT_AS``) is lowered to what it uses now plus the budget: an allocation beyond it
fails with ``MemoryError`` instead, which the check reports as the op's failure, with the
sample and the bytes it asked for. Sizes known in advance (a derived size's inputs, a
Jacobian) are estimated before allocating. Where the platform has no such limit (Windows,
macOS ignores it), only the estimates apply.

The budget is ``--max-memory`` of ``opsdk check`` (``--opsdk-max-memory`` of the pytest
plugin, ``OPSDK_CHECK_MAX_MEMORY``), by default a quarter of the machine's memory.
"""
import contextlib
import os

from ...env import LOWEST_BUDGET, byte_size, machine_memory, setting

try:
    import resource
except ImportError:  # Windows
    resource = None

ENV = "OPSDK_CHECK_MAX_MEMORY"
DEFAULT_FRACTION = 0.25
# when the machine's memory cannot be read
FALLBACK = 4 << 30
LOWEST = LOWEST_BUDGET
_configured = None
# in every report of a sample that ran out of its budget
OVER_BUDGET_WORDS = "beyond the memory budget"


def parse_size(text):
    """Bytes from ``"4G"``, ``"4GiB"``, ``"512M"``, a plain count such as ``"1000000"``, or a
    share of the machine's memory such as ``"25%"``.

    Raises:
        ValueError: naming what was expected.

    Example:
        >>> parse_size("512M")
        536870912
    """
    try:
        return byte_size(text)
    except ValueError as error:
        raise ValueError(f"expected: {error}; got: {text!r}") from None


def describe(size):
    """``16.0 GiB`` for a byte count."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.1f} {unit}"
    return f"{int(size)} bytes"


def set_budget(size):
    """Make ``size`` bytes (None: the default) the budget of every sample of this process."""
    global _configured
    _configured = None if size is None else int(size)


def budget():
    """The budget of one sample in bytes: set_budget's, else ``OPSDK_CHECK_MAX_MEMORY``'s, else
    a quarter of the machine's memory."""
    if _configured is not None:
        return _configured
    configured = setting(ENV)  # a bad value warns once and is ignored
    if configured is not None:
        return configured
    total = machine_memory()
    return int(total * DEFAULT_FRACTION) if total else FALLBACK


def _address_space():
    """The process's virtual memory size in bytes (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def limited(size=None):
    """Allocations beyond ``size`` bytes (default: the budget) more than now raise MemoryError
    inside the block (Linux's RLIMIT_AS; elsewhere nothing changes)."""
    used = _address_space() if resource is not None else None
    if used is None:
        yield
        return
    size = budget() if size is None else size
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = used + size
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        yield  # a stricter limit is already set: keep it
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def asked_for(error):
    """``(bytes, what)`` a MemoryError asked for, where NumPy says (``None, ''`` otherwise)."""
    size = getattr(error, "_total_size", None)
    shape = getattr(error, "shape", None)
    dtype = getattr(error, "dtype", None)
    if size is None:
        return None, ""
    what = f"an array of shape {tuple(shape)} and dtype {dtype}" if shape is not None else ""
    return int(size), what


def over_budget_text(error, where=""):
    """The report of a sample that ran out of its memory budget."""
    size, what = asked_for(error)
    asked = f"asked for {describe(size)}" + (f" ({what})" if what else "") if size \
        else f"ran out of memory ({error})"
    return (f"the sample {asked}, {OVER_BUDGET_WORDS} of {describe(budget())} per sample "
            f"(--max-memory){where}; an intermediate that grows with the square of a size, or a "
            "broadcast that makes a matrix of two vectors? (a cost hint, max_size=, or a "
            "larger --max-memory if the op really needs it)")
