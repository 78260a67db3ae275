"""Turning samples into batches, as paddle.io does: default_collate_fn stacks each field of a
batch of samples (numbers and NumPy arrays into NumPy arrays, Tensors into a Tensor, dicts and
sequences field by field), default_convert_fn leaves one sample's fields as they are, and
to_tensors (what the DataLoader does to either's result) makes every array a Tensor and every
sequence a list."""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ...errors import ArgumentTypeError, BatchFieldsError
from ...tensor import Tensor


def default_collate_fn(batch):
    """A batch (a list of samples) as one structure of stacked fields: NumPy arrays and numbers
    become a NumPy array with a new first axis (Python floats float64, ints int64, bools bool,
    as np.array makes them), Tensors a stacked Tensor, strings stay the batch they came in;
    dicts and sequences are collated field by field (a sequence becomes a list)."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        from ...functional.shape import stack
        return stack(batch, axis=0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([s[key] for s in batch]) for key in sample}
    if isinstance(sample, Sequence):
        if any(len(s) != len(sample) for s in batch):
            raise BatchFieldsError(f"default_collate_fn: expected: one number of fields in "
                                   f"every sample of a batch; got: {[len(s) for s in batch]}")
        return [default_collate_fn(fields) for fields in zip(*batch)]
    raise ArgumentTypeError(f"default_collate_fn: expected: samples of Tensors, NumPy arrays, "
                            f"numbers, strings, dicts or lists; got: {type(sample).__name__}")


def default_convert_fn(batch):
    """One sample as it is (what the DataLoader uses when batch_size is None): dicts and
    sequences rebuilt field by field (a sequence as a list), everything else unchanged."""
    if isinstance(batch, (Tensor, np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(field) for field in batch]
    return batch


def to_tensors(batch):
    """What the DataLoader hands out: NumPy arrays as Tensors (their dtype kept), Tensors
    detached (leaves that need no gradient, as Paddle's loader hands them out), numbers and
    strings unchanged, dicts as dicts, other sequences as lists."""
    if isinstance(batch, Tensor):
        return batch.detach()
    if isinstance(batch, np.ndarray):
        from ...functional.creation import to_tensor
        return to_tensor(batch)
    if isinstance(batch, (str, bytes, numbers.Number)):
        return batch
    if isinstance(batch, Mapping):
        return {key: to_tensors(value) for key, value in batch.items()}
    if isinstance(batch, Sequence):
        return [to_tensors(field) for field in batch]
    return batch
