"""Shape-only layers (Flatten, Unflatten, Identity) and CosineSimilarity."""
from ..functional.shape import flatten, reshape
from .functional.norm import cosine_similarity
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


class Unflatten(Layer):
    """Split axis into the dims of shape (the inverse of Flatten)."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self._axis, self._shape = axis, list(shape)

    def forward(self, x):
        axis = self._axis % x.ndim
        return reshape(x, list(x.shape[:axis]) + self._shape + list(x.shape[axis + 1:]))

    def extra_repr(self):
        return f"axis={self._axis}, shape={self._shape}"


class CosineSimilarity(Layer):
    """``F.cosine_similarity`` along axis."""

    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return cosine_similarity(x1, x2, self._axis, self._eps)
