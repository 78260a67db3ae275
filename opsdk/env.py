"""opsdk's environment variables, in one place: what each means, its default, what a bad value does.

Code reads a variable with ``setting(NAME)``: the parsed value, or the default when it is unset.
A value that cannot be parsed is never silently ignored: lenient variables warn once (an
``OpsdkWarning`` naming the variable, the value and what is expected) and use the default;
strict ones (``OPSDK_BACKEND``, ``OPSDK_CUDA_SIM_SCHEDULE``: a wrong value would change what is
verified) raise where they are used. ``opsdk doctor`` lists every problem (``problems()``).

Imports nothing heavy: ``import opsdk`` reads ``OPSDK_CUDA_SIM`` through it.

Example::

    from opsdk.env import setting

    setting("OPSDK_POOL_MB")        # 256 unless the variable says otherwise
"""
import math
import os
from dataclasses import dataclass

BACKENDS = ("python", "c", "cuda")
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")
SCHEDULES = {"": 0, "in-order": 0, "reverse": 1, "shuffle": 2}


@dataclass(frozen=True)
class Variable:
    """One environment variable: ``parse(text)`` gives its value or raises ValueError saying what
    is expected; ``default`` is its value when unset (or, lenient, when bad), ``unset`` says that
    in words; ``effect`` is what it does (docs/cli.md's table)."""

    name: str
    parse: object
    default: object
    unset: str
    effect: str
    strict: bool = False


def _text(text):
    return text


def _whole(minimum, unit):
    def parse(text):
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or value < minimum:
            raise ValueError(f"a whole number of {unit} >= {minimum}")
        return value
    return parse


def process_count(text):
    """'auto' -> None (one per CPU); a whole number >= 1 -> itself."""
    if text.strip().lower() == "auto":
        return None
    try:
        return _whole(1, "processes")(text)
    except ValueError as error:
        raise ValueError(f"{error}, or auto") from None


def _seconds(text):
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ValueError("a number of seconds > 0, e.g. 60")
    return value


def _seconds_or_none(text):
    """Seconds >= 0, where 0 means no limit (None)."""
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise ValueError("a number of seconds >= 0 (0: no limit), e.g. 30")
    return value or None


def _zero_or_one(text):
    value = text.strip()
    if value not in ("0", "1"):
        raise ValueError("0 (off) or 1 (on)")
    return value == "1"


