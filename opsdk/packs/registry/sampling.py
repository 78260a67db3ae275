"""Drawing verification inputs from TensorSpecs, and turning drawn arrays into opsdk Tensors."""
import numpy as np

from ...errors import SampleError
from .specs import Sample

# Each round redraws only the values still too close to an avoid point, so rounds get cheap
# fast; registration already refused specs whose avoid zones cover the whole domain.
_MAX_REDRAWS = 1000


def to_tensor(array, requires_grad=False, place=None):
    """Wrap an array as an opsdk Tensor: the one place verification samples become tensors."""
    from ...tensor import Tensor

    return Tensor(array, place=place, stop_gradient=not requires_grad)


def too_close(values, avoid, min_distance):
    """Mask of the values lying within ``min_distance`` of any ``avoid`` point."""
    if not avoid:
        return np.zeros(np.shape(values), dtype=bool)
    distance = np.abs(np.asarray(values, dtype=np.float64)[..., None] - np.asarray(avoid, np.float64))
    return (distance < min_distance).any(axis=-1)


def draw_array(spec, dtype, rng):
    """Draw one NumPy array for ``spec`` (in ``dtype``, the dtype under test, unless the spec fixes one)."""
    dtype = np.dtype(spec.dtype if spec.dtype is not None else ("int64" if spec.integer else dtype))
    if spec.integer:
        low = 0 if spec.low is None else spec.low
        return rng.integers(low, spec.high, size=spec.shape, dtype=dtype)
    low, high = spec.domain
    # values are checked after the cast: rounding to float16 can move one onto a kink
    values = np.asarray(rng.uniform(low, high, size=spec.shape)).astype(dtype)
    for _ in range(_MAX_REDRAWS):
        bad = too_close(values, spec.avoid, spec.min_distance)
        if not bad.any():
            return values
        values[bad] = rng.uniform(low, high, size=int(bad.sum())).astype(dtype)
    raise SampleError(f"could not draw {dtype.name} values in domain {spec.domain} at least "
                      f"{spec.min_distance} away from {spec.avoid}; expected: a domain with room "
                      f"outside the avoid zones; got: still too close after {_MAX_REDRAWS} redraws")


def sample_from_specs(inputs, attrs, dtype, rng, place=None):
    """One Sample: a tensor per TensorSpec (in order) and the attrs as keyword arguments."""
    args = tuple(to_tensor(draw_array(spec, dtype, rng), spec.differentiable, place) for spec in inputs)
    return Sample(args=args, kwargs=dict(attrs))


def tensors_in(sample, place=None):
    """The same Sample with NumPy array arguments wrapped as tensors (float ones differentiable)."""
    def convert(value):
        if isinstance(value, np.ndarray):
            return to_tensor(value, value.dtype.kind == "f", place)
        return value

    args = tuple(convert(a) for a in sample.args)
    kwargs = {k: convert(v) for k, v in sample.kwargs.items()}
    return Sample(args=args, kwargs=kwargs)
