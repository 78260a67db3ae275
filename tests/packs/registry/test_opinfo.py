"""OpInfo: calling a registered op, its backends, tolerances and verification samples."""
import numpy as np
import pytest

import opsdk
from opsdk.errors import SampleError
from opsdk.kernels import CSource, CudaSource, Kernel
from opsdk.packs.registry import Sample, TensorSpec, build_opinfo

from .conftest import Swish


def _op(**options):
    options.setdefault("name", "swish")
    if "samples" not in options:
        options.setdefault("inputs", [TensorSpec(shape=(3, 4), domain=(-3.0, 3.0), avoid=(0.0,))])
    return build_opinfo("mypack", "1.0", "mypack-dist", Swish, options)


def test_calling_the_op_applies_its_function():
    x = opsdk.to_tensor([0.0, 1.0], dtype="float64", stop_gradient=False)
    y = _op()(x, beta=2.0)
    expected = Swish.apply(x, 2.0).numpy()
    np.testing.assert_allclose(y.numpy(), expected)
    y.sum().backward()
    assert x.grad is not None


def test_qualname_and_summary():
    op = _op(doc="Swish activation.\n\nLonger text.")
    assert (op.qualname, op.summary, op.__doc__) == ("mypack.swish", "Swish activation.", op.doc)


def test_backends_always_include_python_and_follow_the_kernels():
    assert _op().backends == ("python",)
    only_c = Kernel("test_opinfo.only_c")
    only_c.c(CSource(code="void f(void) {}", cdef="void f(void);"))(lambda lib, ffi: None)
    cuda = Kernel("test_opinfo.cuda")
    cuda.cuda(CudaSource(code="extern \"C\" __global__ void g() {}", names=("g",)))(lambda m: None)
    assert _op(kernels=(cuda, only_c)).backends == ("python", "c", "cuda")


def test_tolerance_is_the_atol_rtol_pair():
    assert _op(atol=0.5).tolerance("float16") == (0.5, 5e-2)


def test_spec_samples_are_drawn_in_the_asked_dtype_with_the_attrs():
    (sample,) = _op(attrs={"beta": 1.5}).samples("float64", rng=0)
    (x,) = sample.args
    assert (x.shape, x.dtype, x.stop_gradient, sample.kwargs) == ([3, 4], np.float64, False, {"beta": 1.5})
    assert np.abs(x.numpy()).min() >= 1e-3


def test_same_seed_gives_the_same_samples():
    op = _op()
    first, second = op.samples("float32", rng=7), op.samples("float32", rng=7)
    np.testing.assert_array_equal(first[0].args[0].numpy(), second[0].args[0].numpy())


def test_samples_callable_gets_rng_and_dtype_name_and_arrays_become_tensors():
    seen = []

    def samples(rng, dtype):
        seen.append((isinstance(rng, np.random.Generator), dtype))
        yield Sample(args=(rng.uniform(size=3).astype(dtype),), kwargs={"beta": 2.0})

    (sample,) = _op(samples=samples).samples(opsdk.float32, rng=0)
    assert seen == [(True, "float32")]
    assert isinstance(sample.args[0], opsdk.Tensor) and sample.args[0].dtype == np.float32


def test_samples_callable_returning_garbage_names_the_op():
    with pytest.raises(SampleError, match="op 'mypack.swish': samples\\(rng, dtype\\) item 0"):
        _op(samples=lambda rng, dtype: [(1.0,)]).samples("float64")
    with pytest.raises(SampleError, match="must return an iterable of Sample; got: NoneType"):
        _op(samples=lambda rng, dtype: None).samples("float64")
    with pytest.raises(SampleError, match="returned no samples"):
        _op(samples=lambda rng, dtype: []).samples("float64")


def test_repr_names_op_pack_and_function():
    assert repr(_op()) == "<op mypack.swish (mypack 1.0): Swish>"
