"""nn.PixelShuffle, nn.PixelUnshuffle, nn.ChannelShuffle: layers over
opsdk.nn.functional.vision."""
from ..errors import OpArgumentError
from .functional import vision
from .layer import Layer


class _Rearrange(Layer):
    """A layer applying one rearrangement with the factor and data_format given."""

    _fn, _arg = None, None

    def __init__(self, factor, data_format="NCHW", name=None):
        super().__init__()
        self._factor, self._data_format, self._name = factor, data_format, name
        vision._factor(factor, type(self).__name__, self._arg)
        if data_format not in ("NCHW", "NHWC"):
            raise OpArgumentError(f"{type(self).__name__}: data_format must be 'NCHW' or "
                                  f"'NHWC'; got: {data_format!r}")

    def forward(self, x):
        return type(self)._fn(x, self._factor, self._data_format)

    def extra_repr(self):
        name = f", name={self._name}" if self._name else ""
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"{self._arg}={self._factor}{fmt}{name}"


class PixelShuffle(_Rearrange):
    """``F.pixel_shuffle``: [N, C r^2, H, W] -> [N, C, H r, W r]."""
    _fn, _arg = staticmethod(vision.pixel_shuffle), "upscale_factor"

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__(upscale_factor, data_format, name)


class PixelUnshuffle(_Rearrange):
    """``F.pixel_unshuffle``: [N, C, H r, W r] -> [N, C r^2, H, W]."""
    _fn, _arg = staticmethod(vision.pixel_unshuffle), "downscale_factor"

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__(downscale_factor, data_format, name)


class ChannelShuffle(_Rearrange):
    """``F.channel_shuffle``: interleave `groups` runs of channels."""
    _fn, _arg = staticmethod(vision.channel_shuffle), "groups"

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__(groups, data_format, name)
