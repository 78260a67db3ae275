"""gradcheck on CuPy arrays (GPU), with CPU companions for the same paths."""
import numpy as np
import pytest

import opsdk
from opsdk.verification.gradcheck import check_gradients
from opsdk.kernels.cuda import cuda_status

from verification.gradcheck.wrong_ops import SignFlip, Swish, away_from_zero

HAS_GPU, WHY_NO_GPU = cuda_status()
requires_gpu = pytest.mark.skipif(not HAS_GPU, reason=f"needs a CUDA GPU and CuPy: {WHY_NO_GPU}")


def leaf(place, dtype="float32"):
    values = away_from_zero(np.random.default_rng(0), (3, 4))
    return opsdk.to_tensor(values, dtype=dtype, place=place, stop_gradient=False)


@pytest.mark.parametrize("mode", [False, True])
def test_right_op_passes_on_cpu(mode):
    assert check_gradients(lambda x: Swish.apply(x), (leaf("cpu"),), fast_mode=mode, seed=0).ok


@pytest.mark.parametrize("mode", [False, True])
def test_wrong_op_fails_on_cpu(mode):
    report = check_gradients(SignFlip.apply, (leaf("cpu"),), fast_mode=mode, seed=0)
    assert report.pairs() == {(0, 0)}


@pytest.mark.gpu
@requires_gpu
@pytest.mark.parametrize("mode", [False, True])
def test_right_op_passes_on_gpu(mode):
    assert check_gradients(lambda x: Swish.apply(x), (leaf("gpu"),), fast_mode=mode, seed=0).ok


@pytest.mark.gpu
@requires_gpu
@pytest.mark.parametrize("mode", [False, True])
def test_wrong_op_fails_on_gpu(mode):
    report = check_gradients(SignFlip.apply, (leaf("gpu"),), fast_mode=mode, seed=0)
    assert report.pairs() == {(0, 0)}
