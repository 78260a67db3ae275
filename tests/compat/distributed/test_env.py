"""opsdk.distributed's single-process answers and its refusals of collectives."""
import pytest

import opsdk as paddle
from opsdk.errors import UnsupportedError


def test_one_process_is_rank_zero_of_a_world_of_one():
    d = paddle.distributed
    assert (d.get_rank(), d.get_world_size(), d.is_initialized()) == (0, 1, False)
    env = d.ParallelEnv()
    assert (env.rank, env.world_size, env.local_rank, env.nranks) == (0, 1, 0, 1)


@pytest.mark.parametrize("name", ["init_parallel_env", "all_reduce", "all_gather", "broadcast",
                                  "reduce", "barrier", "spawn"])
def test_collectives_raise_unsupported_naming_the_way_out(name):
    with pytest.raises(UnsupportedError, match=f"paddle.distributed.{name}: .*opsdk.interop"):
        getattr(paddle.distributed, name)(paddle.ones([2]))


def test_unsupported_is_a_not_implemented_error():
    with pytest.raises(NotImplementedError):
        paddle.distributed.all_reduce(paddle.ones([2]))
