"""Checks of the registration options that steer verification: ``reference``, ``attr_ranges``, ``sizes``."""
import inspect
import math
from collections.abc import Mapping
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
