import numpy as np

from opsdk.verification.check.samples import STRIDED, CaseSample, TensorSlot, strided


def _sample(layout="contiguous"):
    x = TensorSlot(np.arange(6.0).reshape(2, 3), True, layout)
    index = TensorSlot(np.array([0, 1]), False)
    return CaseSample("s", (x, index, 1.5), {}, [0])


def test_make_builds_fresh_tensors_each_time():
    (a, _, _), _ = _sample().make()
    (b, _, _), _ = _sample().make()
    a.numpy()[0, 0] = 99.0
    assert b.numpy()[0, 0] == 0.0


def test_differentiable_tensors_need_grad_and_others_do_not():
    (x, index, beta), _ = _sample().make()
    assert not x.stop_gradient and index.stop_gradient and beta == 1.5


def test_requires_limits_which_tensors_need_grad():
    (x, _, _), _ = _sample().make(requires=())
    assert x.stop_gradient


def test_strided_layout_gives_a_non_contiguous_array_with_the_same_values():
    (x, _, _), _ = _sample(STRIDED).make()
    assert not x._data.flags.c_contiguous
    assert x.numpy().tolist() == np.arange(6.0).reshape(2, 3).tolist()


def test_strided_keeps_scalars_as_they_are():
    assert strided(np.array(2.0)).shape == ()


def test_positions_and_description():
    sample = _sample()
    assert sample.tensor_positions == [0, 1] and sample.diff_positions == [0]
    assert sample.describe() == "float64[2, 3], int64[2], 1.5"
