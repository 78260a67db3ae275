"""opsdk.distributed: the names Paddle autograd code imports from paddle.distributed.

opsdk never grows a distributed runtime of its own (scale-out is the frameworks': torch DDP,
jax sharding, Paddle fleet through ``opsdk.interop.paddle``). What lives here runs in one
process: activation checkpointing (``fleet.utils.recompute``) and the single-process answers
of ``get_rank`` / ``get_world_size`` / ``ParallelEnv``. Collective communication raises
UnsupportedError naming the way to get it.
"""
from . import fleet
from .env import ParallelEnv, get_rank, get_world_size, is_initialized
from .unsupported import (all_gather, all_reduce, barrier, broadcast, init_parallel_env, reduce,
                          spawn)

__all__ = ["fleet", "ParallelEnv", "get_rank", "get_world_size", "is_initialized",
           "init_parallel_env", "all_reduce", "all_gather", "broadcast", "reduce", "barrier",
           "spawn"]
