"""What an op is verified on: a TensorSpec per tensor argument, or Samples (one per call)."""
from dataclasses import dataclass, field


def _as_tuple(value):
    """Lists become tuples and a bare scalar a 1-tuple, so specs stay hashable and easy to write."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (value,)
    return value


@dataclass(frozen=True)
class TensorSpec:
    """One tensor argument of an op, as the verifier should draw it.

    Float specs are drawn uniformly from ``domain`` and redrawn wherever a value lands within
    ``min_distance`` of an ``avoid`` point (kinks, poles), so finite differences never straddle
    one. Integer specs (``integer=True``) are index or label tensors drawn from ``[low, high)``
    and are never differentiated, whatever ``requires_grad`` says. Registration checks every
    field and reports problems in the pack's terms.

    Args:
        shape: the tensor's shape, e.g. ``(3, 4)``; ``()`` is a scalar tensor.
        dtype: None draws the dtype under verification; a name fixes it (``"int64"``).
        domain: ``(low, high)`` for float values.
        avoid: points the values keep away from.
        min_distance: how far every value stays from each ``avoid`` point.
        requires_grad: whether gradients with respect to this input are checked.
        integer: draw integers (indices, labels) instead of floats.
        low: smallest integer drawn (integer specs; default 0).
        high: one past the largest integer drawn (integer specs; required there).

    Example:
        >>> TensorSpec(shape=(3, 4), domain=(-3.0, 3.0), avoid=(0.0,)).differentiable
        True
        >>> TensorSpec(shape=(3,), integer=True, high=4).differentiable
        False
    """

    shape: tuple
    dtype: object = None
    domain: tuple = (-2.0, 2.0)
    avoid: tuple = ()
    min_distance: float = 1e-3
    requires_grad: bool = True
    integer: bool = False
    low: int = None
    high: int = None

    def __post_init__(self):
        for name in ("shape", "domain", "avoid"):
            object.__setattr__(self, name, _as_tuple(getattr(self, name)))

    @property
    def differentiable(self):
        """Whether the verifier differentiates with respect to this input."""
        return bool(self.requires_grad) and not self.integer


@dataclass
class Sample:
    """One verification call of an op: ``op(*args, **kwargs)``.

    Example:
        >>> Sample(args=(1.0,), kwargs={"beta": 2.0}).kwargs
        {'beta': 2.0}
    """

    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __post_init__(self):
        if isinstance(self.args, list):
            self.args = tuple(self.args)
