"""kernel.c(source, "stem") / kernel.cuda(source, "stem"): adapters written from the functions' declarations."""

import numpy
import pytest

from opsdk.errors import KernelArgumentError, KernelBuildError
from opsdk.kernels import CSource, CudaSource, Kernel, use_backend
from opsdk.kernels.adapters import CudaAdapter

from .sample import FakeGpuArray

SOURCE = CSource("data/adapted.c")


def kernel(stem, name=None):
    k = Kernel(name or f"tests.adapted.{stem}")
    return k.c(SOURCE, stem)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inputs_attributes_and_the_output_follow_the_declaration(cache, dtype):
    x, y = numpy.arange(5, dtype=dtype), numpy.ones(5, dtype)
    out = kernel("axpy")(x, y, a=2.0)
    assert out.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(out, 2 * x + 1)


def test_several_outputs_come_back_as_a_tuple_in_declaration_order(cache):
    below, above = kernel("split")(numpy.arange(3.0))
    numpy.testing.assert_array_equal(below, [-1, 0, 1])
    numpy.testing.assert_array_equal(above, [1, 2, 3])


def test_registering_returns_the_kernel_and_adds_the_c_backend(cache):
    k = Kernel("tests.adapted.chained")
    assert k.c(SOURCE, "axpy") is k and k.backends == ("c",)


@pytest.mark.parametrize("layout", ["transposed", "strided", "reversed", "broadcast"])
def test_non_contiguous_inputs_give_the_contiguous_result(cache, layout):
    base = numpy.arange(12.0).reshape(3, 4)
    x = {"transposed": base.T, "strided": base[:, ::2], "reversed": base[::-1],
         "broadcast": numpy.broadcast_to(base[0], (3, 4))}[layout]
    out = kernel("axpy")(x, numpy.ones(x.shape), a=3.0)
    numpy.testing.assert_array_equal(out, 3 * x + 1)
    assert out.shape == x.shape and out.flags.c_contiguous


@pytest.mark.parametrize("shape", [(0,), (), (2, 0, 3)])
def test_empty_and_zero_dimensional_arrays(cache, shape):
    x = numpy.full(shape, 2.0)
    out = kernel("axpy")(x, x, a=1.0)
    assert out.shape == shape
    numpy.testing.assert_array_equal(out, x + x)


def test_outputs_never_share_memory_with_inputs(cache):
    x = numpy.ones(1000)
    below, above = kernel("split")(x)
    assert not numpy.shares_memory(below, x) and not numpy.shares_memory(above, x)
    assert not numpy.shares_memory(below, above)


def test_an_input_of_another_shape_is_refused_by_name(cache):
    with pytest.raises(KernelArgumentError, match=r"(?s)argument 'y'.*expected: the shape of 'x'.*got: \(4,\)"):
        kernel("axpy")(numpy.ones(3), numpy.ones(4), a=1.0)


def test_inputs_of_two_dtypes_are_refused(cache):
    with pytest.raises(KernelArgumentError, match="arguments 'x' and 'y' have different float dtypes"):
        kernel("axpy")(numpy.ones(3), numpy.ones(3, numpy.float32), a=1.0)


def test_an_unsupported_dtype_names_the_supported_ones(cache):
    with pytest.raises(KernelArgumentError, match="(?s)argument 'x'.*float32, float64.*got: int64"):
        kernel("axpy")(numpy.arange(3), numpy.arange(3), a=1.0)


def test_a_list_is_refused_as_not_an_array(cache):
    with pytest.raises(KernelArgumentError, match="(?s)argument 'x'.*numpy.ndarray.*builtins.list"):
        kernel("axpy")([1.0], numpy.ones(1), a=1.0)


def test_an_attribute_the_function_cannot_take_names_its_parameters(cache):
    with pytest.raises(KernelArgumentError, match=r"(?s)attributes of axpy_<dtype>.*a \(float\).*a='fast'"):
        kernel("axpy")(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32), a="fast")


def test_a_missing_dtype_function_is_a_build_error_listing_what_exists(cache):
    k = Kernel("tests.adapted.missing", dtypes=("float32", "float64", "float16")).c(SOURCE, "axpy")
    with pytest.raises(KernelBuildError, match="(?s)axpy_f16.*found: axpy_f32, axpy_f64"):
        k(numpy.ones(2), numpy.ones(2), a=1.0)


