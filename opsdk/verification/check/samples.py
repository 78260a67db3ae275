"""The inputs a check runs on: the op's own samples plus derived ones, rebuilt fresh for every call."""
import copy
import functools
import inspect
import zlib
from dataclasses import dataclass, replace

import numpy as np

from ...packs.registry.tolerances import VERIFIABLE_DTYPES
from .layouts import CONTIGUOUS, STRIDED, arrange, describe_layout  # noqa: F401 (STRIDED re-exported)

# what a sample is for: the op's own, or derived from it (each check picks the kinds it runs on)
OWN = "own"
BROADCAST = "broadcast"
ATTRIBUTE = "attribute"
LAYOUT = "layout"
SIZE = "size"
PROBE = "probe"
BEYOND = "beyond"
REGIME = "regime"
TIE = "tie"
LONG = "long"


@dataclass(frozen=True)
class TensorSlot:
    """A tensor argument of a sample: its values (CPU, contiguous), and the layout to build it in."""

    values: np.ndarray
    differentiable: bool
    layout: str = CONTIGUOUS

    @property
    def shape(self):
        return list(self.values.shape)

    def with_values(self, values):
        """The same slot holding other values (same differentiability and layout)."""
        return TensorSlot(np.array(values, order="C"), self.differentiable, self.layout)


