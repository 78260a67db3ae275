"""The padding layers (Pad1D/2D/3D and the Constant, Zero, Reflection, Replication and Circular
ones, with their ...1d/2d/3d aliases): F.pad with the amounts, mode and layout fixed at
construction, as Paddle's."""
from ..tensor import Tensor
from .functional.padding import pad
from .layer import Layer


class _PadNd(Layer):
    _dims = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__()
        # an int pads every side of every spatial axis; a list or Tensor is kept as given
        self.padding = padding if isinstance(padding, (Tensor, list, tuple)) else \
            [padding] * (2 * self._dims)
        self._mode, self.value, self._data_format, self._name = mode, value, data_format, name

    def forward(self, x):
        return pad(x, self.padding, self._mode, self.value, self._data_format)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, "
                f"data_format={self._data_format}{name}")


class Pad1D(_PadNd):
    """F.pad over the L axis of [N, C, L] (or NLC): padding is an int or [left, right].

    Example:
        >>> opsdk.nn.Pad1D([1, 2], mode="replicate")(opsdk.ones([1, 1, 2])).shape
        paddle.Size([1, 1, 5])
    """

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadNd):
    """F.pad over H and W of [N, C, H, W] (or NHWC): padding is an int or [left, right, top,
    bottom]."""

    _dims = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_PadNd):
    """F.pad over D, H and W of [N, C, D, H, W] (or NDHWC): padding is an int or [left, right,
    top, bottom, front, back]."""

    _dims = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


def _fixed_mode(base, mode, prefix, takes_value):
    """A PadND subclass with its mode fixed (ConstantPadND also takes the value)."""
    fmt = {Pad1D: "NCL", Pad2D: "NCHW", Pad3D: "NCDHW"}[base]

    if takes_value:
        def __init__(self, padding, value, data_format=fmt, name=None):
            base.__init__(self, padding, mode, value, data_format, name)
    else:
        def __init__(self, padding, data_format=fmt, name=None):
            base.__init__(self, padding, mode, 0.0, data_format, name)
    name = f"{prefix}Pad{base._dims}D"
    doc = f"{base.__name__} in mode {mode!r}" + (" (with its value)." if takes_value else ".")
    return type(name, (base,), {"__init__": __init__, "__doc__": doc, "__module__": __name__,
                                "__qualname__": name})


_KINDS = (("Constant", "constant", True), ("Zero", "constant", False),
          ("Reflection", "reflect", False), ("Replication", "replicate", False),
          ("Circular", "circular", False))
_LAYERS = {f"{prefix}Pad{base._dims}D": _fixed_mode(base, mode, prefix, value)
           for base in (Pad1D, Pad2D, Pad3D) for prefix, mode, value in _KINDS}
globals().update(_LAYERS)
# Paddle's lower-case aliases (ZeroPad2d, ...)
_ALIASES = {name[:-1] + "d": cls for name, cls in _LAYERS.items()}
globals().update(_ALIASES)

__all__ = ["Pad1D", "Pad2D", "Pad3D", *_LAYERS, *_ALIASES]
