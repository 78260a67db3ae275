"""The CUDA kernels on a GPU: every op's forward and gradients vs the float64 python kernel.

Marked ``gpu`` and skipped, with the reason, where CuPy finds no device. Their CPU companions
are the nvcc compile checks in tests/kernels/test_sources.py; gpu_check.py runs these and the
GPU benchmark in one go.
"""
import numpy
import pytest

import opsdk
from opsdk.kernels import cuda_status, use_backend
from opsdk_nn import functional as F

AVAILABLE, WHY = cuda_status()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not AVAILABLE, reason=WHY or "no CUDA device")]

TOL = {"float32": dict(rtol=3e-5, atol=3e-5), "float64": dict(rtol=1e-10, atol=1e-10)}
RNG = numpy.random.default_rng(0)

# (id, call on tensors, arrays) -- wide rows and non-last axes reach the block and column kernels
CASES = [
    ("gelu", lambda x: F.gelu(x), [RNG.normal(0, 4, (257, 129))]),
    ("gelu_tanh", lambda x: F.gelu(x, approximate=True), [RNG.normal(0, 4, 5000)]),
    ("silu", F.silu, [RNG.normal(0, 6, 5000)]),
    ("softplus", lambda x: F.softplus(x, beta=2.0, threshold=3.0), [RNG.normal(0, 3, 5000)]),
    ("mish", F.mish, [RNG.normal(0, 5, 5000)]),
    ("softmax_rows", lambda x: F.softmax(x), [RNG.normal(0, 3, (64, 300))]),
    ("softmax_block", lambda x: F.softmax(x), [RNG.normal(0, 3, (8, 5000))]),
    ("softmax_cols", lambda x: F.softmax(x, axis=1), [RNG.normal(0, 3, (4, 50, 33))]),
    ("log_softmax_block", lambda x: F.log_softmax(x), [RNG.normal(0, 3, (8, 9000))]),
    ("log_softmax_cols", lambda x: F.log_softmax(x, axis=0), [RNG.normal(0, 3, (40, 70))]),
    ("layer_norm_rows", lambda x, w, b: F.layer_norm(x, 300, w, b),
     [RNG.normal(1, 2, (600, 300)), RNG.uniform(0.5, 1.5, 300), RNG.normal(0, 1, 300)]),
    ("layer_norm_block", lambda x, w, b: F.layer_norm(x, 3000, w, b),
     [RNG.normal(1, 2, (40, 3000)), RNG.uniform(0.5, 1.5, 3000), RNG.normal(0, 1, 3000)]),
    ("rms_norm_rows", lambda x, w: F.rms_norm(x, 300, w)[0],
     [RNG.normal(0, 2, (600, 300)), RNG.uniform(0.5, 1.5, 300)]),
    ("rms_norm_block", lambda x, w: F.rms_norm(x, 2048, w)[0],
     [RNG.normal(0, 2, (30, 2048)), RNG.uniform(0.5, 1.5, 2048)]),
]


def _run(call, arrays, dtype, place, backend):
    with use_backend(backend):
        tensors = [opsdk.to_tensor(a.astype(dtype), place=place, stop_gradient=False) for a in arrays]
        y = call(*tensors)
        seed = opsdk.to_tensor(numpy.linspace(-1, 1, y.size).reshape(y.shape).astype(dtype), place=place)
        grads = opsdk.grad([y], tensors, grad_outputs=[seed])
        return [y.numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("name, call, arrays", CASES, ids=[c[0] for c in CASES])
def test_cuda_matches_the_float64_python_kernel(name, call, arrays, dtype):
    got = _run(call, arrays, dtype, "gpu", "cuda")
    want = _run(call, arrays, "float64", "cpu", "python")
    for g, w in zip(got, want):
        assert g.dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(g, w, **TOL[dtype])


@pytest.mark.parametrize("n", [300, 5000])
def test_cross_entropy_cuda_matches_python(n, dtype):
    x = RNG.normal(0, 3, (64, n))
    label = RNG.integers(0, n, 64)
    label[::5] = -100

    def run(dt, place, backend):
        with use_backend(backend):
            t = opsdk.to_tensor(x.astype(dt), place=place, stop_gradient=False)
            loss = F.cross_entropy(t, opsdk.to_tensor(label, place=place))
            (g,) = opsdk.grad([loss], [t])
            return loss.numpy(), g.numpy()

    for g, w in zip(run(dtype, "gpu", "cuda"), run("float64", "cpu", "python")):
        numpy.testing.assert_allclose(g, w, **TOL[dtype])


def test_double_backward_kernel_on_the_gpu(dtype):
    xa = RNG.normal(0, 3, 4096)
    results = []
    for place, backend, dt in (("gpu", "cuda", dtype), ("cpu", "python", "float64")):
        with use_backend(backend):
            x = opsdk.to_tensor(xa.astype(dt), place=place, stop_gradient=False)
            (d1,) = opsdk.grad([F.mish(x)], [x], grad_outputs=[opsdk.ones_like(x)], create_graph=True)
            (d2,) = opsdk.grad([d1], [x], grad_outputs=[opsdk.ones_like(x)])
            results.append(d2.numpy())
    numpy.testing.assert_allclose(results[0], results[1], **TOL[dtype])