def test_a_function_without_an_element_count_cannot_be_adapted(cache):
    with pytest.raises(KernelBuildError, match="(?s)integer 'n'.*sizeless_f32"):
        kernel("sizeless")(numpy.ones(2))


def test_functions_of_the_two_dtypes_must_take_the_same_parameters(cache):
    with pytest.raises(KernelBuildError, match="(?s)uneven_f64 with the parameters of uneven_f32"):
        kernel("uneven")(numpy.ones(2))


def test_run_c_takes_the_same_path(cache):
    k = kernel("axpy", "tests.adapted.run")
    k.python(lambda x, y, *, a: a * x + y)
    x = numpy.linspace(0, 1, 7)
    numpy.testing.assert_array_equal(k.run("c", x, x, a=2.0), k.run("python", x, x, a=2.0))
    with use_backend("c"):
        numpy.testing.assert_array_equal(k(x, x, a=2.0), 3 * x)


def test_the_generated_adapter_is_plain_python_with_the_declared_signature(cache):
    k = kernel("axpy", "tests.adapted.source")
    k(numpy.ones(1), numpy.ones(1), a=1.0)
    (adapter, *_), = k._plans.values()
    assert adapter.source.startswith("def axpy(x, y, *, a):")



def test_c_names_that_are_python_keywords_still_make_an_adapter(cache):
    k = kernel("keywords")
    x = numpy.arange(4.0)
    numpy.testing.assert_array_equal(k(x, **{"lambda": 3.0}), 3 * x)
    with pytest.raises(KernelArgumentError, match="expected: lambda"):
        k(x)


# -- CUDA: the launch, checked against a stand-in module (a GPU run is in the generated packs' tests)

class FakeModule:
    def __init__(self):
        self.launches = []

    def get_function(self, name):
        return lambda grid, block, args, shared_mem=0: self.launches.append((name, grid, block, args))


CU = CudaSource(code='extern "C" __global__ void axpy_f32(const float *x, const float *y, float *out, long long n, float a) {}\n'
                     'extern "C" __global__ void axpy_f64(const double *x, const double *y, double *out, long long n, double a) {}\n')


@pytest.mark.parametrize("dtype, scalar", [("float32", numpy.float32), ("float64", numpy.float64)])
def test_the_cuda_adapter_launches_the_dtypes_kernel_with_typed_scalars(fake_cupy, dtype, scalar):
    fake_cupy.empty = lambda shape, dtype: FakeGpuArray(numpy.empty(shape, dtype))
    module = FakeModule()
    adapter = CudaAdapter("axpy").bind(module, CU, "tests.cuda.axpy", (numpy.dtype("float32"), numpy.dtype("float64")))
    x = FakeGpuArray(numpy.ones(1000, dtype))
    out = adapter(x, x, a=2.0)
    ((name, grid, block, args),) = module.launches
    assert name == f"axpy_{'f32' if dtype == 'float32' else 'f64'}" and block == (256,)
    assert args[0] is x and args[1] is x and args[2] is out
    assert type(args[3]) is numpy.int64 and args[3] == 1000
    assert type(args[4]) is scalar and args[4] == 2.0


def test_cuda_kernels_with_unreadable_parameters_are_skipped_unless_adapted():
    source = CudaSource(code='extern "C" __global__ void h(const __half *x, __half *y) {}\n' + CU.code)
    assert source.names == ("h", "axpy_f32", "axpy_f64")
    assert set(source.prototypes({"axpy_f32"})) == {"axpy_f32", "axpy_f64"}
    with pytest.raises(KernelBuildError, match="cannot read the function declarations"):
        source.prototypes({"h"})


def test_the_cuda_adapter_refuses_inputs_of_another_shape(fake_cupy):
    adapter = CudaAdapter("axpy").bind(FakeModule(), CU, "tests.cuda.axpy", (numpy.dtype("float64"),))
    with pytest.raises(KernelArgumentError, match="argument 'y'"):
        adapter(FakeGpuArray(numpy.ones(3)), FakeGpuArray(numpy.ones(4)), a=1.0)
