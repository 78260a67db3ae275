"""The simulator behind opsdk: Kernel dispatch on the inputs' device and stream, opsdk check
--simulate, opsdk doctor, and the pytest option."""
import os
import re
import subprocess
import sys

import numpy
import pytest
from click.testing import CliRunner

import opsdk
from opsdk.errors import KernelArgumentError
from opsdk.kernels import cudasim, use_backend

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_kernels_run_on_the_device_of_their_inputs(cp):
    from opsdk_example.swish import OP

    swish_fwd = OP.value_kernel

    cudasim.install(devices=2)
    try:
        with cp.cuda.Device(1):
            x = cp.asarray(numpy.linspace(-2, 2, 300))
        with cudasim.recording() as launches:
            y = swish_fwd(x, beta=1.5)  # the current device is 0
        assert y.device.id == 1 and [l.device for l in launches] == [1]
    finally:
        cudasim.install(devices=1)


def test_kernels_launch_on_the_current_stream(cp):
    from opsdk_example.swish import OP

    swish_fwd = OP.value_kernel

    x = cp.asarray(numpy.linspace(-2, 2, 300))
    stream = cp.cuda.Stream()
    with cudasim.recording() as launches:
        with stream:
            swish_fwd(x, beta=1.5)
        swish_fwd(x, beta=1.5)
    assert [l.stream for l in launches] == [stream.ptr, 0]


@pytest.mark.parametrize("backend", ["python", "cuda"])
def test_mixed_float_dtypes_are_refused_naming_both_arguments(cp, backend):
    from opsdk_example.swish import OP

    swish_bwd = OP.grad_kernel

    x, dy = cp.asarray(numpy.array([-1.0, 0.5], numpy.float32)), cp.asarray(numpy.ones(2))
    with pytest.raises(KernelArgumentError, match="arguments 'x' and 'grad_out' have different float dtypes"):
        swish_bwd.run(backend, x, dy, beta=1.0)


@pytest.mark.parametrize("backend", ["python", "cuda"])
def test_a_float64_bias_for_float32_layer_norm_is_refused(cp, backend):
    from opsdk_nn.kernels.norms import LAYER_NORM

    x = cp.asarray(numpy.ones((2, 3), numpy.float32))
    w, b = cp.ones(3, cp.float32), cp.zeros(3, cp.float64)
    # python: the kernel's dtype check; cuda: the declared adapter's, naming both too
    says = {"python": "arguments 'x' and 'bias' have different float dtypes",
            "cuda": r"argument 'bias'\n  expected: dtype float32 \(as 'x'\)\n  got: float64"}[backend]
    with pytest.raises(KernelArgumentError, match=says):
        LAYER_NORM.forward_kernel.run(backend, x, w, b, eps=1e-5)


def test_gpu_tensors_run_the_cuda_kernels_forward_and_backward(cp):
    t = opsdk.to_tensor(numpy.linspace(-2, 2, 7), place="gpu", stop_gradient=False)
    with cudasim.recording() as launches:
        y = opsdk.ops.example.swish(t, 1.5)
        (g,) = opsdk.grad([y], [t], grad_outputs=[opsdk.ones_like(y)])
    with use_backend("python"):
        cpu = opsdk.to_tensor(numpy.linspace(-2, 2, 7), stop_gradient=False)
        (want,) = opsdk.grad([opsdk.ops.example.swish(cpu, 1.5)], [cpu])
    assert sorted({l.kernel for l in launches}) == ["swish_grad_f64", "swish_value_f64"]
    numpy.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-14)


def test_opsdk_check_simulate_runs_every_cuda_check_of_an_op(cp):
    from opsdk.cli import main

    result = CliRunner().invoke(main, ["check", "opsdk.erf", "--backend", "cuda", "--simulate", "--json"])
    assert result.exit_code == 0, result.output
    import json

    report = json.loads(result.output)
    statuses = {r["check"]: r["status"] for r in report["results"] if r["dtype"] == "float64"}
    assert statuses["gradcheck"] == statuses["forward"] == statuses["gradgradcheck"] == "pass"


def test_doctor_says_the_simulator_is_on(cp):
    from opsdk.cli import main

    result = CliRunner().invoke(main, ["doctor"])
    # the label column is as wide as the longest label, which depends on the packs installed
    assert re.search(r"CUDA simulator +on", result.output), result.output
    assert "opsdk CUDA simulator (CPU)" in result.output


@pytest.mark.slow
def test_the_pytest_option_runs_gpu_tests_on_the_simulator(tmp_path):
    (tmp_path / "test_gpu_here.py").write_text(
        "import pytest\nfrom opsdk.kernels import cuda_status\n\n"
        "@pytest.mark.skipif(not cuda_status()[0], reason='no GPU')\n"
        "def test_on_gpu():\n    import cupy\n    assert float(cupy.arange(4).sum()) == 6.0\n")
    env = {k: v for k, v in os.environ.items() if k != "OPSDK_CUDA_SIM"}
    env["PYTHONPATH"] = REPO
    run = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "test_gpu_here.py")]
    plain = subprocess.run(run, capture_output=True, text=True, env=env, cwd=tmp_path)
    simulated = subprocess.run(run + ["--opsdk-cuda-sim"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "1 skipped" in plain.stdout, plain.stdout
    assert "1 passed" in simulated.stdout and "CUDA simulated on the CPU" in simulated.stdout, simulated.stdout
