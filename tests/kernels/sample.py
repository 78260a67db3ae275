"""The kernels the tests build: scale (python + C) from data/scale.c, and helpers to run children."""
import contextlib
import json
import os
import subprocess
import sys

import numpy

from opsdk.kernels import CSource, Kernel, c_pointer

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
REPO = os.path.dirname(os.path.dirname(HERE))
SCALE_C = os.path.join(DATA, "scale.c")
SCALE_CDEF = (
    "void scale_f32(const float *x, float *y, int64_t n, float a);"
    "void scale_f64(const double *x, double *y, int64_t n, double a);"
)


def scale_source(**options):
    """A CSource of data/scale.c (path relative to this file)."""
    return CSource("data/scale.c", cdef=SCALE_CDEF, **options)


def make_scale(name="tests.scale", *, python=True, c=True, source=None, **kernel_options):
    """A fresh scale kernel: y = alpha * x."""
    kernel = Kernel(name, **kernel_options)
    if python:
        kernel.python(lambda x, *, alpha: x * alpha)
    if c:

        @kernel.c(source or scale_source())
        def _(lib, ffi, x, *, alpha):
            y = numpy.empty_like(x)
            fn = lib.scale_f32 if x.dtype == numpy.float32 else lib.scale_f64
            fn(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size, alpha)
            return y

    return kernel


def compile_count(cache):
    """How many compiles builds.log records under the cache dir."""
    log = os.path.join(cache, "builds.log")
    if not os.path.exists(log):
        return 0
    with open(log, encoding="utf-8") as f:
        return sum(1 for line in f if " compiled " in line)


def child_env(**extra):
    """os.environ for a child Python that imports opsdk from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


# builds scale.c in a child process and reports the result and what it imported
BUILD_SCALE_CHILD = """
import json, os, sys, time
barrier = os.environ.get("TEST_BARRIER")
while barrier and not os.path.exists(barrier):
    time.sleep(0.01)
from opsdk.kernels import CSource, build_c
import numpy
lib, ffi = build_c(CSource(sys.argv[1], cdef=sys.argv[2]), kernel="tests.child")
x = numpy.arange(4.0)
y = numpy.empty_like(x)
lib.scale_f64(ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y, True), 4, 3.0)
print(json.dumps({"y": y.tolist(), "cffi_imported": "cffi" in sys.modules}))
"""


def spawn_build(env, source_path=SCALE_C):
    """Start a child that builds source_path (scale.c's cdef) and prints JSON."""
    return subprocess.Popen(
        [sys.executable, "-c", BUILD_SCALE_CHILD, source_path, SCALE_CDEF],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )


def finish(process, timeout=120):
    """The child's JSON output; fails the test with its stderr if it failed."""
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


class FakeGpuArray:
    """A NumPy array posing as cupy.ndarray, to exercise GPU dispatch on machines without one."""

    __module__ = "cupy"

    def __init__(self, data):
        self.data = numpy.asarray(data)
        self.dtype, self.flags, self.shape = self.data.dtype, self.data.flags, self.data.shape
        self.size = self.data.size

    @property
    def __cuda_array_interface__(self):
        return self.data.__array_interface__

    @property
    def device(self):
        """The device it lives on (a context manager making it current, as CuPy's)."""
        return contextlib.nullcontext()
