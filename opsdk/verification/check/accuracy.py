"""How far a result may be from the float64 reference: units of the dtype's epsilon.

An element of a result computed in ``dtype`` may differ from the float64 reference (the python
kernel run on the same values cast to float64) by

    allowed = FACTOR * eps(dtype) * sqrt(length / 16) * (|reference| + rms(reference))
              + EMPIRICAL * |python in dtype - reference|
              + FLOOR * eps(dtype) * scale

``length`` is the largest input's element count, a bound on any reduction's length (rounding
errors of a sum grow like its square root); the rms term keeps elements that cancel to nearly 0
from demanding more digits than their inputs had; the empirical term is the python kernel's own
error in ``dtype``, so an op whose maths loses digits in float32 is held to what float32 can do;
``scale`` is the largest rms among the inputs, outputs and gradients of the call, a floor for results
that cancel to nearly 0 as a whole (the gradient of a normalisation over one element is 0 up to
the rounding of terms as large as the others). Where a comparison fails, it is repeated with
each element's magnitude raised to its measured conditioning (conditioning.py): an
ill-conditioned op turns every rounding into an error that large, on any correct backend.
A correct C kernel stays within a few epsilons; a constant wrong in its 4th digit, or a float32
accumulator where float64 was due, does not.
"""
import numpy as np

from .compare import as_numpy, within

FACTOR = 32
EMPIRICAL = 4
FLOOR = 16


# a reduction this short adds no more rounding than the elementwise work around it
FREE_LENGTH = 16


def growth(length):
    """How the allowed error grows with a reduction of ``length`` elements: like the rounding of
    a sum, with its square root (beyond the first FREE_LENGTH elements)."""
    return float(np.sqrt(max(1.0, int(length) / FREE_LENGTH)))


def magnitude_of(reference):
    """Per-element magnitude an error is measured against: |reference| + rms(reference)."""
    ref = as_numpy(reference)
    finite = np.abs(ref[np.isfinite(ref)])
    rms = float(np.sqrt(np.mean(finite * finite))) if finite.size else 0.0
    return np.where(np.isfinite(ref), np.abs(ref), 0.0) + rms


def call_scale(arrays):
    """The largest rms among arrays (None entries and non-finite values left out)."""
    best = 0.0
    for a in arrays:
        if a is None or np.asarray(a).dtype.kind not in "fc":
            continue
        v = np.abs(as_numpy(a))
        v = v[np.isfinite(v)]
        if v.size:
            best = max(best, float(np.sqrt(np.mean(v * v))))
    return best


def allowed_error(reference, dtype, length, empirical=None, factor=FACTOR, scale=0.0,
                  floor=FLOOR, conditioning=None):
    """Per-element allowed |result - reference| (see the module docstring)."""
    ref = as_numpy(reference)
    eps = float(np.finfo(dtype).eps)
    magnitude = magnitude_of(ref)
    if conditioning is not None:
        magnitude = np.maximum(magnitude, as_numpy(conditioning))
    allowed = factor * eps * growth(length) * magnitude + floor * eps * scale
    if empirical is not None:
        emp = np.abs(as_numpy(empirical) - ref)
        allowed = allowed + EMPIRICAL * np.where(np.isfinite(emp), emp, 0.0)
    return allowed


def against_reference(actual, reference, dtype, length, empirical=None, declared=None,
                      factor=FACTOR, what="the float64 python run", scale=0.0, floor=FLOOR,
                      conditioning=None):
    """Compare ``actual`` (computed in ``dtype``) with the float64 ``reference``.

    Args:
        actual: the result under test.
        reference: the float64 reference result.
        dtype: the dtype ``actual`` was computed in (its epsilon sets the unit).
        length: a bound on the reduction lengths (the largest input's size).
        empirical: the python kernel's result in ``dtype``, whose own error widens the bound.
        declared: the op's declared (atol, rtol) for the dtype, which may loosen the bound.
        factor: epsilons allowed per unit of magnitude and of sqrt(length).
        what: how the message names the reference.
        scale: the call's scale (``call_scale``), times ``floor`` epsilons: an absolute floor.
        conditioning: per-element conditioning (conditioning.py), raising the magnitude.

    Returns:
        Comparison (``loosened`` set when the declared tolerance was needed).
    """
    a, ref = as_numpy(actual), as_numpy(reference)
    if a.shape != ref.shape:
        return within(a, ref, 0.0)
    allowed = allowed_error(ref, dtype, length, empirical, factor, scale, floor, conditioning)
    info = np.finfo(dtype)
    # a finite reference beyond the dtype's range is an overflow the result may show as inf
    overflow = np.isfinite(ref) & (np.abs(ref) > float(info.max)) & np.isinf(a) \
        & (np.sign(a) == np.sign(ref))
    ref_cmp = np.where(overflow, a, ref)
    eps = float(info.eps)
    magnitude = magnitude_of(ref)

    def unit(index):
        scale = float(magnitude[index]) if magnitude.ndim else float(magnitude)
        error = abs(float(a[index]) - float(ref_cmp[index]))
        return f", {error / (eps * scale):.3g} eps of its magnitude" if scale > 0 else ""

    beyond = (f"from {what} beyond {factor * growth(length):.3g} eps({np.dtype(dtype).name}) of "
              "their magnitude" + (" or conditioning" if conditioning is not None else ""))
    return within(a, ref_cmp, allowed, declared, unit, beyond)


def reduction_length(sample):
    """The largest element count among the sample's tensors (a bound on any reduction's length)."""
    sizes = [slot.values.size for _, slot in sample.slots()]
    return max(sizes) if sizes else 1
