"""The pack's runnable scripts keep working: gpu_check.py (with its prebuilt section,
prebuilt_check.py) and benchmarks/fused_ops.py."""
import os
import re
import subprocess
import sys

import pytest

from opsdk.kernels import cuda_status, find_nvcc

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


def _before_head(only):
    """The benchmark's output for ``only`` (--loops-only, --rows-only) with --before HEAD, checked to
    name the revision and carry the before / new column."""
    done = _run(os.path.join("benchmarks", "fused_ops.py"), only, "--n", "20000", "--repeat", "1", "--before", "HEAD")
    assert done.returncode == 0, done.stderr
    assert "as the SDK wrote them at HEAD" in done.stdout and "before / new" in done.stdout
    return done.stdout


@pytest.mark.slow
def test_benchmark_times_the_loops_the_sdk_wrote_at_another_revision_in_the_same_run():
    out = _before_head("--loops-only")
    for op in ("gelu", "gelu_tanh", "silu", "softplus", "mish"):
        rows = re.findall(rf"^{op} .* ([\d.]+)x$", out, re.M)
        # 1e7 table, in-cache table; a ratio is a timing, which a loaded machine can round to
        # 0.00x (--repeat 1): what is checked is that both revisions ran and were compared
        assert len(rows) == 2 and all(float(r) >= 0 for r in rows), out


@pytest.mark.slow
def test_benchmark_times_the_row_ops_the_sdk_wrote_at_another_revision_in_the_same_run():
    out = _before_head("--rows-only")
    for op in ("softmax", "log_softmax", "layer_norm", "rms_norm", "cross_entropy"):
        for stage in ("forward", "backward"):  # the team's table, in cache, short rows: old / new, before / new
            rows = re.findall(rf"^{op} +{stage} .* ([\d.]+)x +[\d.]+ +([\d.]+)x$", out, re.M)
            assert len(rows) == 3 and all(float(r) >= 0 for row in rows for r in row), out
    assert len(re.findall(r"^(?:log_)?softmax \[.* ([\d.]+)x$", out, re.M)) == 8  # along another axis


@pytest.mark.slow
def test_gpu_check_runs_on_the_simulator_and_prints_its_verdicts():
    env = {k: v for k, v in os.environ.items() if k != "OPSDK_CUDA_SIM"}
    done = subprocess.run([sys.executable, "gpu_check.py", "--simulate", "--ops", "opsdk.erf", "--skip-tests"],
                          capture_output=True, text=True, cwd=PACK, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    # the number of runs follows the sizes the check derives for CUDA, which change with the
    # check; what matters is that the kernel ran at several sizes and passed
    runs = re.search(r"\| kernel opsdk\.erf \| pass \((\d+) runs\) \|", done.stdout)
    assert runs and int(runs.group(1)) >= 8, done.stdout
    assert "| check opsdk.erf float64 | pass (" in done.stdout and "gpu_check: PASSED" in done.stdout
    if find_nvcc() is not None:
        assert "- prebuilt choice: pass" in done.stdout
    # foreign ops: no framework takes the simulator's arrays, so each row is skipped, saying so
    assert "## foreign ops on the GPU" in done.stdout
    for framework, op in (("torch", "torchpack.swish"), ("jax", "jaxpack.swish"),
                          ("paddle", "paddlepack.center_rows")):
        assert f"| {framework} | {op} | skipped: " in done.stdout


def test_gpu_check_sums_up_a_foreign_op_in_one_verdict():
    sys.path.insert(0, PACK)
    try:
        import gpu_check
    finally:
        sys.path.remove(PACK)

    def report(*rows):
        return {"results": [{"dtype": "float32", "check": c, "status": s, "detail": d}
                            for c, s, d in rows]}

    verdict = gpu_check._foreign_verdict
    assert verdict(report(("forward", "pass", ""), ("layout", "n/a", "JAX"))) == \
        "pass (1 checks, 1 n/a)"
    assert verdict(report(("forward", "pass", ""), ("sizes", "fail", "disagrees\nmore"))) == \
        "FAIL float32 sizes: disagrees"
    assert verdict(report(("forward", "skip", "torch has no CUDA build"))) == \
        "skipped: torch has no CUDA build"


@pytest.mark.skipif(find_nvcc() is None, reason="needs nvcc to compile the PTX and cubins")
def test_prebuilt_check_dry_path_checks_the_files_the_choice_and_the_simulator():
    done = _run("prebuilt_check.py", "--simulate")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "prebuilt files: pass",
        "prebuilt choice: pass (8.0, 8.6: the sm_80 cubin; 9.0: the PTX; 7.5: the source)",
        "prebuilt on the simulator: pass (the simulator takes the source)"]


def test_prebuilt_check_without_nvcc_says_it_skipped():
    path = os.pathsep.join(f for f in os.environ.get("PATH", "").split(os.pathsep)
                           if f and not os.path.exists(os.path.join(f, "nvcc")))
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    done = subprocess.run([sys.executable, "prebuilt_check.py", "--simulate"], capture_output=True, text=True,
                          cwd=PACK, timeout=120, env={**env, "PATH": path})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "prebuilt: skipped: no nvcc here to compile the PTX and cubins\n"


def test_the_recorded_simulator_verdicts_name_every_first_party_cuda_kernel():
    with open(os.path.join(PACK, "gpu_check_simulated.md"), encoding="utf-8") as f:
        table = f.read()
    for kernel in ("opsdk.erf", "example.swish_value", "nn.layer_norm_backward", "nn.cross_entropy_backward",
                   "nn.softmax_backward", "nn.log_softmax_forward", "nn.mish_grad2", "gpucheck_tpl.smooth_value"):
        assert f"| kernel {kernel} | pass (" in table
