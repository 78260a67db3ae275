import numpy as np
from opsdk.verification.check.backends import availability, dtype_availability, forced_backend
from opsdk.kernels import CSource, CudaSource, Kernel


class _Op:
    """The two attributes of OpInfo the backend logic reads."""

    def __init__(self, *kernels):
        self.kernels = kernels


def _kernel(name, python=True, c=True, dtypes=("float32", "float64")):
    kernel = Kernel(name, dtypes=dtypes)
    if python:
        kernel.python(lambda x: x + 1)
    if c:
        source = CSource(code=f"void {name.replace('.', '_')}_k(double *x) {{ x[0] += 1; }}",
                         cdef=f"void {name.replace('.', '_')}_k(double *x);")
        kernel.c(source)(lambda lib, ffi, x: x + 1)
    return kernel


def test_kernel_free_op_runs_on_python():
    assert availability(_Op(), "python") == (True, "")


def test_python_is_unavailable_when_a_kernel_has_no_python_code():
    ok, why = availability(_Op(_kernel("t.c_only", python=False)), "python")
    assert not ok and "t.c_only" in why


def test_c_is_unavailable_without_a_compiler_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CC", raising=False)
    ok, why = availability(_Op(_kernel("t.no_cc")), "c")
    assert not ok and "t.no_cc" in why


def test_cuda_is_unavailable_without_a_gpu_and_says_why(monkeypatch):
    # what cuda_status() memoises on a machine whose CuPy finds no device
    monkeypatch.setattr("opsdk.kernels.cuda._status", (False, "CuPy finds no CUDA device"))
    kernel = _kernel("t.cuda_less", c=False)
    kernel.cuda(CudaSource(code='extern "C" __global__ void k(double *x) {}', names=("k",)))(
        lambda module, x: x)
    ok, why = availability(_Op(kernel), "cuda")
    assert (ok, why) == (False, "CuPy finds no CUDA device")


def test_all_kernels_implementing_a_backend_force_it_else_dispatch_chooses():
    both, python_only = _kernel("t.both"), _kernel("t.py_only", c=False)
    assert forced_backend(_Op(both), "c") == "c"
    assert forced_backend(_Op(both, python_only), "c") is None
    assert forced_backend(_Op(both, python_only), "python") == "python"


def test_dtype_a_c_kernel_does_not_take_is_a_skip_reason():
    op = _Op(_kernel("t.f64_only", dtypes=("float64",)))
    assert dtype_availability(op, "c", "float64") == (True, "")
    ok, why = dtype_availability(op, "c", "float32")
    assert not ok and "float32" in why
    assert dtype_availability(op, "python", np.dtype("float32").name) == (True, "")
