"""opsdk.metric: Paddle's paddle.metric: the ``accuracy`` function and the streaming metrics
(Metric, Accuracy, Precision, Recall, Auc) that update batch by batch and accumulate.

Example:
    >>> m = opsdk.metric.Precision()
    >>> m.update(np.array([0.9, 0.2, 0.7]), np.array([1, 0, 0]))
    >>> m.accumulate()
    0.5
"""
from .accuracy import Accuracy
from .base import Metric
from .binary import Auc, Precision, Recall
from .functional import accuracy

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
