"""The pack's runnable scripts keep working: gpu_check.py and benchmarks/fused_ops.py."""
import os
import subprocess
import sys

import pytest

from opsdk.kernels import cuda_status

PACK = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=PACK, timeout=300)


@pytest.mark.skipif(cuda_status()[0], reason="a GPU is present: gpu_check.py would run in full")
def test_gpu_check_says_why_it_cannot_run_without_a_gpu():
    done = _run("gpu_check.py")
    assert done.returncode == 2, done.stderr
    assert "no usable GPU here" in done.stdout


def test_benchmark_prints_a_row_per_op_against_the_streaming_floor():
    done = _run(os.path.join("benchmarks", "fused_ops.py"), "--n", "20000", "--repeat", "1", "--no-torch")
    assert done.returncode == 0, done.stderr
    assert "in-place streaming bandwidth" in done.stdout
    for op in ("gelu", "gelu tanh", "silu", "softplus", "mish", "softmax", "log_softmax", "layer_norm",
               "rms_norm", "cross_entropy"):
        assert f"\n{op} " in done.stdout
