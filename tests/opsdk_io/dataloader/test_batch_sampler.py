"""opsdk.io's BatchSampler and DistributedBatchSampler as Paddle's: batches, len(), drop_last,
and the epoch-seeded shuffle of the distributed one."""
import pytest

from helpers.frameworks import assert_raises_as_paddle

from ..structure import same_as_paddle

pytestmark = pytest.mark.paddle


@pytest.mark.parametrize("drop_last", [False, True])
def test_batch_sampler(drop_last):
    def fn(P):
        s = P.io.BatchSampler(dataset=range(10), batch_size=4, drop_last=drop_last)
        t = P.io.BatchSampler(sampler=P.io.SequenceSampler(range(5)), batch_size=2)
        return [len(s), list(s), len(t), list(t)]
    same_as_paddle(fn)


@pytest.mark.parametrize("replicas, rank, drop_last", [(None, None, False), (1, 0, True),
                                                       (3, 1, False), (2, 1, True)])
def test_distributed_batch_sampler(replicas, rank, drop_last):
    def fn(P):
        s = P.io.DistributedBatchSampler(range(11), 3, num_replicas=replicas, rank=rank,
                                         shuffle=True, drop_last=drop_last)
        first, second = list(s), list(s)
        s.set_epoch(0)
        return [len(s), first, second, list(s), s.num_samples, s.total_size]
    same_as_paddle(fn)


@pytest.mark.parametrize("make", [
    lambda P: P.io.BatchSampler(),
    lambda P: P.io.BatchSampler(dataset=range(3), batch_size=0),
    lambda P: P.io.BatchSampler(sampler=range(3), shuffle=True),
    lambda P: P.io.DistributedBatchSampler(range(3), 2, num_replicas=0),
])
def test_bad_batch_samplers_raise_as_paddle(make):
    assert_raises_as_paddle(make, AssertionError)
