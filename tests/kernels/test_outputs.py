"""The output pool: large buffers come back once nothing references them, never before."""
import numpy
import opsdk
import pytest

from opsdk.kernels import outputs as buffers

BIG = (2_000_000,)  # 8 MB of float32: pooled
SMALL = (1000,)


def _address(array):
    return array.__array_interface__["data"][0]


@pytest.fixture(autouse=True)
def pool_allows_64mb(monkeypatch):
    monkeypatch.setenv("OPSDK_POOL_MB", "64")


def test_a_dropped_buffer_is_handed_out_again():
    first = buffers.empty(BIG, numpy.float32)
    address = _address(first)
    del first
    assert _address(buffers.empty((1000, 2000), numpy.float32)) == address


def test_a_buffer_still_referenced_by_a_view_is_not_reused():
    first = buffers.empty(BIG, numpy.float32)
    view = first[10:20]
    address = _address(first)
    del first
    assert _address(buffers.empty(BIG, numpy.float32)) != address
    assert view.base is not None


def test_a_buffer_held_by_a_tensor_is_not_reused():
    tensor = opsdk.from_dlpack(buffers.empty(BIG, numpy.float32))
    assert _address(buffers.empty(BIG, numpy.float32)) != _address(tensor.numpy())


def test_small_arrays_bypass_the_pool():
    before = buffers.pooled_bytes()
    buffers.empty(SMALL, numpy.float64)
    assert buffers.pooled_bytes() == before


def test_the_pool_stays_under_its_cap(monkeypatch):
    monkeypatch.setenv("OPSDK_POOL_MB", "20")
    for _ in range(6):
        buffers.empty(BIG, numpy.float64)  # 16 MB each, dropped at once
    assert buffers.pooled_bytes() <= 20 << 20


def test_a_zero_cap_turns_the_pool_off(monkeypatch):
    monkeypatch.setenv("OPSDK_POOL_MB", "0")
    before = buffers.pooled_bytes()
    kept = buffers.empty(BIG, numpy.float32)
    assert buffers.pooled_bytes() == before and kept.base is None


def test_the_older_nn_variable_still_caps_the_pool(monkeypatch):
    monkeypatch.delenv("OPSDK_POOL_MB")
    monkeypatch.setenv("OPSDK_NN_POOL_MB", "0")
    kept = buffers.empty(BIG, numpy.float32)
    assert kept.base is None


def test_empty_like_keeps_shape_and_dtype():
    made = buffers.empty_like(numpy.ones((2, 3), numpy.float32))
    assert made.shape == (2, 3) and made.dtype == numpy.float32 and made.flags.c_contiguous
