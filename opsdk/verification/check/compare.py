"""Comparing arrays the way every check does, NaN-aware: within a tolerance, or bit for bit."""
from dataclasses import dataclass

import numpy as np


@dataclass
class Comparison:
    """How far ``actual`` is from ``expected``: ``worst`` absolute error, at ``index``.

    ``loosened`` is True when some element passed only thanks to a tolerance the op declared.
    """

    ok: bool
    worst: float
    index: tuple = None
    actual: float = None
    expected: float = None
    message: str = ""
    loosened: bool = False
    ratio: float = None  # the largest error / allowed error (1 is at the tolerance)


def as_numpy(value):
    """A NumPy float64 array from a Tensor, NumPy or CuPy array."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    elif hasattr(value, "get"):
        value = value.get()
    return np.asarray(value, dtype=np.float64)


def _mismatch_kinds(a, e):
    """Masks of NaN/inf disagreements: (where only one side is NaN, where infinities differ)."""
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    one_nan = nan_a != nan_e
    inf_differs = ~nan_a & ~nan_e & (np.isinf(a) | np.isinf(e)) & (a != e)
    return one_nan, inf_differs


def _errors(a, e):
    """|a - e| with 0 where both agree on NaN or on the same infinity, inf where they disagree."""
    one_nan, inf_differs = _mismatch_kinds(a, e)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - e)
    same_special = (np.isnan(a) & np.isnan(e)) | (np.isinf(a) & (a == e))
    diff = np.where(same_special, 0.0, diff)
    return np.where(one_nan | inf_differs, np.inf, diff)


def describe_value(value):
    """A number as reports show it: 8 significant digits, or nan/inf."""
    return f"{value:.8g}" if np.isfinite(value) else str(value)


def worst_element(a, e, diff, bad):
    """(index, actual, expected) of the worst failing element (NaN/inf disagreements first)."""
    score = np.where(bad, diff, -1.0)
    flat = int(np.argmax(score))
    index = tuple(int(i) for i in np.unravel_index(flat, a.shape))
    return index, float(a.flat[flat]), float(e.flat[flat])


def _arrays(actual, expected):
    """(a, e, None) as float64 arrays, or (a, e, the Comparison) when shapes differ or are empty."""
    a, e = as_numpy(actual), as_numpy(expected)
    if a.shape != e.shape:
        return a, e, Comparison(False, float("inf"), message=f"shape differs; expected: "
                                                             f"{list(e.shape)}; got: {list(a.shape)}")
    if a.size == 0:
        return a, e, Comparison(True, 0.0)
    return a, e, None


def compare(actual, expected, atol, rtol):
    """Compare two arrays (or Tensors).

    Args:
        actual: what the backend under test gave.
        expected: the reference.
        atol, rtol: an element passes when ``|actual - expected| <= atol + rtol * |expected|``
            (NaN only matches NaN, an infinity only the same infinity).

    Returns:
        Comparison; ``message`` names the worst element when the arrays differ.

    Example::

        compare(np.ones(3), np.ones(3) * 1.1, 1e-5, 1e-3).ok     # False
    """
    a, e, early = _arrays(actual, expected)
    if early is not None:
        return early
    diff = _errors(a, e)
    allowed = atol + rtol * np.abs(np.nan_to_num(e, posinf=0.0, neginf=0.0))
    bad = ~(diff <= allowed)
    return _result(a, e, diff, bad, f"beyond atol={atol:g} rtol={rtol:g}", ratio=_ratio(diff, allowed))


def _ratio(diff, allowed):
    """The largest diff / allowed (inf where something is allowed nothing but differs)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a huge diff is inf, as meant
        r = np.where(diff == 0, 0.0, diff / allowed)
    r = np.where(np.isnan(r), np.inf, r)
    return float(np.max(r)) if r.size else 0.0


def _result(a, e, diff, bad, beyond, loosened=False, unit=None, ratio=None):
    worst = float(np.max(diff))
    if not bad.any():
        index = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff)), a.shape))
        return Comparison(True, worst, index, loosened=loosened, ratio=ratio)
    index, got, want = worst_element(a, e, diff, bad)
    error = diff[index]
    if np.isnan(got) != np.isnan(want):
        what = (f"got nan where {describe_value(want)} was expected" if np.isnan(got)
                else f"expected nan, got {describe_value(got)}")
    elif np.isinf(error):
        what = f"expected {describe_value(want)}, got {describe_value(got)}"
    else:
        what = (f"expected {describe_value(want)}, got {describe_value(got)} "
                f"(abs error {error:.3g}{unit(index) if unit else ''})")
    n_special = int((bad & np.isinf(diff)).sum())
    special = f", {n_special} of them NaN or inf on one side only" if n_special else ""
    message = (f"{int(bad.sum())} of {a.size} elements differ {beyond}{special}; worst at "
               f"{list(index)}: {what}")
    return Comparison(False, worst, index, got, want, message, loosened, ratio)


def bitwise(actual, expected):
    """Compare bit for bit (NaN matches NaN): what deterministic backends owe a repeated call."""
    a, e, early = _arrays(actual, expected)
    if early is not None:
        return early
    diff = _errors(a, e)
    bad = ~((a == e) | (np.isnan(a) & np.isnan(e)))
    return _result(a, e, diff, bad, "(not bit for bit)")


def within(actual, reference, allowed, declared=None, unit=None, beyond=""):
    """Compare against per-element ``allowed`` errors; ``declared`` (atol, rtol) may loosen them.

    Returns a Comparison whose ``loosened`` is True when an element passed only thanks to the
    declared tolerance.
    """
    a, e, early = _arrays(actual, reference)
    if early is not None:
        return early
    diff = _errors(a, e)
    bad = ~(diff <= allowed)
    ratio = _ratio(diff, allowed)
    loosened = False
    if declared is not None and bad.any():
        atol, rtol = declared
        loose = (atol or 0.0) + (rtol or 0.0) * np.abs(np.nan_to_num(e, posinf=0.0, neginf=0.0))
        rescued = bad & (diff <= loose)
        loosened = bool(rescued.any())
        bad &= ~rescued
    return _result(a, e, diff, bad, beyond, loosened, unit, ratio)
