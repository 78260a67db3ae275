"""The cuda backend of foreign ops: the framework on the GPU, fed device arrays by DLPack.

No GPU here: the bridges' data path runs on stand-in device arrays (NumPy memory behind
DLPack, device_stand_ins.py), the whole backend on opsdk's CUDA simulator with only the two
DLPack crossings stood in for, and availability is faked where a test needs it. The real GPU
run is the ``gpu``-marked test at the end (and plugins/opsdk-nn/gpu_check.py).
"""
import importlib
import sys
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

import opsdk
from opsdk.check import plan_cases, run_checks
from opsdk.verification.check.drawing import draw_samples
from opsdk.verification.check.runner import clear_caches
from opsdk.errors import OpArgumentError, RegistrationError
from opsdk.foreign import device
from opsdk.foreign.bridges import bridge

from .device_stand_ins import DeviceArray, device_arrays, on_the_simulator

FRAMEWORKS = [pytest.param(f, marks=getattr(pytest.mark, f)) for f in ("torch", "jax", "paddle")]
# the frameworks whose tensors have strides (JAX arrays have none)
STRIDED = [p for p in FRAMEWORKS if p.values[0] != "jax"]
SPEC = opsdk.TensorSpec(shape=(3, 4), domain=(-2.0, 2.0))


@pytest.fixture(autouse=True)
def _fresh():
    """Availability and samples are memoised per op: each test starts and ends without them."""
    clear_caches()
    device.clear_cache()
    yield
    clear_caches()
    device.clear_cache()


def _need(framework):
    return pytest.importorskip(framework, reason=f"{framework} is not installed "
                                                 f"(pip install opsdk[{framework}])")


def _pointer(framework, t):
    if framework == "jax":
        return t.unsafe_buffer_pointer()
    return t.data_ptr()


def _host(framework, t):
    return np.asarray(t if framework == "jax" else t.detach().numpy())


def _ops(framework):
    """(the module, twice x squared, x doubled with the index of each row's largest element)."""
    module = _need(framework)
    if framework == "jax":
        import jax.numpy as jnp

        return module, lambda x: 3.0 * x * x, lambda x: (x * 2.0, jnp.argmax(x, axis=-1))
    return module, lambda x: 3.0 * x * x, lambda x: (x * 2.0, module.argmax(x, -1))


def _sample(dtype=np.float32):
    """Values in memory aligned to 64 bytes (JAX takes DLPack memory without a copy only then;
    a CuPy allocation always is)."""
    values = np.random.default_rng(0).uniform(-2, 2, (3, 4)).astype(dtype)
    raw = np.empty(values.nbytes + 64, np.uint8)
    start = -raw.__array_interface__["data"][0] % 64
    aligned = raw[start:start + values.nbytes].view(dtype).reshape(values.shape)
    aligned[...] = values
    return aligned


# -- the bridges' data path, on stand-in device arrays ---------------------------------------------

@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_device_array_reaches_the_framework_without_a_copy(framework, monkeypatch):
    _need(framework)
    device_arrays(monkeypatch)
    x = DeviceArray(_sample())
    t = bridge(framework).tensor(x, True)
    assert _pointer(framework, t) == x.ptr
    assert tuple(t.shape) == (3, 4)
    np.testing.assert_array_equal(_host(framework, t), x.host)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_outputs_come_back_as_device_arrays_keeping_dtype_and_shape(framework, monkeypatch):
    _, _, double_and_argmax = _ops(framework)
    device_arrays(monkeypatch)
    the_bridge = bridge(framework)
    x = DeviceArray(_sample())
    graph = the_bridge.call(double_and_argmax, [x], [True], {}, "double_and_argmax")
    assert graph.device
    doubled, index = [the_bridge.array(o, i, graph.device) for i, o in enumerate(graph.outputs)]
    assert isinstance(doubled, DeviceArray) and isinstance(index, DeviceArray)
    assert (doubled.dtype, doubled.shape) == (np.float32, (3, 4))
    assert (index.dtype.kind, index.shape) == ("i", (3,))
    np.testing.assert_allclose(doubled.host, 2 * x.host)
    np.testing.assert_array_equal(index.host, np.argmax(x.host, axis=-1))


