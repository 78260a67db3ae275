"""paddle.metric.Accuracy: streaming top-k accuracy."""
import numpy as np

from .base import Metric


class Accuracy(Metric):
    """Top-k accuracy for each k in ``topk``. ``compute(pred, label)`` marks, per sample, which
    of its maxk best classes is the label (float32 [N, maxk]; a label of one class per row, or
    one-hot rows); ``update(correct)`` adds them and returns this batch's accuracy (one float
    per k, or a float for one k)."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in topk] if self.maxk != 1 else [name]
        self.reset()

    def compute(self, pred, label, *args):
        from ..functional.elementwise import cast
        from ..functional.reduction import argmax
        from ..functional.shape import reshape
        from ..functional.sorting import argsort

        best = argsort(pred, descending=True)[..., :self.maxk]
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            label = reshape(label, (-1, 1))
        elif label.shape[-1] != 1:
            label = argmax(label, axis=-1, keepdim=True)
        return cast(best == label.astype(best.dtype), "float32")

    def update(self, correct, *args):
        if hasattr(correct, "numpy"):
            correct = correct.numpy()
        samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accs.append(float(hits) / samples)
            self.total[i] += hits
            self.count[i] += samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name
