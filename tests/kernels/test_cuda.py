"""CUDA through CuPy: launch configuration, availability; real launches on a GPU.

The GPU tests run where CuPy finds a device; their CPU companion is the nvcc compile check
of the same data/scale.cu in test_nvcc.py.
"""

import os
import sys

import numpy
import pytest

from opsdk.errors import BackendUnavailableError
from opsdk.kernels import CudaSource, Kernel, cuda, cuda_status, launch_1d, launch_config_1d

from .sample import DATA

HAS_GPU, WHY_NO_GPU = cuda_status()
requires_gpu = pytest.mark.skipif(not HAS_GPU, reason=f"needs a CUDA GPU and CuPy: {WHY_NO_GPU}")


def test_launch_config_covers_n_with_whole_blocks():
    assert launch_config_1d(1000, block=256) == (4, 256)
    assert launch_config_1d(1024, block=256) == (4, 256)
    assert launch_config_1d(1, block=128) == (1, 128)


def test_launch_config_caps_the_grid_for_grid_stride_loops():
    assert launch_config_1d(10**9, block=256, max_grid=4096) == (4096, 256)


def test_launch_config_of_nothing_launches_nothing():
    assert launch_config_1d(0) == (0, 256)


def test_launch_config_refuses_empty_blocks():
    with pytest.raises(ValueError, match="block > 0"):
        launch_config_1d(10, block=0)


def test_cuda_status_explains_a_missing_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes `import cupy` fail
    monkeypatch.setattr(cuda, "_status", None)
    assert cuda_status() == (False, "CuPy is not installed (pip install 'opsdk[cuda]')")


def test_loading_a_module_without_cuda_names_the_kernel(monkeypatch):
    monkeypatch.setattr(cuda, "_status", (False, "CuPy finds no CUDA device"))
    with pytest.raises(BackendUnavailableError, match="kernel 'tests.k'.*\n.*\n.*no CUDA device"):
        cuda.load_module(CudaSource("data/scale.cu"), kernel="tests.k")


def test_module_source_names_the_users_file_for_nvrtc_errors(fake_cupy):
    _, code = cuda.load_module(CudaSource("data/scale.cu"))
    assert code.startswith(f'#line 1 "{os.path.join(DATA, "scale.cu")}"\n')


def test_module_is_compiled_once_per_source(fake_cupy):
    source = CudaSource("data/scale.cu")
    assert cuda.load_module(source) is cuda.load_module(source)


def test_launch_1d_caps_the_grid_at_what_fills_the_device(fake_cupy):
    launches = []
    grid = launch_1d(lambda *a, **k: launches.append((a, k)), 10**6, [1, 2], block=128)
    assert grid == (64, 128)  # 32 blocks per multiprocessor, 2 multiprocessors
    assert launches == [(((64,), (128,), (1, 2)), {"shared_mem": 0})]


def test_launch_1d_passes_a_stream_to_the_kernel_call(fake_cupy):
    launches, stream = [], object()
    launch_1d(lambda *a, **k: launches.append(k), 10, [1], stream=stream)
    assert launches == [{"shared_mem": 0, "stream": stream}]


def test_launch_1d_of_nothing_launches_nothing(fake_cupy):
    assert launch_1d(lambda *a, **k: pytest.fail("launched"), 0, ()) == (0, 256)


# -- on a GPU --------------------------------------------------------------------------------

def _cuda_scale(name):
    import cupy

    kernel = Kernel(name)
    kernel.python(lambda x, *, alpha: x * alpha)

    @kernel.cuda(CudaSource("data/scale.cu", names=("scale_f32", "scale_f64")))
    def _(module, x, *, alpha):
        y = cupy.empty_like(x)
        if x.dtype == cupy.float32:
            fn, a = module.get_function("scale_f32"), numpy.float32(alpha)
        else:
            fn, a = module.get_function("scale_f64"), numpy.float64(alpha)
        launch_1d(fn, x.size, (x, y, numpy.int64(x.size), a))
        return y

    return kernel


@pytest.mark.gpu
@requires_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cuda_and_python_agree_on_gpu(dtype):
    import cupy

    kernel = _cuda_scale("tests.cuda_agree")
    x = cupy.random.default_rng(0).standard_normal(1000).astype(dtype)
    cupy.testing.assert_allclose(kernel.run("cuda", x, alpha=1.5), kernel.run("python", x, alpha=1.5), rtol=1e-6)


@pytest.mark.gpu
@requires_gpu
def test_cupy_arrays_dispatch_to_cuda():
    import cupy

    kernel = _cuda_scale("tests.cuda_dispatch")
    kernel.python(lambda x, *, alpha: pytest.fail("python ran for a CuPy array"))
    y = kernel(cupy.arange(5, dtype=cupy.float64), alpha=2.0)
    assert y.get().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


@pytest.mark.gpu
@requires_gpu
def test_grid_stride_launch_covers_more_elements_than_threads():
    import cupy

    kernel = _cuda_scale("tests.cuda_big")
    n = 3 * 32 * 256 * cupy.cuda.Device().attributes["MultiProcessorCount"] + 7  # > one grid of threads
    y = kernel(cupy.ones(n, dtype=cupy.float32), alpha=3.0)
    assert float(y.min()) == 3.0 and float(y.max()) == 3.0


@pytest.mark.gpu
@requires_gpu
def test_strided_cupy_input_is_made_contiguous():
    import cupy

    x = cupy.arange(12, dtype=cupy.float64)[::3]
    assert _cuda_scale("tests.cuda_strided")(x, alpha=2.0).get().tolist() == [0.0, 6.0, 12.0, 18.0]
