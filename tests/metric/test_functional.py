"""opsdk.metric.accuracy: top-k hits over [N, 1] labels, as paddle.metric.accuracy."""
import numpy as np
import pytest

import opsdk

LOGITS = [[0.1, 2.0, -1.0, 0.5], [3.0, 0.0, 0.5, 2.9], [1.0, 1.0, 1.0, 0.0]]


@pytest.mark.parametrize("k, expected", [(1, 0.0), (2, 2 / 3)])
def test_accuracy_counts_top_k_hits(k, expected):
    x = opsdk.to_tensor(np.array(LOGITS), stop_gradient=False)
    acc = opsdk.metric.accuracy(x, opsdk.to_tensor([[3], [3], [0]]), k=k)
    assert acc.dtype == opsdk.float32 and acc.shape == [] and acc.stop_gradient
    assert acc.item() == pytest.approx(expected, rel=1e-6)


def test_accuracy_fills_correct_and_total():
    correct, total = opsdk.zeros([1], dtype="int32"), opsdk.zeros([1], dtype="int32")
    opsdk.metric.accuracy(opsdk.to_tensor(LOGITS), opsdk.to_tensor([[1], [0], [2]]),
                          correct=correct, total=total)
    assert correct.numpy().tolist() == [2] and total.numpy().tolist() == [3]


def test_accuracy_wants_two_dimensional_labels():
    with pytest.raises(opsdk.errors.ShapeError, match=r"label \[N, 1\]"):
        opsdk.metric.accuracy(opsdk.to_tensor(LOGITS), opsdk.to_tensor([1, 0, 2]))
