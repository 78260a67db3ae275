"""paddle.metric's binary-classification metrics: Precision, Recall (predictions rounded at
0.5) and Auc (the area under the ROC curve from bucketed scores)."""
import numpy as np

from ..errors import AssertedArgumentError
from .base import Metric, as_array


class _HitRatio(Metric):
    """tp / (tp + misses) over every batch, counting the samples ``_counted`` picks; the
    misses are kept as ``fp`` (Precision) or ``fn`` (Recall), as Paddle names them."""

    _misses = None

    def __init__(self, name, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._name = name
        self.reset()

    def update(self, preds, labels):
        op = type(self).__name__
        preds = self._rounded(as_array(preds, op, "preds")).astype("int32")
        labels = as_array(labels, op, "labels")
        for i in range(labels.shape[0]):
            if self._counted(preds[i], labels[i]):
                if preds[i] == labels[i]:
                    self.tp += 1
                else:
                    setattr(self, self._misses, getattr(self, self._misses) + 1)

    def reset(self):
        self.tp = 0
        setattr(self, self._misses, 0)

    def accumulate(self):
        seen = self.tp + getattr(self, self._misses)
        return float(self.tp) / seen if seen else 0.0

    def name(self):
        return self._name


class Precision(_HitRatio):
    """Of the predictions that round (half up) to 1, the fraction whose label is 1."""

    _misses = "fp"

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(name, *args, **kwargs)

    @staticmethod
    def _rounded(preds):
        return np.floor(preds + 0.5)

    @staticmethod
    def _counted(pred, label):
        return pred == 1


class Recall(_HitRatio):
    """Of the samples labelled 1, the fraction whose prediction rounds (half to even, np.rint)
    to 1."""

    _misses = "fn"

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(name, *args, **kwargs)

    @staticmethod
    def _rounded(preds):
        return np.rint(preds)

    @staticmethod
    def _counted(pred, label):
        return label == 1


class Auc(Metric):
    """The area under the ROC curve: each sample's positive-class score (``preds[:, 1]``) falls
    in one of num_thresholds + 1 buckets; accumulate() integrates the curve over them by
    trapezoids."""

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels = as_array(labels, "Auc", "labels")
        preds = as_array(preds, "Auc", "preds")
        for i, label in enumerate(labels):
            bucket = int(preds[i, 1] * self._num_thresholds)
            if bucket > self._num_thresholds:
                raise AssertedArgumentError(f"Auc.update: preds[{i}, 1]: expected: a score "
                                            f"in [0, 1]; got: {preds[i, 1]}")
            if label:
                self._stat_pos[bucket] += 1.0
            else:
                self._stat_neg[bucket] += 1.0

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        pos = neg = area = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            pos_before, neg_before = pos, neg
            pos += self._stat_pos[idx]
            neg += self._stat_neg[idx]
            area += self.trapezoid_area(neg, neg_before, pos, pos_before)
        return area / pos / neg if pos > 0.0 and neg > 0.0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name
