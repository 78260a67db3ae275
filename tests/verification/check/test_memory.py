"""The memory budget of a sample: sizes read as users write them, and an allocation beyond the
budget ending as the op's reported failure, never as a killed process."""
import numpy as np
import pytest

import opsdk
from opsdk import TensorSpec
from opsdk.verification.check import memory

from .helpers import verdict


def test_sizes_are_read_with_units_or_as_a_share_of_the_machine():
    assert memory.parse_size("512M") == 512 << 20
    assert memory.parse_size("2GiB") == 2 << 30
    assert memory.parse_size("1.5 g") == int(1.5 * (1 << 30))
    assert memory.parse_size("100000000") == 100000000
    share = memory.parse_size("50%")
    assert share == int(0.5 * (memory.machine_memory() or memory.FALLBACK / 0.25))


@pytest.mark.parametrize("text", ["lots", "-1G", "10", "0%", "150%", ""])
def test_a_size_that_means_nothing_or_too_little_is_refused_with_what_was_expected(text):
    with pytest.raises(ValueError, match="expected: "):
        memory.parse_size(text)


def test_the_default_is_a_quarter_of_the_machine_and_the_environment_or_a_setting_wins(monkeypatch):
    monkeypatch.delenv(memory.ENV, raising=False)
    total = memory.machine_memory()
    assert memory.budget() == (int(total * 0.25) if total else memory.FALLBACK)
    monkeypatch.setenv(memory.ENV, "1G")
    assert memory.budget() == 1 << 30
    memory.set_budget(256 << 20)
    try:
        assert memory.budget() == 256 << 20
    finally:
        memory.set_budget(None)


@pytest.mark.skipif(memory.resource is None or memory._address_space() is None,
                    reason="no RLIMIT_AS or /proc/self/statm on this platform: only the "
                           "estimates apply there")
def test_an_allocation_beyond_the_budget_raises_memoryerror_and_the_limit_comes_back():
    before = memory.resource.getrlimit(memory.resource.RLIMIT_AS)
    with memory.limited(256 << 20):
        with pytest.raises(MemoryError) as caught:
            np.ones((65537, 65537), np.float32)  # 16 GiB
        np.ones((1000, 1000))  # small ones still work
    assert memory.resource.getrlimit(memory.resource.RLIMIT_AS) == before
    size, what = memory.asked_for(caught.value)
    assert size == 65537 * 65537 * 4 and "(65537, 65537)" in what


class Outer(opsdk.PyLayer):
    """x[:, None] * x[None, :] summed over one axis: right, and quadratic in memory."""

    @staticmethod
    def forward(ctx, x):
        a = x.numpy()
        ctx.save_for_backward(x)
        return opsdk.to_tensor((a[:, None] * a[None, :]).sum(1) / a.size)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        a = x.numpy()
        return opsdk.to_tensor((dy.numpy() * a.sum() + (dy.numpy() * a).sum()) / a.size)


@pytest.mark.skipif(memory.resource is None or memory._address_space() is None,
                    reason="no RLIMIT_AS here: a sample beyond the budget cannot be stopped")
def test_a_sample_beyond_the_budget_fails_its_op_naming_the_bytes_it_asked_for(pack):
    memory.set_budget(64 << 20)
    try:
        result = verdict(pack, Outer, "gradcheck", inputs=[TensorSpec(shape=(8192,))])
    finally:
        memory.set_budget(None)
    assert result.status == "fail"
    assert "the sample asked for 512.0 MiB (an array of shape (8192, 8192)" in result.detail
    assert "beyond the memory budget of 64.0 MiB per sample (--max-memory)" in result.detail
