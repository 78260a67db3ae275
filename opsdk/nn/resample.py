"""Upsample, UpsamplingNearest2D and UpsamplingBilinear2D: F.interpolate with its arguments
fixed at construction, as Paddle's layers (attributes and reprs included)."""
from .functional.resample import interpolate
from .layer import Layer


class Upsample(Layer):
    """F.interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format,
    recompute_scale_factor).

    Example:
        >>> opsdk.nn.Upsample(scale_factor=2)(opsdk.ones([1, 1, 2, 2])).shape
        paddle.Size([1, 1, 4, 4])
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode = align_corners, align_mode
        self.data_format, self.recompute_scale_factor = data_format, recompute_scale_factor
        self.name = name

    def forward(self, x):
        if self.data_format is None and x.ndim in (3, 4, 5):
            # Paddle's layer keeps the layout it inferred at its first call
            self.data_format = {3: "NCW", 4: "NCHW", 5: "NCDHW"}[x.ndim]
        return interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode,
                           align_corners=self.align_corners, align_mode=self.align_mode,
                           data_format=self.data_format,
                           recompute_scale_factor=self.recompute_scale_factor)

    def _main_repr(self):
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        return main, (f", name={self.name}" if self.name else "")

    def extra_repr(self):
        main, name = self._main_repr()
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}{name}")


class _Upsampling2D(Upsample):
    _mode, _align_corners = "nearest", False

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__([size, size] if isinstance(size, int) else size, scale_factor,
                         self._mode, self._align_corners, 0, data_format, None, name)

    def extra_repr(self):
        main, name = self._main_repr()
        return f"{main}, data_format={self.data_format}{name}"


class UpsamplingNearest2D(_Upsampling2D):
    """F.interpolate in mode 'nearest' of [N, C, H, W] (an int size means [size, size])."""


class UpsamplingBilinear2D(_Upsampling2D):
    """F.interpolate in mode 'bilinear' with align_corners=True, as Paddle's layer."""

    _mode, _align_corners = "bilinear", True


__all__ = ["Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D"]
