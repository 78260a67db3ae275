import numpy as np
import pytest

import opsdk
from fixtures.packs import registered
from opsdk import TensorSpec
from opsdk.check.drawing import draw_samples
from opsdk.check.selection import select_ops


@pytest.fixture(scope="module")
def goodpack():
    with registered("good_pack", "goodpack"):
        yield


def _op(name):
    (op,), _ = select_ops([name])
    return op


def test_same_seed_draws_the_same_samples_and_another_seed_others(goodpack):
    op = _op("goodpack.cube")
    a = draw_samples(op, "float64", seed=1)[0].args[0].values
    again = draw_samples(op, "float64", seed=1)[0].args[0].values
    other = draw_samples(op, "float64", seed=2)[0].args[0].values
    assert np.array_equal(a, again) and not np.array_equal(a, other)


def test_binary_op_gets_a_broadcast_and_a_noncontiguous_sample(goodpack):
    labels = [s.label for s in draw_samples(_op("goodpack.mul"), "float32")]
    assert labels == ["sample 0", "sample 0, broadcast y[1, 4]", "sample 0, non-contiguous"]


def test_samples_keep_clear_of_declared_kinks(goodpack):
    for sample in draw_samples(_op("goodpack.leaky"), "float32", mode="full"):
        assert np.abs(sample.args[0].values).min() >= 0.05


def test_broadcast_sample_an_op_refuses_is_dropped(pack):
    class SameShapeOnly(opsdk.PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            if x.shape != y.shape:
                raise ValueError("x and y must have one shape")
            return x + y

        @staticmethod
        def backward(ctx, dz):
            return dz, dz

    spec = TensorSpec(shape=(2, 3))
    pack("strictpack", lambda register: register(SameShapeOnly, name="add", inputs=[spec, spec]))
    labels = [s.label for s in draw_samples(_op("strictpack.add"), "float64", mode="full")]
    assert labels == ["sample 0", "sample 0, non-contiguous"]


def test_each_sample_has_its_own_seed(goodpack):
    seeds = [tuple(s.seed) for s in draw_samples(_op("goodpack.mul"), "float64")]
    assert len(set(seeds)) == len(seeds)
