"""CUDA kernels on torch CUDA tensors through DLPack (skipped where there is no GPU)."""
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
pytestmark = [pytest.mark.gpu, pytest.mark.torch]


def _cuda_ready():
    try:
        import cupy

        return torch.cuda.is_available() and cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


needs_gpu = pytest.mark.skipif(not _cuda_ready(), reason="needs a CUDA GPU, torch with CUDA "
                                                          "and CuPy")


@needs_gpu
@pytest.mark.parametrize("name,attrs", [("example.swish", {"beta": 1.5}), ("opsdk.erf", {}),
                                        ("nn.gelu", {"approximate": False})])
def test_cuda_tensors_run_the_cuda_kernels_and_match_the_cpu(name, attrs):
    import opsdk

    f = opsdk.interop.torch.op(name)
    x = torch.linspace(-3, 3, 4096, dtype=torch.float64)
    xc = x.cuda().requires_grad_()
    y = f(xc, **attrs)
    assert y.device.type == "cuda"
    y.sum().backward()
    xr = x.clone().requires_grad_()
    f(xr, **attrs).sum().backward()
    torch.testing.assert_close(y.cpu(), f(x, **attrs), rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(xc.grad.cpu(), xr.grad, rtol=1e-10, atol=1e-12)


@needs_gpu
def test_cuda_outputs_share_memory_with_what_the_kernel_wrote():
    import opsdk

    f = opsdk.interop.torch.op("example.swish")
    x = torch.randn(1000, device="cuda", dtype=torch.float32)
    y = f(x, beta=1.0)
    assert y.is_cuda and y.data_ptr() != x.data_ptr()
    torch.testing.assert_close(y, x * torch.sigmoid(x), rtol=1e-5, atol=1e-6)
