"""paddle.metric's functional part: ``accuracy`` (top-k accuracy of a batch of predictions).

Example:
    >>> logits = opsdk.to_tensor([[0.1, 2.0, 0.3], [3.0, 0.0, 0.5]])
    >>> float(opsdk.metric.accuracy(logits, opsdk.to_tensor([[1], [2]])))
    0.5
"""
import numpy as np

from ..autograd import no_grad
from ..errors import OpArgumentError, ShapeError
from ..functional.sorting import topk
from ..tensor import Tensor

__all__ = ["accuracy"]


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The fraction of rows whose label is among the row's k largest inputs, as Paddle: label
    is [N, 1] of ints; a float32 scalar that does not require gradient. correct and total,
    when given (int Tensors of one element), receive the counts in place."""
    if not isinstance(input, Tensor) or not isinstance(label, Tensor):
        raise OpArgumentError(f"accuracy: input and label must be Tensors; got: "
                              f"{type(input).__name__} and {type(label).__name__}")
    if len(label.shape) != 2 or len(input.shape) != 2 or label.shape[0] != input.shape[0]:
        raise ShapeError(f"accuracy: expected input [N, C] and label [N, 1]; got: "
                         f"{list(input.shape)} and {list(label.shape)}")
    with no_grad():
        _, idx = topk(input, k)
    hits = int((idx.numpy() == label.numpy().astype(np.int64)).any(axis=1).sum())
    rows = int(input.shape[0])
    for counter, value in ((correct, hits), (total, rows)):
        if counter is not None:
            counter.set_value(np.full(counter.shape, value, dtype=counter.numpy().dtype))
    return Tensor(np.array(hits / rows if rows else 0.0, dtype=np.float32))
