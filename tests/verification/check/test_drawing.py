import numpy as np
import pytest

import opsdk
from fixtures.packs import registered
from opsdk import TensorSpec
from opsdk.verification.check.drawing import draw_samples
from opsdk.verification.check.selection import select_ops


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


def _kinds(samples):
    kinds = {}
    for s in samples:
        kinds.setdefault(s.kind, []).append(s.label)
    return kinds


def test_binary_op_gets_every_broadcast_axis_of_each_input_and_every_layout(goodpack):
    kinds = _kinds(draw_samples(_op("goodpack.mul"), "float32"))
    assert kinds["own"] == ["sample 0"]
    assert kinds["broadcast"] == [
        "sample 0, broadcast x[1, 4] (axis 0 size 1)", "sample 0, broadcast x[3, 1] (axis 1 size 1)",
        "sample 0, broadcast x[] (0-d)", "sample 0, broadcast x[1, 1] (all ones)",
        "sample 0, broadcast y[1, 4] (axis 0 size 1)", "sample 0, broadcast y[3, 1] (axis 1 size 1)",
        "sample 0, broadcast y[] (0-d)", "sample 0, broadcast y[1, 1] (all ones)"]
    assert kinds["layout"] == ["sample 0, transposed", "sample 0, strided", "sample 0, negative"]


def test_fast_mode_keeps_a_few_of_each_kind(goodpack):
    kinds = _kinds(draw_samples(_op("goodpack.mul"), "float32", mode="fast"))
    assert len(kinds["broadcast"]) == 2 and len(kinds["layout"]) == 2


def test_samples_keep_clear_of_declared_kinks(goodpack):
    for sample in draw_samples(_op("goodpack.leaky"), "float32", mode="full"):
        if sample.kind != "probe":  # special points probe the kink on purpose
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
    kinds = _kinds(draw_samples(_op("strictpack.add"), "float64", mode="full"))
    assert "broadcast" not in kinds and kinds["layout"]


def test_each_sample_has_its_own_seed(goodpack):
    seeds = [tuple(s.seed) for s in draw_samples(_op("goodpack.mul"), "float64")]
    assert len(set(seeds)) == len(seeds)
