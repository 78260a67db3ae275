"""paddle.static: only ``InputSpec`` (used by ``jit.to_static(input_spec=...)``); opsdk has no
static-graph mode, so programs, executors and ``static.data`` are not provided."""
from ..dtypes import convert_dtype


class InputSpec:
    """The description of an input: shape (None for a free dimension), dtype, name.

    Example:
        >>> spec = opsdk.static.InputSpec([None, 10], "float32", name="x")
        >>> spec.shape
        (-1, 10)
    """

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = tuple(-1 if s is None else int(s) for s in shape)
        self.dtype = convert_dtype(dtype, op="InputSpec")
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name})"
