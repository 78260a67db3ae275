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


def test_pooled_outputs_are_lent_whole_and_their_slices_are_not():
    from opsdk.exclusive import is_lent

    out = buffers.empty(BIG, numpy.float32)
    assert out.base is not None and is_lent(out) and not is_lent(out[10:])


def test_opsdk_grad_hands_back_a_pooled_gradient_without_copying_it():
    # the gradient a kernel wrote into a pooled buffer is the caller's own: copying it cost as
    # much as the kernel (a fused activation's step spent 15 of 25 ms there)
    from opsdk.kernels import Kernel, tensor_of, array_of

    double = Kernel("tests.outputs.double")

    @double.python
    def _(dy):
        out = buffers.empty(dy.shape, dy.dtype)
        numpy.multiply(dy, 2, out=out)
        return out

    class Twice(opsdk.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return tensor_of(double(array_of(dy)))

    x = opsdk.ones(list(BIG), dtype="float32")
    x.stop_gradient = False
    (g,) = opsdk.grad(Twice.apply(x), x, grad_outputs=opsdk.ones(list(BIG), dtype="float32"))
    data = array_of(g)  # the gradient's own array (numpy() gives a copy, as Paddle's does)
    assert data.base is not None and numpy.all(data == 2)
    pooled = {_address(b) for b in buffers._pool.values()}
    assert _address(data) in pooled  # the kernel's own buffer, not a copy
