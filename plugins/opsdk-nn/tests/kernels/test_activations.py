"""The activation kernels (value, grad, grad2), written by the SDK from scalar bodies: C agrees with
python on a large array (threaded loops), and nvcc compiles the CUDA the SDK writes."""
import re

import numpy
import pytest

from opsdk.kernels import check_cuda_source, find_nvcc
from opsdk_nn.kernels import activations

from .agreement import assert_c_agrees, needs_c

RNG = numpy.random.default_rng(0)
ATTRS = {"softplus": {"beta": 2.0, "threshold": 3.0}}


@needs_c
@pytest.mark.parametrize("act", sorted(activations.OPS))
def test_activation_kernels_agree_on_a_large_array(act, dtype):
    x = RNG.normal(0, 4, 150_001).astype(dtype)
    dy, g = (RNG.normal(0, 1, x.size).astype(dtype) for _ in range(2))
    op, attrs = activations.OPS[act], ATTRS.get(act, {})
    assert_c_agrees(op.value_kernel, x, dtype=dtype, **attrs)
    assert_c_agrees(op.grad_kernel, x, dy, dtype=dtype, **attrs)
    assert_c_agrees(op.grad2_kernel, x, dy, g, dtype=dtype, **attrs)


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not found: CUDA sources cannot be compile-checked")
@pytest.mark.parametrize("act", sorted(activations.OPS))
def test_cuda_written_from_the_bodies_compiles_with_nvcc(act):
    op = activations.OPS[act]
    checked = check_cuda_source(op.value_kernel.sources["cuda"])
    assert checked.checked
    entries = set(re.findall(r"\.entry\s+(\w+)", checked.ptx))
    assert entries == {f"{act}_{stage}_{s}" for stage in ("value", "grad", "grad2") for s in ("f32", "f64")}