@pytest.mark.parametrize("framework", STRIDED)
def test_an_output_that_is_its_input_comes_back_over_the_same_device_memory(framework,
                                                                           monkeypatch):
    _need(framework)
    device_arrays(monkeypatch)
    the_bridge = bridge(framework)
    x = DeviceArray(_sample())
    graph = the_bridge.call(lambda t: t, [x], [False], {}, "identity")
    (out,) = [the_bridge.array(o, i, graph.device) for i, o in enumerate(graph.outputs)]
    assert out.ptr == x.ptr  # the isolation check sees the aliasing, as on the CPU


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_gradients_come_back_on_the_device_for_device_cotangents(framework, monkeypatch):
    _, three_x_squared, _ = _ops(framework)
    device_arrays(monkeypatch)
    the_bridge = bridge(framework)
    x, dy = DeviceArray(_sample(np.float64)), DeviceArray(_sample(np.float64)[::-1].copy())
    graph = the_bridge.call(three_x_squared, [x], [True], {}, "three_x_squared")
    grads = the_bridge.vjp(graph, [0], [dy], create=False)
    assert grads.device
    (dx,) = [the_bridge.array(o, i, grads.device) for i, o in enumerate(grads.outputs)]
    assert isinstance(dx, DeviceArray) and dx.dtype == np.float64 and dx.shape == (3, 4)
    np.testing.assert_allclose(dx.host, 6 * x.host * dy.host)


@pytest.mark.parametrize("framework", STRIDED)
def test_a_transposed_device_array_keeps_its_strides_and_memory(framework, monkeypatch):
    _need(framework)
    device_arrays(monkeypatch)
    x = DeviceArray(_sample()).T
    t = bridge(framework).tensor(x, False)
    assert _pointer(framework, t) == x.ptr
    strides = t.stride() if framework == "torch" else t.strides
    assert tuple(strides) == (1, 4)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_reversed_device_array_reaches_the_framework_as_a_copy(framework, monkeypatch):
    _need(framework)
    device_arrays(monkeypatch)
    x = DeviceArray(_sample())[:, ::-1]
    t = bridge(framework).tensor(x, False)
    assert _pointer(framework, t) != x.ptr  # no framework tensor has negative strides
    np.testing.assert_array_equal(_host(framework, t), x.host)


def test_jax_takes_a_transposed_device_array_as_a_contiguous_copy(monkeypatch):
    _need("jax")
    device_arrays(monkeypatch)
    x = DeviceArray(_sample()).T
    t = bridge("jax").tensor(x)
    np.testing.assert_array_equal(np.asarray(t), x.host)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_an_output_the_device_cannot_take_is_an_error_naming_it(framework, monkeypatch):
    _, three_x_squared, _ = _ops(framework)
    module = device_arrays(monkeypatch)
    the_bridge = bridge(framework)
    graph = the_bridge.call(three_x_squared, [DeviceArray(_sample())], [False], {}, "f")
    module.refuse = RuntimeError("Unsupported device in DLTensor")
    with pytest.raises(OpArgumentError, match=f"{framework} output 0 is on .*cannot be a CuPy "
                                              "array.*Unsupported device"):
        the_bridge.array(graph.outputs[0], 0, graph.device)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_host_arrays_still_come_back_as_numpy(framework):
    _, three_x_squared, _ = _ops(framework)
    the_bridge = bridge(framework)
    graph = the_bridge.call(three_x_squared, [_sample()], [True], {}, "f")
    assert not graph.device
    assert type(the_bridge.array(graph.outputs[0], 0, graph.device)) is np.ndarray


# -- declaring, planning and availability --------------------------------------------------------

