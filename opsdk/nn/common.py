"""Shape-only layers: Flatten and Identity."""
from ..functional.shape import flatten
from .layer import Layer


class Flatten(Layer):
    """Merge the axes start_axis..stop_axis into one (from axis 1 on, by default)."""

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self._start, self._stop = start_axis, stop_axis

    def forward(self, x):
        return flatten(x, self._start, self._stop)

    def extra_repr(self):
        return f"start_axis={self._start}, stop_axis={self._stop}"


class Identity(Layer):
    """Return the input unchanged (construction arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x
