"""opsdk.io's default_collate_fn / default_convert_fn: the NumPy arrays and Tensors Paddle's
make (dtypes included: Python floats float64, ints int64)."""
import numpy as np
import pytest

import opsdk
from opsdk.io.dataloader.collate import default_collate_fn

from ..structure import describe, same_as_paddle

pytestmark = pytest.mark.paddle

BATCHES = {
    "floats": [1.5, 2.5],
    "ints": [1, 2],
    "bools": [True, False],
    "numpy scalars": [np.int32(3), np.int32(4)],
    "arrays": [np.zeros(3, "float64"), np.ones(3, "float64")],
    "dicts": [{"a": 1.0, "b": np.zeros(2, "int32")}, {"a": 2.0, "b": np.ones(2, "int32")}],
    "tuples with strings": [(1, "x"), (2, "y")],
    "nested": [[np.float32(1), [2, 3]], [np.float32(4), [5, 6]]],
}


def _collate(P, batch):
    return P.io.dataloader.collate.default_collate_fn(batch)


@pytest.mark.parametrize("name", BATCHES)
def test_collate_makes_paddles_arrays(name):
    same_as_paddle(lambda P: _collate(P, BATCHES[name]))


def test_collate_stacks_tensors():
    got = same_as_paddle(lambda P: _collate(P, [P.zeros([2]), P.ones([2])]))
    assert got[:3] == ("T", [2, 2], "float32")


def test_convert_keeps_fields():
    same_as_paddle(lambda P: P.io.dataloader.collate.default_convert_fn(
        (np.zeros(2), 3, "x", {"k": (1, 2)})))


def test_collate_refuses_ragged_samples():
    with pytest.raises(opsdk.errors.BatchFieldsError, match="one number of fields"):
        default_collate_fn([[1, 2], [3]])
    assert isinstance(opsdk.errors.BatchFieldsError("x"), RuntimeError)


def test_collate_refuses_other_types():
    with pytest.raises(TypeError, match="got: object"):
        default_collate_fn([object()])


def test_describe_sees_tensors():
    assert describe(opsdk.to_tensor([1.0]))[:3] == ("T", [1], "float32")


@pytest.mark.parametrize("where", ["opsdk.io.dataloader.collate", "opsdk.io.dataloader"])
def test_paddles_import_paths_work(where):
    import importlib
    module = importlib.import_module(where)
    assert hasattr(module, "default_collate_fn" if where.endswith("collate") else "Dataset")
