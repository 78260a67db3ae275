"""Checks of one TensorSpec's fields; each problem is worded for the pack author."""
import math
from numbers import Integral, Real

import numpy as np

from .specs import TensorSpec
from .tolerances import dtype_name


def _is_int(value):
    return isinstance(value, Integral) and not isinstance(value, bool)


def _is_real(value):
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def free_length(domain, avoid, min_distance):
    """Length of the part of ``domain`` lying at least ``min_distance`` from every avoid point."""
    low, high = domain
    covered = sorted((max(low, a - min_distance), min(high, a + min_distance)) for a in avoid)
    free, cursor = 0.0, low
    for start, end in covered:
        if end <= cursor:
            continue
        free += max(0.0, start - cursor)
        cursor = max(cursor, end)
    return free + max(0.0, high - cursor)


def spec_problems(spec):
    """Everything wrong with ``spec``, as ``(field, what is wrong)`` pairs; empty when it is fine."""
    if not isinstance(spec, TensorSpec):
        return [("", f"must be a TensorSpec; got: {type(spec).__name__}")]
    problems = []
    if not isinstance(spec.shape, tuple) or not all(_is_int(d) and d >= 0 for d in spec.shape):
        problems.append(("shape", f"must be a tuple of non-negative ints; got: {spec.shape!r}"))
    for flag in ("integer", "requires_grad"):
        if not isinstance(getattr(spec, flag), bool):
            problems.append((flag, f"must be True or False; got: {getattr(spec, flag)!r}"))
    problems += _dtype_problems(spec)
    problems += _integer_problems(spec) if spec.integer is True else _float_problems(spec)
    return problems


def _dtype_problems(spec):
    if spec.dtype is None:
        return []
    try:
        kind = np.dtype(dtype_name(spec.dtype)).kind
    except (TypeError, ValueError):
        return [("dtype", f"is not a dtype; expected: a name such as 'float64' or 'int64'; "
                          f"got: {spec.dtype!r}")]
    if spec.integer is True and kind not in "iu":
        return [("dtype", f"of an integer spec must be an integer dtype; got: {spec.dtype!r}")]
    if spec.integer is not True and kind != "f":
        return [("dtype", f"of a float spec must be a float dtype (set integer=True for indices); "
                          f"got: {spec.dtype!r}")]
    return []


def _integer_problems(spec):
    low = 0 if spec.low is None else spec.low
    if not _is_int(spec.high):
        return [("high", f"is required for an integer spec: one past the largest value drawn; "
                         f"got: {spec.high!r}")]
    if not _is_int(low):
        return [("low", f"must be an int; got: {spec.low!r}")]
    if low >= spec.high:
        return [("high", f"must be greater than low ({low}); got: {spec.high}")]
    return []


def _float_problems(spec):
    domain = spec.domain
    if not (isinstance(domain, tuple) and len(domain) == 2 and all(_is_real(v) for v in domain)
            and domain[0] < domain[1]):
        return [("domain", f"must be (low, high) with finite low < high; got: {domain!r}")]
    if not isinstance(spec.avoid, tuple) or not all(_is_real(a) for a in spec.avoid):
        return [("avoid", f"must be a tuple of finite numbers; got: {spec.avoid!r}")]
    if not _is_real(spec.min_distance) or spec.min_distance < 0:
        return [("min_distance", f"must be a finite number >= 0; got: {spec.min_distance!r}")]
    if free_length(domain, spec.avoid, spec.min_distance) <= 0:
        return [("avoid", f"points with min_distance {spec.min_distance} cover the whole domain "
                          f"{domain}; expected: room left to draw values; got: avoid={spec.avoid}")]
    return []
