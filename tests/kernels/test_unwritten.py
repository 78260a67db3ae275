"""Check mode: kernel output buffers NaN-filled with a mark, unwritten elements found."""
import numpy as np
import pytest

from opsdk.kernels import Kernel, outputs, unwritten


@pytest.fixture
def active():
    unwritten.set_active(True)
    yield
    unwritten.set_active(False)


def _kernel(name, write):
    k = Kernel(name)
    k.python(write)
    return k


def test_outside_check_mode_nothing_is_filled_or_recorded():
    k = _kernel("cm.skip_last", lambda x: _skip_last(x))
    k(np.ones(4))
    assert unwritten.take_findings() == [] and not unwritten.active()


def _skip_last(x):
    out = np.empty_like(x)
    out.reshape(-1)[:-1] = x.reshape(-1)[:-1]
    return out


def test_an_unwritten_element_is_recorded_with_kernel_backend_and_index(active):
    k = _kernel("cm.skip_last2", _skip_last)
    out = k(np.ones((2, 3)))
    (finding,) = unwritten.take_findings()
    assert np.isnan(out[1, 2]) and (finding.kernel, finding.backend) == ("cm.skip_last2", "python")
    assert finding.indices == [(1, 2)] and finding.count == 1
    assert "left 1 of 6 elements of its output 0 (shape [2, 3]) unwritten: [1, 2]" in str(finding)


def test_a_fresh_nan_or_a_nan_input_is_not_taken_for_an_unwritten_element(active):
    k = _kernel("cm.nan", lambda x: x * np.nan + np.asarray(x))
    k(np.array([1.0, np.nan]))
    assert unwritten.take_findings() == []


def test_empty_like_bound_in_the_adapter_s_own_module_is_filled_too(active):
    import numpy

    scope = {"empty_like": numpy.empty_like}
    exec("def write(x):\n    out = empty_like(x)\n    out[1:] = 1\n    return out", scope)
    k = _kernel("cm.bound", scope["write"])
    k(np.zeros(3, np.float32))
    (finding,) = unwritten.take_findings()
    assert finding.indices == [(0,)] and scope["empty_like"] is numpy.empty_like


def test_the_sdk_allocation_helpers_fill_in_check_mode():
    unwritten.set_active(True)
    try:
        assert unwritten.unwritten_mask(outputs.empty((2,), np.float64)).all()
        assert unwritten.unwritten_mask(outputs.empty_like(np.zeros(2, np.float32))).all()
    finally:
        unwritten.set_active(False)
