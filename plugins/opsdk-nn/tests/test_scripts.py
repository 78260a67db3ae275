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


@pytest.mark.slow
def test_benchmark_prints_a_row_per_op_against_the_streaming_floor():
    done = _run(os.path.join("benchmarks", "fused_ops.py"), "--n", "20000", "--repeat", "1", "--no-torch")
    assert done.returncode == 0, done.stderr
    assert "in-place streaming bandwidth" in done.stdout
    for op in ("gelu", "gelu tanh", "silu", "softplus", "mish", "softmax", "log_softmax", "layer_norm",
               "rms_norm", "cross_entropy"):
        assert f"\n{op} " in done.stdout


@pytest.mark.slow
def test_gpu_check_runs_on_the_simulator_and_prints_its_verdicts():
    env = {k: v for k, v in os.environ.items() if k != "OPSDK_CUDA_SIM"}
    done = subprocess.run([sys.executable, "gpu_check.py", "--simulate", "--ops", "opsdk.erf", "--skip-tests"],
                          capture_output=True, text=True, cwd=PACK, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| kernel opsdk.erf | pass (28 runs) |" in done.stdout
    assert "| check opsdk.erf float64 | pass (" in done.stdout and "gpu_check: PASSED" in done.stdout


def test_the_recorded_simulator_verdicts_name_every_first_party_cuda_kernel():
    with open(os.path.join(PACK, "gpu_check_simulated.md"), encoding="utf-8") as f:
        table = f.read()
    for kernel in ("opsdk.erf", "example.swish_fwd", "nn.layer_norm_bwd", "nn.cross_entropy_bwd",
                   "nn.softmax_bwd", "nn.mish_bwd2", "gpucheck_tpl.smooth_forward"):
        assert f"| kernel {kernel} | pass (" in table
