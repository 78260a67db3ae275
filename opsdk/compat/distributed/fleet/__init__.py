"""paddle.distributed.fleet's single-process part: recompute (activation checkpointing)."""
from . import recompute, utils

__all__ = ["recompute", "utils"]
