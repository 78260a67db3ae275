"""kernel.cuda(source, "stem", outputs=, sizes=, zeroed=, threads=) on the simulator: a scatter
with atomics into a zeroed table of an attribute's size, an integer output of another shape."""
import numpy

from opsdk.kernels import CudaSource, Kernel

CODE = r"""
template <typename T> __device__ void scatter(const T *rows, const long long *index, T *table,
                                              long long count, long long width) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count * width;
         i += (long long)blockDim.x * gridDim.x)
        atomicAdd(&table[index[i / width] * width + i % width], rows[i]);
}
template <typename T> __device__ void argmin(const T *x, long long *index, long long rows,
                                             long long cols) {
    for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < rows;
         r += (long long)blockDim.x * gridDim.x) {
        long long best = 0;
        for (long long c = 1; c < cols; c++) if (x[r * cols + c] < x[r * cols + best]) best = c;
        index[r] = best;
    }
}
extern "C" __global__ void scatter_rows_f32(const float *rows, const long long *index, float *table,
                                            long long count, long long width) {
    scatter(rows, index, table, count, width);
}
extern "C" __global__ void scatter_rows_f64(const double *rows, const long long *index, double *table,
                                            long long count, long long width) {
    scatter(rows, index, table, count, width);
}
extern "C" __global__ void argmin_rows_f32(const float *x, long long *index, long long rows, long long cols) {
    argmin(x, index, rows, cols);
}
extern "C" __global__ void argmin_rows_f64(const double *x, long long *index, long long rows, long long cols) {
    argmin(x, index, rows, cols);
}
"""
SOURCE = CudaSource(code=CODE)


def test_a_scatter_with_atomics_into_a_zeroed_table(cp, cache):
    kernel = Kernel("tests.layout_cuda.scatter", dtypes=("float32", "float64"),
                    arg_dtypes={"index": "int64"}).cuda(
        SOURCE, "scatter_rows", outputs={"table": lambda rows, *, size: (size, rows.shape[1])},
        sizes={"count": lambda rows: rows.shape[0], "width": lambda rows: rows.shape[1]},
        zeroed=("table",), threads=lambda rows: rows.size)
    rng = numpy.random.default_rng(3)
    rows, index = rng.standard_normal((300, 5)), rng.integers(0, 7, 300)  # many rows per entry
    want = numpy.zeros((7, 5))
    numpy.add.at(want, index, rows)
    got = kernel.run("cuda", cp.asarray(rows), cp.asarray(index), size=7)
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12)


def test_an_integer_output_of_another_shape(cp, cache):
    kernel = Kernel("tests.layout_cuda.argmin", dtypes=("float32", "float64")).cuda(
        SOURCE, "argmin_rows", outputs={"index": lambda x: x.shape[:-1]},
        sizes={"rows": lambda x: x.size // x.shape[-1], "cols": lambda x: x.shape[-1]},
        threads=lambda x: x.size // x.shape[-1])
    x = numpy.random.default_rng(4).standard_normal((2, 300, 9)).astype(numpy.float32)
    got = kernel.run("cuda", cp.asarray(x))
    assert got.dtype == numpy.int64 and got.shape == (2, 300)
    numpy.testing.assert_array_equal(got.get(), numpy.argmin(x, axis=-1))
