"""Checks of the registration options that steer verification: ``reference``, ``attr_ranges``,
``sizes``, and what verifying costs and may tolerate: ``max_size``, ``cost``, ``ties``,
``accumulation``."""
import inspect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real


def _real(value):
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def reference_problems(reference, n_inputs, attrs, from_specs):
    """What is wrong with ``reference=`` (the op's maths in core opsdk ops); empty when fine."""
    if reference is None:
        return []
    if not callable(reference) or isinstance(reference, type):
        return [f"reference must be a function taking the op's arguments (without ctx) and "
                f"returning its outputs, written with core opsdk ops; got: "
                f"{type(reference).__name__} {reference!r:.60}"]
    if not from_specs:
        return []
    try:
        inspect.signature(reference).bind(*range(n_inputs), **attrs)
    except TypeError as error:
        return [f"reference{inspect.signature(reference)} cannot take the op's {n_inputs} "
                f"input(s) and attrs {sorted(attrs)}; expected: the forward's parameters "
                f"without ctx; got: {error}"]
    except ValueError:
        pass  # builtins without a readable signature are given the benefit of the doubt
    return []


def _forward_parameters(function):
    try:
        params = list(inspect.signature(function.forward).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params}


def attr_range_problems(ranges, function, attrs):
    """What is wrong with ``attr_ranges={name: (low, high)}``; empty when fine."""
    if ranges is None:
        return []
    if not isinstance(ranges, Mapping):
        return [f"attr_ranges must be a dict {{attribute: (low, high)}}; got: "
                f"{type(ranges).__name__} {ranges!r:.60}"]
    known = _forward_parameters(function)
    problems = []
    for name, bounds in ranges.items():
        if not isinstance(name, str) or (known is not None and name not in known):
            where = f"{function.__name__}.forward" if known is not None else "the op"
            problems.append(f"attr_ranges names '{name}', which is not a parameter of {where}; "
                            f"expected: one of {sorted(known or attrs)}")
            continue
        if not (isinstance(bounds, (tuple, list)) and len(bounds) == 2
                and all(_real(b) for b in bounds) and bounds[0] <= bounds[1]):
            problems.append(f"attr_ranges['{name}'] must be (low, high) with finite low <= high; "
                            f"got: {bounds!r}")
            continue
        value = attrs.get(name)
        if _real(value) and not bounds[0] <= value <= bounds[1]:
            problems.append(f"attrs['{name}'] = {value} lies outside its declared range "
                            f"{tuple(bounds)}; expected: low <= value <= high")
    return problems


def size_problems(sizes):
    """What is wrong with ``sizes=`` (extra sizes derived for compiled backends); empty when fine."""
    if sizes is None:
        return []
    if not isinstance(sizes, (tuple, list)) or not all(
            isinstance(s, Integral) and not isinstance(s, bool) and s >= 1 for s in sizes):
        return [f"sizes must be a tuple of ints >= 1 (e.g. one above the kernel's parallel "
                f"threshold); got: {sizes!r:.60}"]
    return []


# register() options that say what verifying the op costs and what it may legitimately do
VERIFICATION_OPTIONS = ("max_size", "cost", "ties", "accumulation")
TIE_POLICIES = ("first", "last", "any")
ACCUMULATIONS = ("wide", "dtype")
_COST = re.compile(r"^\s*(?:(sequential)\s+)?n\s*(?:(log)\s*n|\^\s*([123]))?\s*$")


@dataclass(frozen=True)
class Cost:
    """How an op's work grows with a dimension's size n: ``n ** exponent`` (times ``log n``),
    in vectorised array code or (``sequential``) one Python-level step at a time."""

    exponent: int = 1
    log: bool = False
    sequential: bool = False

    def work(self, n):
        """Units of work at size ``n``."""
        return float(n) ** self.exponent * (math.log2(max(n, 2)) if self.log else 1.0)

    def __str__(self):
        power = "n log n" if self.log else "n" if self.exponent == 1 else f"n^{self.exponent}"
        return ("sequential " if self.sequential else "") + power


def parse_cost(text):
    """The Cost a ``cost=`` string declares (``"n"``, ``"n log n"``, ``"n^2"``, ``"n^3"``, each
    optionally ``"sequential ..."``), or None when it declares none; ValueError when unreadable.

    Example:
        >>> parse_cost("sequential n^2")
        Cost(exponent=2, log=False, sequential=True)
    """
    if text is None:
        return None
    match = _COST.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(text)
    return Cost(int(match[3] or 1), bool(match[2]), bool(match[1]))


def verification_problems(options):
    """What is wrong with ``max_size=``, ``cost=``, ``ties=`` and ``accumulation=``."""
    problems = []
    max_size = options.get("max_size")
    if max_size is not None and not (isinstance(max_size, Integral)
                                     and not isinstance(max_size, bool) and max_size >= 1):
        problems.append(f"max_size must be an int >= 1 (the largest size a derived dimension "
                        f"may take); got: {max_size!r:.60}")
    try:
        parse_cost(options.get("cost"))
    except ValueError:
        problems.append(f"cost must say how the op's work grows with a dimension's size n: "
                        f"'n', 'n log n', 'n^2' or 'n^3', optionally 'sequential ...' for a "
                        f"Python-level loop (e.g. 'sequential n^2' for a dynamic programme); "
                        f"got: {options.get('cost')!r:.60}")
    for name, allowed in (("ties", TIE_POLICIES), ("accumulation", ACCUMULATIONS)):
        value = options.get(name)
        if value is not None and value not in allowed:
            problems.append(f"{name} must be one of {', '.join(repr(a) for a in allowed)}; "
                            f"got: {value!r:.60}")
    return problems


def verification_fields(fail, options):
    """The OpInfo fields of ``max_size=``, ``cost=``, ``ties=``, ``accumulation=`` (``fail``
    raises the registration error of a problem)."""
    for problem in verification_problems(options):
        fail(problem)
    max_size = options.get("max_size")
    return dict(max_size=None if max_size is None else int(max_size),
                cost=parse_cost(options.get("cost")),
                ties=options.get("ties") or TIE_POLICIES[0],
                accumulation=options.get("accumulation") or ACCUMULATIONS[0])
