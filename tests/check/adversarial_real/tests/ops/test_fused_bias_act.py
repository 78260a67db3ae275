"""fused_bias_act: both outputs and all four gradients against a float64 NumPy reference, on every backend here.

The CUDA kernels are compile-checked with nvcc where it exists, and run on a GPU where there is one.

gradcheck, backend agreement and the refusal of a second order are checked by tests/test_checks.py.
"""
import numpy
import pytest

import opsdk
from opsdk.kernels import cuda_status, use_backend

import realops.ops.fused_bias_act as op

DTYPES = ("float32", "float64")
RTOL = {"float32": 1e-5, "float64": 1e-12}


def sigmoid(z):
    return 1 / (1 + numpy.exp(-z))


def reference(gate_i, gate_o, gate_c, old_cell):
    """(new_h, new_cell) in float64: change it together with the kernels."""
    new_cell = old_cell + sigmoid(gate_i) * numpy.tanh(gate_c)
    return numpy.tanh(new_cell) * sigmoid(gate_o), new_cell


def inputs(dtype, shape=(5, 7)):
    rng = numpy.random.default_rng(0)
    return [rng.uniform(-3, 3, shape).astype(dtype) for _ in op.NAMES]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("backend", op.forward.available_backends("cpu"))
def test_outputs_match_reference(backend, dtype):
    arrays = inputs(dtype)
    with use_backend(backend):
        new_h, new_cell = op.FusedBiasAct.apply(*(opsdk.to_tensor(a) for a in arrays))
    for got, want in zip((new_h, new_cell), reference(*(a.astype(numpy.float64) for a in arrays))):
        assert got.numpy().dtype == numpy.dtype(dtype)
        numpy.testing.assert_allclose(got.numpy(), want, rtol=RTOL[dtype], atol=RTOL[dtype])


@pytest.mark.parametrize("backend", op.backward.available_backends("cpu"))
def test_gradients_match_central_differences(backend):
    arrays = inputs("float64", (3, 4))
    tensors = [opsdk.to_tensor(a, stop_gradient=False) for a in arrays]
    with use_backend(backend):
        new_h, new_cell = op.FusedBiasAct.apply(*tensors)
        (new_h.sum() + 2 * new_cell.sum()).backward()
    loss = lambda values: sum(w * r.sum() for w, r in zip((1, 2), reference(*values)))  # noqa: E731
    for k, tensor in enumerate(tensors):
        step = numpy.zeros_like(arrays[k])
        numeric = numpy.empty_like(arrays[k])
        for index in numpy.ndindex(arrays[k].shape):
            step[index] = 1e-6
            plus = [a + step if j == k else a for j, a in enumerate(arrays)]
            minus = [a - step if j == k else a for j, a in enumerate(arrays)]
            numeric[index] = (loss(plus) - loss(minus)) / 2e-6
            step[index] = 0
        numpy.testing.assert_allclose(tensor.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


def test_inputs_of_other_shapes_are_refused():
    gate = opsdk.ones([2, 3], dtype="float64")
    with pytest.raises(opsdk.errors.OpArgumentError, match="gate_o"):
        op.FusedBiasAct.apply(gate, opsdk.ones([3], dtype="float64"), gate, gate)


def test_lltm_step_differentiates_the_matmul_and_the_cell():
    x, old_h, old_cell = (opsdk.randn([2, 3], dtype="float64") for _ in range(3))
    weight = opsdk.randn([6, 9], dtype="float64")
    weight.stop_gradient = False
    new_h, new_cell = op.lltm_step(x, old_h, old_cell, weight, opsdk.zeros([9], dtype="float64"))
    (new_h.sum() + new_cell.sum()).backward()
    assert weight.grad.shape == [6, 9] and numpy.isfinite(weight.grad.numpy()).all()


def test_cuda_source_compiles_with_nvcc():
    result = op.forward.check_cuda()  # both kernels share one source
    if not result.checked:
        pytest.skip(result.reason)
    for stage in ("forward", "backward"):
        for suffix in ("f32", "f64"):
            assert f".entry fused_bias_act_{stage}_{suffix}(" in result.ptx


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_cuda_kernels_match_python_on_gpu(dtype):
    available, why = cuda_status()
    if not available:
        pytest.skip(why)
    import cupy

    arrays = [cupy.asarray(a) for a in inputs(dtype, (1001, 103))]
    grads = [cupy.cos(arrays[0]), cupy.sin(arrays[1])]
    for kernel, args in ((op.forward, arrays), (op.backward, arrays + grads)):
        for got, want in zip(kernel.run("cuda", *args), kernel.run("python", *args)):
            cupy.testing.assert_allclose(got, want, rtol=RTOL[dtype] * 10, atol=RTOL[dtype])
