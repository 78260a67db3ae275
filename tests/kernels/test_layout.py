"""kernel.c(source, "stem", outputs=, sizes=, zeroed=, scratch=): declared adapters for arrays of
other shapes and dtypes, sizes read from shapes, outputs that start at zero, work arrays."""
import numpy
import pytest

from opsdk.errors import KernelArgumentError, KernelBuildError
from opsdk.kernels import CSource, Kernel

SOURCE = CSource("data/shaped.c", cdef="\n".join(
    f"""void ema_{s}(const {T} *x, {T} *y, int64_t batch, int64_t steps, {T} a);
void argmin_rows_{s}(const {T} *x, {T} *values, int64_t *index, int64_t rows, int64_t cols);
void bias_channels_{s}(const {T} *x, const {T} *bias, {T} *y, int64_t n, int64_t channels, int64_t inner);
void scatter_rows_{s}(const {T} *rows, const int64_t *index, {T} *table, int64_t count, int64_t width);"""
    for s, T in (("f32", "float"), ("f64", "double"))))


def ema(name="tests.layout.ema"):
    return Kernel(name).c(SOURCE, "ema", sizes={"batch": lambda x: x.shape[0],
                                                "steps": lambda x: x.shape[1]})


def argmin():
    rows = lambda x: x.shape[:-1]  # noqa: E731
    return Kernel("tests.layout.argmin").c(
        SOURCE, "argmin_rows", outputs={"values": rows, "index": rows},
        sizes={"rows": lambda x: x.size // x.shape[-1], "cols": lambda x: x.shape[-1]})


def scatter():
    return Kernel("tests.layout.scatter", arg_dtypes={"index": "int64"}).c(
        SOURCE, "scatter_rows", outputs={"table": lambda rows, *, size: (size, rows.shape[1])},
        sizes={"count": lambda rows: rows.shape[0], "width": lambda rows: rows.shape[1]},
        zeroed=("table",))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sizes_come_from_the_input_shapes(cache, dtype):
    x = numpy.random.default_rng(0).standard_normal((3, 7)).astype(dtype)
    want = numpy.empty_like(x)
    prev = numpy.zeros(3, dtype)
    for t in range(7):
        prev = 0.25 * prev + 0.75 * x[:, t]
        want[:, t] = prev
    got = ema()(x, a=0.25)
    assert got.dtype == x.dtype
    numpy.testing.assert_allclose(got, want, rtol=1e-6)


def test_outputs_of_another_shape_and_an_integer_dtype(cache):
    x = numpy.array([[[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]]])
    values, index = argmin()(x)
    assert values.shape == index.shape == (1, 2) and index.dtype == numpy.int64
    numpy.testing.assert_array_equal(index, numpy.argmin(x, axis=-1))
    numpy.testing.assert_array_equal(values, numpy.min(x, axis=-1))


def test_a_per_channel_input_of_another_shape(cache):
    kernel = Kernel("tests.layout.bias").c(
        SOURCE, "bias_channels", sizes={"channels": lambda bias: bias.size,
                                        "inner": lambda x: int(numpy.prod(x.shape[2:]))})
    x = numpy.zeros((2, 3, 4), numpy.float32)
    bias = numpy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(kernel(x, bias), x + bias[:, None])


def test_an_integer_input_an_attribute_sized_output_that_starts_at_zero(cache):
    rows = numpy.arange(6.0).reshape(3, 2)
    index = numpy.array([2, 0, 2])
    want = numpy.zeros((4, 2))
    numpy.add.at(want, index, rows)
    numpy.testing.assert_array_equal(scatter()(rows, index, size=4), want)


def test_a_work_array_is_passed_but_not_returned(cache):
    rows = lambda x: x.shape[:-1]  # noqa: E731
    kernel = Kernel("tests.layout.argmin_index").c(
        SOURCE, "argmin_rows", outputs={"values": rows, "index": rows}, scratch={"values": "float64"},
        sizes={"rows": lambda x: x.size // x.shape[-1], "cols": lambda x: x.shape[-1]})
    x = numpy.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    index = kernel(x)
    numpy.testing.assert_array_equal(index, [1, 2])


def test_an_integer_input_of_another_dtype_is_refused_naming_it(cache):
    with pytest.raises(KernelArgumentError, match=r"argument 'index'\n  expected: dtype int64 \(its C type\)"
                                                  r"\n  got: int32"):
        scatter()(numpy.ones((3, 2)), numpy.zeros(3, numpy.int32), size=1)


def test_a_float_input_of_the_other_float_dtype_is_refused(cache):
    kernel = Kernel("tests.layout.bias_mixed").c(
        SOURCE, "bias_channels", sizes={"channels": lambda bias: bias.size, "inner": lambda x: 1})
    with pytest.raises(KernelArgumentError, match=r"argument 'bias'\n  expected: dtype float32 \(as 'x'\)"):
        kernel(numpy.ones(3, numpy.float32), numpy.ones(3))


@pytest.mark.parametrize("layout, message", [
    ({"sizes": {"rows": lambda x: 1}}, "sizes naming number parameters of ema_f32 \\(batch, steps, a\\)\n  got: 'rows'"),
    ({"outputs": {"z": lambda x: 1}}, "outputs naming outputs of ema_f32 \\(y\\)"),
    ({"sizes": {"batch": lambda y: 1, "steps": lambda x: 1}}, "reading inputs \\(x\\) or attributes \\(a; others keyword-only\\)"),
    ({"zeroed": ("x",)}, "zeroed naming outputs"),
    ({"scratch": {"x": "float64"}}, "scratch naming outputs"),
    ({"scratch": {"y": "no-such-dtype"}}, "scratch dtypes NumPy knows"),
    ({"sizes": {"batch": 3}}, "a function of the inputs and attributes")])
def test_a_layout_that_does_not_fit_the_declaration_is_refused_when_bound(cache, layout, message):
    kernel = Kernel("tests.layout.bad").c(SOURCE, "ema", **layout)
    with pytest.raises(KernelBuildError, match=message):
        kernel(numpy.ones((2, 2)), a=0.5)


def test_a_negative_size_is_refused_before_the_call(cache):
    kernel = Kernel("tests.layout.negative").c(SOURCE, "ema", sizes={"batch": lambda x: -1,
                                                                      "steps": lambda x: 1})
    with pytest.raises(KernelArgumentError, match=r"sizes\['batch'\]\n  expected: an integer >= 0\n  got: -1"):
        kernel(numpy.ones((2, 2)), a=0.5)


def test_missing_and_unknown_attributes_are_named(cache):
    with pytest.raises(KernelArgumentError, match="expected: a\n  got: no a"):
        ema("tests.layout.no_attr")(numpy.ones((2, 2)))
    with pytest.raises(KernelArgumentError, match="expected: a\n  got: b"):
        ema("tests.layout.other_attr")(numpy.ones((2, 2)), a=0.5, b=1.0)


def test_a_layout_needs_a_declared_function():
    with pytest.raises(TypeError, match="a hand-written adapter sizes its own arrays"):
        Kernel("tests.layout.hand").c(SOURCE, sizes={"n": lambda x: 1})
