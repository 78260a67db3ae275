"""opsdk.metric's streaming metrics (Accuracy, Precision, Recall, Auc) give Paddle's numbers,
batch by batch and accumulated."""
import numpy as np
import pytest

import opsdk
from helpers.frameworks import assert_raises_as_paddle, import_paddle

pytestmark = pytest.mark.paddle

RNG = np.random.default_rng(0)
LOGITS = [RNG.standard_normal((6, 5)).astype("float32") for _ in range(2)]
LABELS = [RNG.integers(0, 5, (6, 1)).astype("int64") for _ in range(2)]
SCORES = [RNG.random(8) for _ in range(2)]
BINARY = [RNG.integers(0, 2, 8) for _ in range(2)]


def accuracy_run(P, topk, label_form):
    m = P.metric.Accuracy(topk=topk, name="top")
    seen = []
    for x, y in zip(LOGITS, LABELS):
        if label_form == "flat":
            y = y.ravel()
        elif label_form == "one-hot":
            y = np.eye(5, dtype="float32")[y.ravel()]
        correct = m.compute(P.to_tensor(x), P.to_tensor(y))
        seen.append((correct.numpy().tolist(), str(correct.dtype).split(".")[-1],
                     m.update(correct)))
    return seen, m.accumulate(), m.name()


@pytest.mark.parametrize("topk", [(1,), (1, 3), (2,)])
@pytest.mark.parametrize("label_form", ["column", "flat", "one-hot"])
def test_accuracy_as_paddle(topk, label_form):
    paddle = import_paddle()
    assert accuracy_run(opsdk, topk, label_form) == accuracy_run(paddle, topk, label_form)


def test_accuracy_reset_and_numpy_input():
    m = opsdk.metric.Accuracy()
    m.update(np.array([[1.0], [0.0]], "float32"))
    assert m.accumulate() == 0.5
    m.reset()
    assert m.accumulate() == 0.0


def binary_run(P, kind):
    m = getattr(P.metric, kind)()
    for s, y in zip(SCORES, BINARY):
        if kind == "Auc":
            s = np.stack([1 - s, s], axis=1)
        m.update(P.to_tensor(s), y)
    first = m.accumulate()
    m.reset()
    return first, m.accumulate(), m.name()


@pytest.mark.parametrize("kind", ["Precision", "Recall", "Auc"])
def test_binary_metrics_as_paddle(kind):
    paddle = import_paddle()
    assert binary_run(opsdk, kind) == binary_run(paddle, kind)


def test_rounding_at_one_half_differs_between_precision_and_recall():
    # Precision rounds half up, Recall half to even (as Paddle's)
    p, r = opsdk.metric.Precision(), opsdk.metric.Recall()
    p.update(np.array([0.5]), np.array([1]))
    r.update(np.array([0.5]), np.array([1]))
    assert (p.accumulate(), r.accumulate()) == (1.0, 0.0)


@pytest.mark.parametrize("kind", ["Precision", "Recall", "Auc"])
def test_lists_are_refused_as_paddle(kind):
    assert_raises_as_paddle(lambda P: getattr(P.metric, kind)().update([0.1], np.array([1])),
                            ValueError)


def test_metric_is_abstract():
    with pytest.raises(TypeError):
        opsdk.metric.Metric()

    class Ones(opsdk.metric.Metric):
        reset = update = accumulate = name = lambda self, *a: 1

    assert Ones().compute(1, 2) == (1, 2)


def test_docstring_example_runs():
    import doctest
    result = doctest.testmod(opsdk.metric, extraglobs={"opsdk": opsdk, "np": np})
    assert result.attempted > 0 and result.failed == 0