def _tanh(name="dev.tanh", **options):
    torch = _need("torch")
    return opsdk.foreign_op(torch.tanh, framework="torch", name=name, inputs=[SPEC],
                            double_backward=True, **options)


@pytest.mark.torch
def test_a_foreign_op_has_a_cuda_backend_unless_declared_for_the_cpu_only():
    assert _tanh().backends == ("python", "cuda")
    assert _tanh(devices=("cuda", "cpu")).devices == ("cpu", "cuda")
    cpu_only = _tanh(devices=("cpu",))
    assert cpu_only.backends == ("python",)
    assert {c.backend for c in plan_cases([cpu_only])} == {"python"}
    assert cpu_only.backend_availability("cuda") == (
        False, "the op is declared for devices cpu only")


@pytest.mark.torch
@pytest.mark.parametrize("devices, words", [
    (("cuda",), "devices must include 'cpu'"),
    (("cpu", "gpu"), "devices must be a tuple of 'cpu', 'cuda'"),
    ((), "devices must be a tuple of"),
    (3, "devices must be a tuple of"),
])
def test_a_bad_devices_argument_is_refused_naming_what_is_wrong(devices, words):
    with pytest.raises(RegistrationError, match=words):
        _tanh(devices=devices)


def _no_gpu(monkeypatch, framework="torch"):
    monkeypatch.setitem(device._gpu_status, framework,
                        (False, f"{framework} 9.9+cpu has no CUDA build"))
    monkeypatch.setattr(device, "_cupy_status", lambda: (False, "CuPy is not installed"))


@pytest.mark.torch
def test_without_a_gpu_the_cuda_cases_are_planned_and_skipped_naming_every_reason(monkeypatch):
    _no_gpu(monkeypatch)
    op = _tanh()
    checks = ["forward", "gradcheck", "backward_agreement", "sizes"]
    cases = plan_cases([op], dtypes=["float32"], checks=checks)
    assert [(c.backend, c.check) for c in cases if c.backend == "cuda"] == [
        ("cuda", "forward"), ("cuda", "gradcheck"), ("cuda", "backward_agreement"),
        ("cuda", "sizes")]
    results = run_checks(cases)
    skipped = [r for r in results if r.backend == "cuda"]
    assert skipped and {r.status for r in skipped} == {"skip"}
    assert {r.detail for r in skipped} == {
        "torch 9.9+cpu has no CUDA build; CuPy is not installed"}


@pytest.mark.torch
def test_the_cpu_results_are_those_of_a_cpu_only_declaration(monkeypatch):
    _no_gpu(monkeypatch)
    both = run_checks(plan_cases([_tanh("dev.both")], dtypes=["float64"]))
    cpu = run_checks(plan_cases([_tanh("dev.cpu", devices=("cpu",))], dtypes=["float64"]))
    assert [(r.check, r.status, r.detail) for r in both if r.backend == "python"] == [
        (r.check, r.status, r.detail) for r in cpu]


@pytest.mark.torch
def test_the_cuda_backend_needs_the_frameworks_gpu_and_real_cupy(monkeypatch):
    op = _tanh()
    monkeypatch.setattr(device, "_cupy_status", lambda: (True, ""))
    monkeypatch.setitem(device._gpu_status, "torch", (True, ""))
    assert op.backend_availability("cuda") == (True, "")
    monkeypatch.setitem(device._gpu_status, "torch", (False, "torch finds no CUDA device"))
    assert op.backend_availability("cuda") == (False, "torch finds no CUDA device")


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_cpu_build_of_the_framework_says_it_has_no_gpu(framework):
    _need(framework)
    ok, why = bridge(framework).gpu_status()
    if ok:
        pytest.skip(f"{framework} has a GPU here")
    assert why.startswith(f"{framework} ") and ("no CUDA build" in why or "no GPU" in why
                                                or "no CUDA device" in why), why


