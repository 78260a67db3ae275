"""The inputs a check runs on: the op's own samples plus derived ones, rebuilt fresh for every call."""
import inspect
import zlib
from dataclasses import dataclass

import numpy as np

from ..registry.tolerances import VERIFIABLE_DTYPES

CONTIGUOUS = "contiguous"
STRIDED = "strided"


@dataclass(frozen=True)
class TensorSlot:
    """A tensor argument of a sample: its values (CPU, contiguous), and how to build it."""

    values: np.ndarray
    differentiable: bool
    layout: str = CONTIGUOUS

    @property
    def shape(self):
        return list(self.values.shape)


@dataclass(frozen=True)
class CaseSample:
    """One call of an op to verify: positional and keyword arguments, tensors as TensorSlots.

    ``make()`` builds fresh Tensors on every call, so checks never share gradients or hooks.
    """

    label: str
    args: tuple
    kwargs: dict
    seed: int

    @property
    def tensor_positions(self):
        """Positions of the positional Tensor arguments (the ones the op differentiates)."""
        return [i for i, a in enumerate(self.args) if isinstance(a, TensorSlot)]

    @property
    def diff_positions(self):
        """Positions of the positional Tensor arguments that are verified for gradients."""
        return [i for i, a in enumerate(self.args) if isinstance(a, TensorSlot) and a.differentiable]

    def make(self, place=None, requires=None):
        """Fresh ``(args, kwargs)``; positions in ``requires`` (default: all differentiable) need grad."""
        requires = set(self.diff_positions if requires is None else requires)
        args = tuple(_build(a, place, i in requires) if isinstance(a, TensorSlot) else a
                     for i, a in enumerate(self.args))
        kwargs = {k: _build(v, place, False) if isinstance(v, TensorSlot) else v
                  for k, v in self.kwargs.items()}
        return args, kwargs

    def replace(self, label, positions):
        """A copy with the TensorSlots at ``positions`` replaced (``{position: TensorSlot}``)."""
        args = tuple(positions.get(i, a) for i, a in enumerate(self.args))
        return CaseSample(label, args, dict(self.kwargs), self.seed)

    def describe(self):
        """``x: float32[3, 4], y: float32[1, 4] (non-contiguous), beta=1.5``."""
        parts = [_describe(a) for a in self.args]
        parts += [f"{k}={_describe(v)}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


def _describe(value):
    if isinstance(value, TensorSlot):
        layout = " non-contiguous" if value.layout == STRIDED else ""
        return f"{value.values.dtype.name}{value.shape}{layout}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def strided(values, xp=np):
    """The same values in a non-contiguous array (every other element of a buffer twice as big)."""
    if values.ndim == 0:
        return values
    big = xp.empty(tuple(2 * s for s in values.shape), dtype=values.dtype)
    view = big[tuple(slice(None, None, 2) for _ in values.shape)]
    view[...] = values
    return view


def _build(slot, place, requires_grad):
    from ..tensor import Tensor, _wrap

    if slot.layout == CONTIGUOUS:
        return Tensor(slot.values, place=place, stop_gradient=not requires_grad)
    # Tensor() copies into a contiguous array, which would hide the layout under test
    values = slot.values
    xp = np
    if place is not None:
        from ..device import cupy_module, move_to, parse_place

        values, xp = move_to(values, parse_place(place)), cupy_module()
    tensor = _wrap(strided(values, xp))
    tensor.stop_gradient = not requires_grad
    return tensor


def sample_seed(seed, qualname, dtype):
    """A seed that depends on the run's seed, the op and the dtype (same samples in CLI and pytest)."""
    code = VERIFIABLE_DTYPES.index(dtype) if dtype in VERIFIABLE_DTYPES else 99
    return [int(seed), zlib.crc32(qualname.encode()), code]


def from_sample(sample, label, seed):
    """A CaseSample from an OpInfo Sample (Tensors become TensorSlots)."""
    from ..tensor import Tensor

    def convert(value):
        if not isinstance(value, Tensor):
            return value
        values = np.ascontiguousarray(value.numpy()).copy()
        return TensorSlot(values, differentiable=not value.stop_gradient and values.dtype.kind == "f")

    args = tuple(convert(a) for a in sample.args)
    kwargs = {k: convert(v) for k, v in sample.kwargs.items()}
    return CaseSample(label, args, kwargs, seed)


def argument_names(op, count):
    """Names of the op's first ``count`` forward arguments (after ctx), ``arg<i>`` where unknown."""
    try:
        params = list(inspect.signature(op.function.forward).parameters.values())[1:]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return [names[i] if i < len(names) else f"arg{i}" for i in range(count)]
