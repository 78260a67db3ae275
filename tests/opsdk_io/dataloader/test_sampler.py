"""opsdk.io's samplers as Paddle's: lengths, orders, and draws from NumPy's generator."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle

from ..structure import same_as_paddle

pytestmark = pytest.mark.paddle


def test_sequence_sampler():
    same_as_paddle(lambda P: [len(P.io.SequenceSampler(range(5))),
                              list(P.io.SequenceSampler(range(5)))])


def test_random_sampler_draws_numpys_numbers():
    def fn(P):
        np.random.seed(7)
        a = list(P.io.RandomSampler(range(6)))
        b = list(P.io.RandomSampler(range(6), replacement=True, num_samples=9))
        return [a, b, len(P.io.RandomSampler(range(6), num_samples=3))]
    same_as_paddle(fn)


def test_random_sampler_generator_yields_its_own_indices():
    same_as_paddle(lambda P: list(P.io.RandomSampler(range(4), generator=iter([3, 0, 2]))))


def test_weighted_random_sampler():
    def fn(P):
        np.random.seed(1)
        s = P.io.WeightedRandomSampler(np.array([0.1, 0.0, 0.7, 0.2]), 5)
        return [len(s), list(s), sorted(P.io.WeightedRandomSampler(np.ones(3), 3, False)),
                len(P.io.WeightedRandomSampler(np.ones([2, 3]), 2)),
                [i for i in P.io.WeightedRandomSampler([1.0, 0.0, 2.0], 4)]]
    same_as_paddle(fn)


def test_subset_random_sampler_is_a_permutation():
    s = opsdk.io.SubsetRandomSampler([4, 8, 15, 16])
    assert len(s) == 4 and sorted(s) == [4, 8, 15, 16]


@pytest.mark.parametrize("make, family", [
    (lambda P: P.io.RandomSampler(range(3), num_samples=5), ValueError),
    (lambda P: P.io.RandomSampler(range(3), replacement=1), TypeError),
    (lambda P: P.io.WeightedRandomSampler([1.0], 0), ValueError),
    (lambda P: list(P.io.WeightedRandomSampler([1.0, -1.0], 2)), AssertionError),
    (lambda P: P.io.SubsetRandomSampler([]), ValueError),
])
def test_bad_samplers_raise_as_paddle(make, family):
    assert_raises_as_paddle(make, family)