@pytest.mark.torch
def test_on_the_simulator_the_cuda_backend_is_unavailable_naming_it():
    from helpers.simulator import simulated_cupy

    op = _tanh()
    with simulated_cupy():
        ok, why = op.backend_availability("cuda")
        (result,) = run_checks(plan_cases([op], backends=["cuda"], dtypes=["float64"],
                                          checks=["forward"]))
    assert not ok
    assert "the CUDA simulator (OPSDK_CUDA_SIM) stands in for CuPy here, and no framework " \
           "takes its arrays (host memory) as CUDA tensors" in why
    assert result.status == "skip" and result.detail == why


@pytest.mark.torch
def test_derived_sizes_are_drawn_only_where_the_gpu_runs(monkeypatch):
    _no_gpu(monkeypatch)
    assert "size" not in {s.kind for s in draw_samples(_tanh("dev.no_gpu"), "float32")}
    monkeypatch.setattr(device, "_cupy_status", lambda: (True, ""))
    monkeypatch.setitem(device._gpu_status, "torch", (True, ""))
    assert "size" in {s.kind for s in draw_samples(_tanh("dev.gpu"), "float32")}


MODULE = '''
import torch
import opsdk

tanh = opsdk.foreign_op(torch.tanh, framework="torch", name="clidev.tanh",
                        inputs=[opsdk.TensorSpec(shape=(2, 3))])
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "clidev_ops.py").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("clidev_ops", None)


@pytest.mark.torch
def test_the_cli_reports_the_cuda_rows_as_skipped_with_the_reason(project, monkeypatch):
    from opsdk.cli import main

    _no_gpu(monkeypatch)
    done = CliRunner().invoke(main, ["check", "--op", "clidev_ops:tanh", "--check", "forward",
                                     "--check", "gradcheck", "--dtype", "float32",
                                     "--no-progress", "-j", "1"])
    assert done.exit_code == 0, done.output
    assert ("ok    clidev.tanh  2 passed, 2 skipped (cuda: torch 9.9+cpu has no CUDA build; "
            "CuPy is not installed)") in done.output
    only = CliRunner().invoke(main, ["check", "--op", "clidev_ops:tanh", "--backend", "cuda",
                                     "--check", "gradcheck", "--dtype", "float64", "-v",
                                     "--no-progress", "-j", "1"])
    assert only.exit_code == 0, only.output
    assert "0 passed, 0 failed, 0 errors, 1 skipped" in only.output
    assert "clidev.tanh  cuda     float64  gradcheck  skip (torch 9.9+cpu has no CUDA build" \
        in only.output


@pytest.mark.torch
def test_simulate_reports_the_cuda_rows_as_skipped_naming_the_simulator(project):
    from helpers.simulator import simulated_cupy
    from opsdk.cli import main

    with simulated_cupy():  # --simulate installs it; this removes it after
        done = CliRunner().invoke(main, ["check", "--op", "clidev_ops:tanh", "--simulate",
                                         "--check", "forward", "--dtype", "float32",
                                         "--no-progress", "-j", "1"])
    assert done.exit_code == 0, done.output
    assert "1 passed, 1 skipped (cuda: " in done.output
    assert "the CUDA simulator (OPSDK_CUDA_SIM) stands in for CuPy here" in done.output


@pytest.mark.torch
def test_a_pyproject_table_can_leave_the_gpu_out(tmp_path, monkeypatch):
    from opsdk.foreign.loading import from_pyproject

    (tmp_path / "pyproject.toml").write_text(textwrap.dedent('''
        [tool.opsdk.ops."tomldev.tanh"]
        function = "torch:tanh"
        framework = "torch"
        inputs = [{shape = [2, 3]}]
        devices = ["cpu"]
    '''))
    (op,) = from_pyproject(str(tmp_path / "pyproject.toml"))
    assert op.backends == ("python",)


# -- the whole cuda backend on the simulator, the DLPack crossings stood in for --------------------

@pytest.fixture
def simulated(monkeypatch):
    from helpers.simulator import simulated_cupy

    with simulated_cupy() as cupy:
        yield lambda framework: on_the_simulator(monkeypatch, cupy, framework)


# the checks that hold the GPU to the CPU, and those that watch the op's memory there
DEVICE_CHECKS = ["forward", "backward_agreement", "gradcheck", "sizes", "isolation", "layout"]


@pytest.mark.parametrize("framework", [
    pytest.param(f, marks=[getattr(pytest.mark, f)] + ([pytest.mark.slow] if f == "jax" else []))
    for f in ("torch", "jax", "paddle")])
def test_on_a_stood_in_gpu_the_cuda_backend_is_held_to_the_cpu(framework, simulated):
    _need(framework)
    op = importlib.import_module(f".{framework}_ops", __package__).CORRECT[0]
    taken = simulated(framework)
    assert op.backend_availability("cuda") == (True, "")
    results = run_checks(plan_cases([op], backends=["cuda"], dtypes=["float32"],
                                    checks=DEVICE_CHECKS))
    assert taken, "no device array reached the framework"
    assert sorted(r.check for r in results) == sorted(DEVICE_CHECKS)
    assert not [r for r in results if r.status not in ("pass", "n/a")], [
        (r.check, r.status, r.detail[:300]) for r in results if r.status not in ("pass", "n/a")]
    assert {r.check for r in results if r.status == "pass"} >= {
        "forward", "backward_agreement", "gradcheck", "sizes", "isolation"}


def _on_gpu(x):
    """Whether a torch tensor lives on a GPU (a stood-in one included)."""
    return x.is_cuda or getattr(x, "stand_in_cuda", False)


@pytest.mark.torch
def test_a_bug_only_on_the_gpu_fails_forward_on_cuda_and_passes_on_python(simulated):
    torch = _need("torch")

    class FastTanh(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            # a 'fast path' for the GPU: a rational approximation, 2% off at |x| = 2
            y = x * (27 + x * x) / (27 + 9 * x * x) if _on_gpu(x) else torch.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensors
            return dy * (1 - y * y)

    op = opsdk.foreign_op(FastTanh.apply, framework="torch", name="dev.fast_tanh",
                          inputs=[SPEC])
    simulated("torch")
    results = run_checks(plan_cases([op], dtypes=["float32"], checks=["forward"]))
    by_backend = {r.backend: r for r in results}
    assert by_backend["python"].status == "pass", by_backend["python"].detail
    assert by_backend["cuda"].status == "fail"
    assert "dev.fast_tanh forward on cuda (float32) disagrees with python in float64" in \
        by_backend["cuda"].detail


# the torch pack's bugs of memory and layout: the GPU's tensors share the samples' memory too
MEMORY_BUGS = ("center_rows_in_place", "center_rows_grad_in_place", "scale_aliasing",
               "row_softmax_strides")


@pytest.mark.torch
@pytest.mark.parametrize("name", MEMORY_BUGS)
def test_a_memory_or_layout_bug_is_caught_on_the_gpu_too(name, simulated):
    _need("torch")
    from . import torch_ops

    op, check, words = next(bug for bug in torch_ops.BUGS if bug[0].name == name)
    simulated("torch")
    (result,) = run_checks(plan_cases([op], backends=["cuda"], dtypes=["float64"],
                                      checks=[check]))
    assert result.status == "fail", result.detail
    assert words in result.detail
    assert f"--backend cuda --dtype float64 --check {check}" in result.replay


# -- a real GPU ----------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_on_a_gpu_the_correct_op_passes_on_the_cuda_backend(framework):
    _need(framework)
    ok, why = device.availability(bridge(framework))
    if not ok:
        pytest.skip(f"the cuda backend of {framework} foreign ops cannot run here: {why}")
    op = importlib.import_module(f".{framework}_ops", __package__).CORRECT[0]
    results = run_checks(plan_cases([op], backends=["cuda"]))
    assert not [r for r in results if r.failed], [r.detail for r in results if r.failed][:3]
    assert {"forward", "backward_agreement", "gradcheck", "sizes"} <= {
        r.check for r in results if r.status == "pass"}
