"""The CUDA kernels Elementwise.c_bodies writes (through opsdk/maths.cuh) run on the simulator
and equal the op's python kernels in both dtypes, grid-stride loops included."""
import numpy
import pytest

from opsdk.kernels.elementwise import Elementwise


def value(m, x, y, *, beta):
    return m.softplus(beta * x) * y


def grad(m, x, y, *, beta):
    return beta * m.sigmoid(beta * x) * y, m.softplus(beta * x)


def grad2(m, x, y, *, beta):
    s = m.sigmoid(beta * x)
    cross = beta * s
    return grad(m, x, y, beta=beta), ((beta * beta * s * (1 - s) * y, cross), (cross, 0.0))


OP = Elementwise("tests.sim_softgate", value, grad, grad2, inputs=("x", "y")).c_bodies(
    "softplus(beta * x) * y",
    ["beta * sigmoid(beta * x) * y", "softplus(beta * x)"],
    [["T s = sigmoid(beta * x); return beta * beta * s * (1 - s) * y;", "beta * sigmoid(beta * x)"],
     ["beta * sigmoid(beta * x)", "0"]])


def _tuple(out):
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-5), ("float64", 1e-13)])
def test_the_written_cuda_kernels_equal_the_python_ones(cp, cache, dtype, rtol):
    rng = numpy.random.default_rng(5)
    # more elements than the simulated grid has threads: the grid-stride loops loop
    x, y, dy, g, h = (rng.uniform(-30, 30, 9001).astype(dtype) for _ in range(5))
    stages = ((OP.value_kernel, (x, y)), (OP.grad_kernel, (x, y, dy)),
              (OP.grad2_kernel, (x, y, dy, g, h)))
    for kernel, args in stages:
        got = _tuple(kernel.run("cuda", *[cp.asarray(a) for a in args], beta=0.75))
        for c, p in zip(got, _tuple(kernel.run("python", *args, beta=0.75))):
            numpy.testing.assert_allclose(c.get(), p, rtol=rtol, atol=rtol, err_msg=kernel.name)
