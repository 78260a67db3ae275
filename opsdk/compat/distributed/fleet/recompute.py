"""paddle.distributed.fleet.recompute: recompute and recompute_sequential."""
from ....nn.recompute import recompute, recompute_sequential

__all__ = ["recompute", "recompute_sequential"]
