"""opsdk.device's questions about the machine: Paddle's CPU build's answers where opsdk runs on
the CPU, CuPy's (here the simulator's) where it finds a GPU."""
import pytest

import opsdk
from helpers.frameworks import import_paddle
from helpers.simulator import simulated_cupy

# `pytest --opsdk-cuda-sim` gives the run a simulated GPU; these answers are the CPU's
from helpers.simulator import as_a_machine_without_gpu  # noqa: F401 -- an autouse fixture

D = opsdk.device
SAME_AS_PADDLE_CPU = ["is_compiled_with_cuda", "is_compiled_with_xpu", "is_compiled_with_ipu",
                      "is_compiled_with_rocm", "is_compiled_with_cinn", "device_count",
                      "is_available", "get_all_device_type", "get_all_custom_device_type",
                      "get_available_device", "get_available_custom_device",
                      "get_cudnn_version", "is_current_stream_capturing", "get_device"]


@pytest.mark.paddle
@pytest.mark.parametrize("name", SAME_AS_PADDLE_CPU)
def test_cpu_answers_as_paddle(name):
    paddle = import_paddle()
    assert getattr(D, name)() == getattr(paddle.device, name)()


@pytest.mark.paddle
def test_get_device_of_a_tensor_and_custom_devices_as_paddle():
    paddle = import_paddle()
    for P in (opsdk, paddle):
        assert P.get_device(P.to_tensor([1, 2, 3], place=P.CPUPlace())) == -1
        assert P.device.is_compiled_with_custom_device("npu") is False


def test_opsdk_has_no_distributed_runtime_nor_bfloat16():
    # Paddle's CPU build answers True to both; opsdk has neither
    assert D.is_compiled_with_distribute() is False and D.is_bf16_supported() is False


def test_the_simulated_gpu_is_found():
    with simulated_cupy():
        assert D.device_count() >= 1 and D.is_compiled_with_cuda() and D.is_available()
        assert D.get_all_device_type() == ["gpu"]
        assert D.get_available_device()[0] == "gpu:0"
        assert isinstance(D.get_device_name(), str) and D.get_device_name("gpu:0")
        assert D.get_device_capability(0) == (8, 0)
        assert opsdk.get_device(opsdk.ones([1], place="gpu")) == 0


def test_gpu_questions_without_a_gpu_are_refused():
    with pytest.raises(opsdk.errors.NoDeviceError, match="expected: a GPU index below"):
        D.get_device_name()
    with pytest.raises(ValueError, match="expected: a GPU; got: Place\\(cpu\\)"):
        D.get_device_properties("cpu")


@pytest.mark.paddle
@pytest.mark.parametrize("name", ["is_compiled_with_cuda", "is_compiled_with_xpu",
                                  "is_compiled_with_ipu", "is_compiled_with_rocm",
                                  "is_compiled_with_cinn"])
def test_top_level_names_as_paddle(name):
    paddle = import_paddle()
    assert getattr(opsdk, name)() == getattr(paddle, name)() is False
    assert getattr(opsdk, name) is getattr(D, name)