def machine_memory():
    """The machine's physical memory in bytes, or None when it cannot be read."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


_BYTE_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
# below this a check's sample cannot even hold the verifier's own work
LOWEST_BUDGET = 64 << 20
# the machine's memory when it cannot be read
ASSUMED_MEMORY = 16 << 30


def byte_size(text):
    """Bytes from ``4G``, ``4GiB``, ``512M``, ``1000000`` or ``25%`` (of the machine's memory),
    at least LOWEST_BUDGET."""
    import re

    expected = ("a size such as 4G, 512M, 2GiB, 1000000 (bytes) or 25% (of the machine's memory), "
                "at least 64 MiB")
    match = re.match(r"^\s*([0-9]*\.?[0-9]+)\s*(%|[kmgt]?)(i?b)?\s*$", str(text), re.IGNORECASE)
    if match is None:
        raise ValueError(expected)
    number, unit = float(match[1]), match[2].lower()
    if unit == "%":
        if not 0 < number <= 100:
            raise ValueError("a percentage in (0, 100]")
        return int(number / 100 * (machine_memory() or ASSUMED_MEMORY))
    size = int(number * _BYTE_UNITS[unit])
    if size < LOWEST_BUDGET:
        raise ValueError(expected)
    return size


def _backend(text):
    value = text.strip().lower()
    if value in ("", "auto"):
        return None
    if value not in BACKENDS:
        raise ValueError(f"one of {', '.join(BACKENDS)}, auto")
    return value


def _simulator(text):
    value = text.strip().lower()
    if value in _ON:
        return "on"
    if value == "auto":
        return "auto"
    if value in _OFF:
        return None
    raise ValueError("1, true, yes or on; auto (only where CuPy finds no GPU); 0, false, no, off "
                     "or empty (off)")


def _schedule(text):
    value = text.strip().lower()
    name, _, seed = value.partition(":")
    if name not in SCHEDULES or (seed and (name != "shuffle" or not seed.isdigit())):
        raise ValueError("in-order, reverse, shuffle or shuffle:SEED (a non-negative integer)")
    return SCHEDULES[name], int(seed or 0)


# cubins a pack's wheel holds unless told: Turing (T4), Ampere (A100; the sm_86 and sm_89 GPUs run
# the sm_80 cubin), Hopper (H100, H200), Blackwell (B200, RTX 50); the PTX of the lowest serves
# any later GPU
CUDA_ARCHS = (75, 80, 90, 100, 120)
_ARCH = r"(?:sm_|compute_)?(\d{2,3})|(\d+)\.(\d)"
_ARCHS_EXPECTED = "architectures such as 80,90 (or sm_80 sm_90, 8.0;9.0), or none"


def cuda_archs(text):
    """The GPU architectures a list names, as numbers: ``"80,90"``, ``"sm_80 sm_90"`` and
    ``"8.0;9.0"`` all give ``(80, 90)``; ``"none"`` gives ``()``.

    Raises:
        ValueError: an item is not an architecture; the message says what is expected.

    Example:
        >>> cuda_archs("sm_90, 8.0")
        (80, 90)
    """
    import re

    items = [item for item in re.split(r"[\s,;]+", text.strip().lower()) if item]
    if items == ["none"]:
        return ()
    archs = set()
    for item in items:
        match = re.fullmatch(_ARCH, item)
        if match is None:
            raise ValueError(f"{_ARCHS_EXPECTED}; {item!r} is not one")
        archs.add(int(match[1]) if match[1] else 10 * int(match[2]) + int(match[3]))
    if not archs:
        raise ValueError(_ARCHS_EXPECTED)
    return tuple(sorted(archs))


VARIABLES = {v.name: v for v in (
    Variable("OPSDK_BACKEND", _backend, None, "auto", "force a backend for every kernel call: python, "
             "c, cuda (auto or empty: none)", strict=True),
    Variable("OPSDK_LOAD_PLUGINS", _text, None, "every pack", "comma-separated packs to load (unset: "
             "all; empty: none but the built-in one)"),
    Variable("OPSDK_PLUGIN_TIMEOUT", _seconds_or_none, 30.0, "30 s", "seconds a pack may take to load "
             "before it is stopped and listed as failed (0: no limit)"),
    Variable("OPSDK_CACHE_DIR", _text, None, "the per-user cache directory", "where compiled kernels "
             "are cached: a new or empty directory of your own, or one opsdk made"),
    Variable("OPSDK_BUILD_TIMEOUT", _seconds, 600.0, "600 s", "seconds to wait for another process's "
             "compile of the same kernel"),
    Variable("OPSDK_PREBUILD", _zero_or_one, True, "1", "0: a pack's wheel build ships its C and CUDA "
             "kernels as sources only, compiled on first call, instead of prebuilt"),
    Variable("OPSDK_CUDA_ARCHS", cuda_archs, None, "the pack's [tool.opsdk] cuda-archs, else "
             "75,80,90,100,120", "GPU architectures a pack's wheel build compiles its CUDA kernels for "
             "with nvcc: a cubin each and PTX for the lowest (80,90 or sm_80 sm_90; none: sources only)"),
    Variable("OPSDK_POOL_MB", _whole(0, "MiB"), None, "OPSDK_NN_POOL_MB, else 256", "MiB of large "
             "kernel outputs kept for reuse (0: none)"),
    Variable("OPSDK_NN_POOL_MB", _whole(0, "MiB"), 256, "256", "the older name of OPSDK_POOL_MB, read "
             "when that is unset"),
    Variable("OPSDK_TEMPLATES_DIR", _text, None, "the templates opsdk ships", "templates for new-pack / "
             "new-op other than the ones shipped (for template authors)"),
    Variable("OPSDK_FORMULA_TIMEOUT", _seconds, 120.0, "120 s", "seconds `new-op --formula` may spend "
             "deriving a formula"),
    Variable("OPSDK_CHECK_MAX_MEMORY", byte_size, None, "a quarter of the machine's memory",
             "memory one sample of `opsdk check` may use (4G, 512M, 25%); beyond it the op fails"),
    Variable("OPSDK_CHECK_JOBS", process_count, None, "auto", "processes `opsdk check` runs ops in "
             "(auto: one per CPU, at most 4; 1: no fork)"),
    Variable("OPSDK_CUDA_SIM", _simulator, None, "off", "1: the cuda backend runs on the CPU CUDA "
             "simulator; auto: only where CuPy finds no GPU"),
    Variable("OPSDK_CUDA_SIM_DEVICES", _whole(1, "devices"), 1, "1", "how many GPUs the simulator "
             "shows"),
    Variable("OPSDK_CUDA_SIM_SMS", _whole(1, "multiprocessors"), 2, "2", "multiprocessors each "
             "simulated GPU reports"),
    Variable("OPSDK_CUDA_SIM_TIMEOUT", _seconds, 120.0, "120 s", "seconds a simulated launch may run "
             "before it is reported as hanging"),
    Variable("OPSDK_CUDA_SIM_RACECHECK", _zero_or_one, True, "1", "0 turns the simulator's race "
             "detection off"),
    Variable("OPSDK_CUDA_SIM_STACK_KB", _whole(16, "KiB"), 128, "128", "KiB of stack per simulated "
             "thread"),
    Variable("OPSDK_CUDA_SIM_INSTRUMENT", _zero_or_one, True, "1", "0 compiles simulated kernels "
             "without the memory-access checks"),
    Variable("OPSDK_CUDA_SIM_SCHEDULE", _schedule, (0, 0), "in-order", "the order simulated threads "
             "and blocks run in: in-order, reverse, shuffle[:SEED]", strict=True),
    Variable("OPSDK_CUDA_SIM_STRICT", _zero_or_one, False, "0", "1: the simulator also reports warp "
             "collectives whose mask names lanes that have exited (undefined on Volta and later)"),
)}

_parsed = {}  # (name, raw) -> value, so a hot path pays a dict lookup
_warned = set()


def problem(name, raw):
    """The one-line message for ``raw``, a value of ``name`` that cannot be used, or None."""
    try:
        VARIABLES[name].parse(raw)
    except ValueError as error:
        return f"{name}={raw!r} is not valid; expected: {error}"
    return None


def ignored(name, raw):
    """What a lenient variable's bad value gets: the problem, and what is used instead."""
    return f"{problem(name, raw)}; it is ignored ({name} unset means {VARIABLES[name].unset})"


def setting(name, environ=None):
    """The value of opsdk's variable ``name``: parsed, or its default when unset.

    Raises:
        ValueError: a strict variable (``Variable.strict``) holds a value it cannot use; the
            caller raises its own error with the message.

    A lenient variable with a bad value warns once (``OpsdkWarning``) and gives the default.
    """
    raw = (os.environ if environ is None else environ).get(name)
    variable = VARIABLES[name]
    if raw is None:
        return variable.default
    try:
        return _parsed[name, raw]
    except KeyError:
        pass
    try:
        value = variable.parse(raw)
    except ValueError:
        if variable.strict:
            raise ValueError(problem(name, raw)) from None
        value = variable.default
        if (name, raw) not in _warned:
            import warnings

            from .errors import OpsdkWarning

            _warned.add((name, raw))
            warnings.warn(OpsdkWarning(f"{ignored(name, raw)}; fix: unset {name}, or correct it"),
                          stacklevel=2)
    _parsed[name, raw] = value
    return value


def problems(environ=None):
    """``[(name, message, strict, fix)]``, in name order: every opsdk variable set to a value it
    cannot use, and every ``OPSDK_*`` name close to one opsdk reads (a typo; never strict)."""
    environ = os.environ if environ is None else environ
    found = []
    for name in sorted(n for n in environ if n.startswith("OPSDK_")):
        raw = environ[name]
        variable = VARIABLES.get(name)
        if variable is not None:
            if problem(name, raw) is not None:
                found.append((name, problem(name, raw) if variable.strict else ignored(name, raw),
                              variable.strict, f"unset {name}, or correct it"))
            continue
        import difflib

        close = difflib.get_close_matches(name, VARIABLES, n=1, cutoff=0.85)
        if close:
            found.append((name, f"{name} is not a variable opsdk reads (did you mean {close[0]}?); it "
                                f"has no effect", False, f"rename it {close[0]}"))
    return found
