"""Fixtures for CLI tests: invoking opsdk in-process, a private cache, and in-test packs."""
import itertools
import types

import numpy
import pytest
from click.testing import CliRunner

import opsdk
import opsdk.plugins
from opsdk import TensorSpec, hookimpl
from opsdk.cli import main
from opsdk.kernels import CSource, CudaSource, Kernel, c_pointer

GOOD_C = ("void twice(const double *x, double *y, int64_t n) {\n"
          "    for (int64_t i = 0; i < n; i++) y[i] = 2 * x[i];\n}\n")
BAD_C = "void twice(const double *x, double *y, int64_t n) {\n    y[0] = 2 * x[0]\n}\n"
GOOD_CU = ('extern "C" __global__ void twice(const double *x, double *y, long long n) {\n'
           "    y[0] = 2 * x[0];\n}\n")
BAD_CU = GOOD_CU.replace("x[0];", "x[0]")

_counter = itertools.count()


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """A private kernel cache, no installed third-party pack, and a fresh registry afterwards."""
    monkeypatch.setenv("OPSDK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPSDK_LOAD_PLUGINS", "")
    monkeypatch.delenv("OPSDK_BACKEND", raising=False)
    opsdk.plugins.reload()
    yield
    monkeypatch.undo()
    opsdk.plugins.reload()


@pytest.fixture
def invoke():
    """``invoke(*args)`` runs ``opsdk ARGS`` in-process; click's Result."""
    def run(*args):
        return CliRunner().invoke(main, [str(a) for a in args])

    return run


class Twice(opsdk.Function):
    """Twice the input."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def make_kernel(name, c_code=GOOD_C, cuda=True, cu_code=GOOD_CU):
    """A kernel doubling a float64 array, with a python, a C and (optionally) a CUDA implementation."""
    kernel = Kernel(name, dtypes=("float64",))
    kernel.python(lambda x: x * 2)

    @kernel.c(CSource(code=c_code, cdef="void twice(const double *x, double *y, int64_t n);"))
    def _(lib, ffi, x):
        y = numpy.empty_like(x)
        lib.twice(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size)
        return y

    if cuda:
        kernel.cuda(CudaSource(code=cu_code, names=("twice",)))(lambda module, x: x)
    return kernel


@pytest.fixture
def in_test_pack():
    """Factory: ``in_test_pack(c_code=, cuda=, cu_code=, fail=)`` registers a one-op pack; its name."""
    names = []

    def register(c_code=GOOD_C, cuda=True, fail=False, cu_code=GOOD_CU):
        name = f"clipack{next(_counter)}"
        kernel = make_kernel(f"{name}.twice", c_code, cuda, cu_code)
        module = types.ModuleType(name)

        @hookimpl
        def register_ops(register):
            if fail:
                raise RuntimeError("the pack's hook broke")
            register(Twice, name="twice", inputs=[TensorSpec(shape=(3,))], kernels=(kernel,))

        module.register_ops = register_ops
        names.append(name)
        try:
            opsdk.plugins.register_pack(module, name=name, version="1.2")
        except opsdk.errors.PluginLoadError:
            assert fail
        return name

    yield register
    for name in names:
        opsdk.plugins.unregister_pack(name)


from helpers.readonly import read_only  # noqa: E402,F401 - a fixture for the broken-cache tests


@pytest.fixture(scope="module")
def ends_in_op_site(tmp_path_factory):
    """A site directory holding the pack whose op ends the process as HOSTILE_HOW says
    (fixtures/hostile_packs/ends_in_op.py)."""
    from fixtures.hostile_packs import install

    site = tmp_path_factory.mktemp("site")
    install(site, "ends_in_op")
    return site