@dataclass(frozen=True)
class CaseSample:
    """One call of an op to verify: positional and keyword arguments, tensors as TensorSlots.

    ``make()`` builds fresh Tensors on every call, so checks never share gradients or hooks.
    ``kind`` says where the sample comes from (``own``, ``broadcast``, ``attribute``, ``layout``,
    ``size``, ``probe``, ``beyond``, ``regime``, ``tie``, ``long``); ``compiled`` is False for derived
    samples only the python backend runs; ``backends`` names the compiled backends a sample is
    for (None: every one; a size one above a constant of the C source only: ``("c",)``); ``related`` is another sample a check compares this
    one with (the short row of a long-row sample); ``lead`` marks the op's first sample, the
    one checked most thoroughly (whole Jacobians, every engine check); ``origin`` is the index
    of the op's own sample a sample is (derived from).
    """

    label: str
    args: tuple
    kwargs: dict
    seed: object
    kind: str = OWN
    compiled: bool = True
    related: object = None
    lead: bool = False
    origin: int = 0
    backends: tuple = None

    @property
    def tensor_positions(self):
        """Positions of the positional Tensor arguments (the ones the op differentiates)."""
        return [i for i, a in enumerate(self.args) if isinstance(a, TensorSlot)]

    @property
    def diff_positions(self):
        """Positions of the positional Tensor arguments that are verified for gradients."""
        return [i for i, a in enumerate(self.args) if isinstance(a, TensorSlot) and a.differentiable]

    def make(self, place=None, requires=None, dtype=None):
        """Fresh ``(args, kwargs)``; positions in ``requires`` (default: all differentiable) need grad.

        ``dtype`` casts every float tensor (``"float64"`` for the reference runs).
        """
        requires = set(self.diff_positions if requires is None else requires)
        args = tuple(_build(a, place, i in requires, dtype) if isinstance(a, TensorSlot)
                     else fresh_value(a) for i, a in enumerate(self.args))
        kwargs = {k: _build(v, place, False, dtype) if isinstance(v, TensorSlot)
                  else fresh_value(v) for k, v in self.kwargs.items()}
        return args, kwargs

    def replace(self, label, positions, kind=None, **changes):
        """A copy with the TensorSlots at ``positions`` replaced (``{position: TensorSlot}``)."""
        args = tuple(positions.get(i, a) for i, a in enumerate(self.args))
        return replace(self, label=label, args=args, kwargs=dict(self.kwargs),
                       kind=kind or self.kind, **changes)

    def slots(self):
        """``(key, TensorSlot)`` for every tensor argument: int positions, then keyword names."""
        found = [(i, a) for i, a in enumerate(self.args) if isinstance(a, TensorSlot)]
        return found + [(k, v) for k, v in self.kwargs.items() if isinstance(v, TensorSlot)]

    def with_slots(self, label, changed, kind=None, kwargs=None, **changes):
        """A copy with slots replaced by key (positions or keyword names) and kwargs updated."""
        args = tuple(changed.get(i, a) for i, a in enumerate(self.args))
        new_kwargs = {k: changed.get(k, v) for k, v in self.kwargs.items()}
        new_kwargs.update(kwargs or {})
        return replace(self, label=label, args=args, kwargs=new_kwargs, kind=kind or self.kind,
                       **changes)

    def describe(self):
        """``x: float32[3, 4], y: float32[1, 4] (transposed), beta=1.5``."""
        parts = [_describe(a) for a in self.args]
        parts += [f"{k}={_describe(v)}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


def _describe(value):
    if isinstance(value, TensorSlot):
        return f"{value.values.dtype.name}{value.shape}{describe_layout(value.layout)}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


MUTABLE = (list, dict, set, np.ndarray)


def fresh_value(value):
    """A copy of a mutable non-tensor argument (a list of axes), so a call that changes it in
    place changes neither the sample nor the next call; other values as they are."""
    return copy.deepcopy(value) if isinstance(value, MUTABLE) else value


def strided(values, xp=np):
    """The same values in a non-contiguous array (every other element of a buffer twice as big)."""
    return arrange(values, STRIDED, xp)


def _build(slot, place, requires_grad, dtype=None):
    from ...tensor import Tensor, _wrap

    values = slot.values
    if dtype is not None and values.dtype.kind == "f":
        values = values.astype(dtype)
    if slot.layout == CONTIGUOUS:
        return Tensor(values, place=place, stop_gradient=not requires_grad)
    # Tensor() copies into a contiguous array, which would hide the layout under test
    xp = np
    if place is not None:
        from ...device import cupy_module, move_to, parse_place

        values, xp = move_to(values, parse_place(place)), cupy_module()
    tensor = _wrap(arrange(values, slot.layout, xp))
    tensor.stop_gradient = not requires_grad
    return tensor


def sample_seed(seed, qualname, dtype):
    """A seed that depends on the run's seed, the op and the dtype (same samples in CLI and pytest)."""
    code = VERIFIABLE_DTYPES.index(dtype) if dtype in VERIFIABLE_DTYPES else 99
    return [int(seed), zlib.crc32(qualname.encode()), code]


def from_sample(sample, label, seed):
    """A CaseSample from an OpInfo Sample (Tensors become TensorSlots)."""
    from ...tensor import Tensor

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
    return parameter_names(op.function.forward, count)


def gradient_names(op, count):
    """Names of the incoming gradients of the op's backward (after ctx), ``grad<k>`` where unknown."""
    return parameter_names(op.function.backward, count, "grad")


def parameter_names(function, count, fallback="arg"):
    """Names of the first ``count`` parameters of ``function`` after ``ctx``."""
    try:
        return list(_parameter_names(function, count, fallback))
    except TypeError:  # an unhashable callable
        return _names_of(function, count, fallback)


@functools.lru_cache(maxsize=1024)
def _parameter_names(function, count, fallback):
    # reports ask for names on every sample: inspect.signature is slow
    return tuple(_names_of(function, count, fallback))


def _names_of(function, count, fallback):
    try:
        params = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), None)
    out = []
    for i in range(count):
        if i < len(names):
            out.append(names[i])
        elif star is not None:
            out.append(f"{star}[{i - len(names)}]")
        else:
            out.append(f"{fallback}{i}")
    return out


def slot_name(op, sample, key):
    """How reports name the tensor argument ``key`` (a position or a keyword)."""
    if isinstance(key, str):
        return key
    return argument_names(op, len(sample.args))[key]
