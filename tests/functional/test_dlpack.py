"""DLPack exchange: opsdk.from_dlpack and Tensor.__dlpack__ share memory, no copies."""
import numpy as np
import pytest

import opsdk


def test_from_dlpack_of_a_numpy_array_shares_its_memory():
    a = np.arange(4.0)
    t = opsdk.from_dlpack(a)
    a[0] = 7.0
    assert t.numpy().tolist() == [7.0, 1.0, 2.0, 3.0]


def test_numpy_reads_a_tensor_through_dlpack_without_a_copy():
    t = opsdk.to_tensor([1.0, 2.0, 3.0])
    a = np.from_dlpack(t)
    t._data[1] = 5.0
    assert a.tolist() == [1.0, 5.0, 3.0]
    assert a.dtype == np.float32


@pytest.mark.torch
def test_torch_and_opsdk_exchange_tensors_both_ways_without_copies():
    torch = pytest.importorskip("torch")
    src = torch.arange(3, dtype=torch.float64)
    t = opsdk.from_dlpack(src)
    src[2] = 9.0
    assert t.numpy().tolist() == [0.0, 1.0, 9.0]
    back = torch.from_dlpack(opsdk.to_tensor([1.0, 2.0]))
    assert back.dtype == torch.float32 and back.tolist() == [1.0, 2.0]


def test_a_tensor_from_dlpack_is_a_leaf_without_gradient():
    t = opsdk.from_dlpack(np.ones(2))
    assert t.is_leaf and t.stop_gradient
