"""The single-process environment: rank 0 of a world of 1."""


def get_rank(group=None):
    """This process's rank: always 0 (opsdk runs in one process)."""
    return 0


def get_world_size(group=None):
    """The number of processes: always 1."""
    return 1


def is_initialized():
    """Whether a parallel environment was initialized: never, in opsdk."""
    return False


class ParallelEnv:
    """Paddle's ParallelEnv for one process: rank 0, world size 1, device 0."""

    rank = local_rank = dev_id = device_id = 0
    world_size = nranks = 1
    trainer_endpoints = []
    current_endpoint = ""
