"""paddle.distributed.fleet.utils: recompute, as Paddle code imports it."""
from ....nn.recompute import recompute

__all__ = ["recompute"]
