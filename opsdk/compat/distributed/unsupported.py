"""Collective communication: not provided by opsdk; each name raises UnsupportedError."""
from ...errors import UnsupportedError

_WHY = ("opsdk has no distributed runtime of its own; run opsdk ops inside Paddle fleet, "
        "torch DDP or jax sharding through opsdk.interop (see docs/paddle.md)")


def _unsupported(name):
    def call(*args, **kwargs):
        raise UnsupportedError(f"paddle.distributed.{name}: {_WHY}")
    call.__name__ = name
    call.__doc__ = f"Not supported: raises UnsupportedError ({_WHY})."
    return call


init_parallel_env = _unsupported("init_parallel_env")
all_reduce = _unsupported("all_reduce")
all_gather = _unsupported("all_gather")
broadcast = _unsupported("broadcast")
reduce = _unsupported("reduce")
barrier = _unsupported("barrier")
spawn = _unsupported("spawn")
