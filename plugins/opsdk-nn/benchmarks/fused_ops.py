"""Forward + backward of every opsdk-nn op: C kernel vs python kernel (composed NumPy) vs torch.

Run from anywhere (``OPSDK_CACHE_DIR`` picks the kernel cache, as always):

    python plugins/opsdk-nn/benchmarks/fused_ops.py            # 1e7 float32, best of 9
    python plugins/opsdk-nn/benchmarks/fused_ops.py --n 1000000 --no-torch

Every op runs through the public API (``op(x)`` then ``opsdk.grad`` with a ones gradient made
once beforehand), so the numbers include the autograd bookkeeping and the output allocations a
user pays. Elementwise ops are also given as an effective bandwidth (forward reads x and
writes y, backward reads x and dy and writes dx: 5 arrays moved) next to the in-place
streaming bandwidth of this machine measured in the same run (a C loop ``x[i] *= a``, same
threads, on at least 128 MB so it streams from memory). Row ops (softmax, norms,
cross_entropy) run on [n / 1000, 1000]. Times are the best of ``--repeat`` runs (the machine
may be shared: the best run is the one least disturbed).

A second table times the activations' loops alone (forward then backward C function on
preallocated arrays, float32): the loops the SDK writes from the scalar bodies (kernels/
activations.py) next to the hand-written loops the pack had before (csrc/activations.c at
``--baseline``, read from git; skipped outside a git checkout), each as a % of the same
streaming bandwidth, and old ms / new ms (above 1: the SDK's loops are faster). A third table
times the same loops on a few thousand elements that stay in cache, on one thread: their
arithmetic alone, which a loaded machine disturbs least. ``--before REV`` adds, to both, the loops
the SDK wrote from the same bodies at git revision REV (built from that revision's tree in a child
process), taking turns with today's: a before / after in one run.

Two more tables do the same for the row ops (softmax, log_softmax, layer_norm, rms_norm,
cross_entropy): the C functions the SDK writes from each row's statements (``Rows``: kernels/
softmax.py, norms.py, cross_entropy.py) next to the hand-written ones the pack had before
(csrc/softmax.c, norms.c, cross_entropy.c at ``--rows-baseline``), forward and backward apart,
on [n / 1000, 1000] (the OpenMP team), on [8, 1000] (in cache, one thread: the arithmetic) and
on [1000, 64] (one thread: what each row costs besides its elements); then softmax and
log_softmax along another axis than the last, in place. ``--before REV`` adds, to these too, the
functions the SDK wrote from the same statements at REV, taking turns with today's.
"""
import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy

import opsdk
from opsdk.kernels import CSource, Kernel, c_pointer, use_backend

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))  # the pack itself when it is not installed

import opsdk_nn.functional as F  # noqa: E402
from opsdk_nn.kernels.activations import OPS  # noqa: E402
from opsdk_nn.kernels.cross_entropy import CROSS_ENTROPY  # noqa: E402
from opsdk_nn.kernels.norms import LAYER_NORM, RMS_NORM  # noqa: E402
from opsdk_nn.kernels.softmax import LOG_SOFTMAX, SOFTMAX  # noqa: E402

# the last commit with the hand-written activation loops (csrc/activations.c, act_math.h)
BASELINE = "f147568"
_OLD_FILES = ("activations.c", "act_math.h", "nn_math.h")
# the last commit with the hand-written row kernels (csrc/softmax.c, norms.c, cross_entropy.c)
ROWS_BASELINE = "38e3394"
_OLD_ROW_FILES = ("softmax.c", "norms.c", "cross_entropy.c", "nn_math.h")

ROW = 1000

_STREAM = Kernel("nn_bench.stream_scale", dtypes=("float32",))


@_STREAM.c(CSource(code="""
#include <stdint.h>
void stream_scale(float *x, int64_t n, float a) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++) x[i] *= a;
}
""", cdef="void stream_scale(float *x, int64_t n, float a);", extra_compile_args=("-O3",), openmp=True))
def _(lib, ffi, x, *, a):
    lib.stream_scale(c_pointer(ffi, x, writable=True), x.size, a)
    return x


def best_ms(fn, repeat):
    """Best wall time of fn() in milliseconds, after one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


STREAM_MIN = 32 * 2**20  # float32 elements: 128 MB, past any last-level cache
IN_CACHE = 8192  # float32 elements: the loops' arithmetic alone (x, dy, y, dx: 128 KB)


def stream_gbs(n, repeat):
    """In-place streaming bandwidth (read + write) in GB/s, over max(n, STREAM_MIN) float32.

    A smaller array may stay partly in the last-level cache: on the development VM a 40 MB
    pass read anywhere from 20 to 185 GB/s, a 128 MB one a steady 55-65 GB/s."""
    x = numpy.ones(max(n, STREAM_MIN), numpy.float32)
    # one pass is short, so a disturbed one is common on a shared machine: take many
    ms = best_ms(lambda: _STREAM(x, a=1.0000001), max(4 * repeat, 20))
    return 2 * 4 * x.size / (ms * 1e-3) / 1e9


def _from_git(rev, names, prefix):
    """A temporary folder holding the pack's csrc/<names> at git revision ``rev``; None where git
    or the revision is not there."""
    root = os.path.dirname(os.path.dirname(_HERE))
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        for name in names:
            text = subprocess.run(["git", "-C", root, "show", f"{rev}:plugins/opsdk-nn/opsdk_nn/csrc/{name}"],
                                  capture_output=True, text=True, check=True).stdout
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
    except (OSError, subprocess.CalledProcessError):
        return None
    return folder


def _old_build(folder, file, cdef, name):
    """(lib, ffi) of a hand-written source of the pack, compiled as it was."""
    source = CSource(os.path.join(folder, file), cdef=cdef, openmp=True, libraries=("m",),
                     extra_compile_args=("-O3", "-fno-math-errno", "-fno-trapping-math"))
    return Kernel(name, dtypes=("float32",)).c(source, name.rsplit(".", 1)[-1]).build_c()


def old_loops(rev):
    """The hand-written activation loops at git revision ``rev``, compiled as they were; None
    where git or the revision is not there."""
    folder = _from_git(rev, _OLD_FILES, "nn-old-loops-")
    if folder is None:
        return None
    cdef = "".join(f"void nn_{act}_fwd_f32(const float *x, float *y, int64_t n, double p0, double p1);\n"
                   f"void nn_{act}_bwd_f32(const float *x, const float *dy, float *dx, int64_t n, double p0, "
                   "double p1);\n" for act in OPS)
    return _old_build(folder, "activations.c", cdef, "nn_bench.old_activations")


# the hand-written row kernels' float32 declarations, as the pack's sources.py declared them
_OLD_ROW_CDEF = {
    "softmax.c": "void nn_softmax_fwd_f32(const float *x, float *y, int64_t outer, int64_t n, int64_t inner, "
                 "int as_log);\nvoid nn_softmax_bwd_f32(const float *y, const float *dy, float *dx, int64_t outer, "
                 "int64_t n, int64_t inner, int as_log);",
    "norms.c": "void nn_layer_norm_fwd_f32(const float *x, const float *w, const float *b, float *y, float *mean, "
               "float *rstd, int64_t rows, int64_t n, double eps);\nint nn_layer_norm_bwd_f32(const float *x, "
               "const float *w, const float *mean, const float *rstd, const float *dy, float *dx, float *dw, "
               "float *db, int64_t rows, int64_t n);\nvoid nn_rms_norm_fwd_f32(const float *x, const float *w, "
               "float *y, float *rstd, int64_t rows, int64_t n, double eps);\nint nn_rms_norm_bwd_f32(const "
               "float *x, const float *w, const float *rstd, const float *dy, float *dx, float *dw, int64_t rows, "
               "int64_t n);",
    "cross_entropy.c": "void nn_cross_entropy_fwd_f32(const float *x, const int64_t *label, float *loss, "
                       "float *rowmax, float *logsum, int64_t rows, int64_t n, int64_t ignore_index);\n"
                       "void nn_cross_entropy_bwd_f32(const float *x, const int64_t *label, const float *rowmax, "
                       "const float *logsum, const float *g, int64_t g_stride, float *dx, int64_t rows, "
                       "int64_t n, int64_t ignore_index);"}


def old_row_kernels(rev):
    """{source file: (lib, ffi)} of the hand-written row kernels at git revision ``rev``; None
    where git or the revision is not there."""
    folder = _from_git(rev, _OLD_ROW_FILES, "nn-old-rows-")
    if folder is None:
        return None
    stems = {"softmax.c": "nn_softmax_fwd", "norms.c": "nn_rms_norm_fwd", "cross_entropy.c": "nn_cross_entropy_fwd"}
    return {file: _old_build(folder, file, cdef, f"nn_bench.old_{stems[file]}") for file, cdef in _OLD_ROW_CDEF.items()}


def row_cases(rows, K, old, before=None):
    """(op, stage, new call, old call or None, before call or None) of every row op's forward and
    backward C function, float32, on preallocated [rows, K] arrays (the pointers made once: the
    calls alone are timed); ``before``: sdk_rows' modules, the same functions at another revision."""
    rng = numpy.random.default_rng(2)
    x, dy = (rng.standard_normal((rows, K)).astype(numpy.float32) for _ in range(2))
    w, b = rng.uniform(0.5, 1.5, K).astype(numpy.float32), rng.uniform(-0.5, 0.5, K).astype(numpy.float32)
    label = rng.integers(0, K, rows)
    out = {name: numpy.empty((rows, K), numpy.float32) for name in ("y", "dx")}
    out.update({name: numpy.empty(rows, numpy.float32) for name in ("mean", "rstd", "loss", "rowmax", "logsum")})
    out.update({name: numpy.empty(K, numpy.float32) for name in ("dw", "db")})
    g = numpy.ones(rows, numpy.float32)
    arrays = {"x": x, "dy": dy, "w": w, "b": b, "label": label, "g": g, **out}
    def pointers(ffi):
        return {k: ffi.cast("int64_t *" if a.dtype == numpy.int64 else "float *", a.ctypes.data)
                for k, a in arrays.items()}

    new = {}
    for op in (SOFTMAX, LOG_SOFTMAX, LAYER_NORM, RMS_NORM, CROSS_ENTROPY):
        lib, ffi = op.forward_kernel.build_c()
        new[op.short_name] = (lib, pointers(ffi))
    p = {name: ptrs for name, (_, ptrs) in new.items()}
    calls = [
        # (softmax's last size: the inner axis of [rows, K, inner], 1 for the last axis)
        ("softmax", "forward", lambda L, q: L.softmax_forward_f32(q["x"], q["y"], rows, K, 1)),
        ("softmax", "backward", lambda L, q: L.softmax_backward_f32(q["y"], q["dy"], q["dx"], rows, K, 1)),
        ("log_softmax", "forward", lambda L, q: L.log_softmax_forward_f32(q["x"], q["y"], rows, K, 1)),
        ("log_softmax", "backward", lambda L, q: L.log_softmax_backward_f32(q["y"], q["dy"], q["dx"], rows, K, 1)),
        ("layer_norm", "forward", lambda L, q: L.layer_norm_forward_f32(
            q["x"], q["w"], q["b"], q["y"], q["mean"], q["rstd"], rows, K, 1e-5)),
        ("layer_norm", "backward", lambda L, q: L.layer_norm_backward_f32(
            q["x"], q["w"], q["mean"], q["rstd"], q["dy"], q["dx"], q["dw"], q["db"], rows, K)),
        ("rms_norm", "forward", lambda L, q: L.rms_norm_forward_f32(q["x"], q["w"], q["y"], q["rstd"], rows, K, 1e-6)),
        ("rms_norm", "backward", lambda L, q: L.rms_norm_backward_f32(
            q["x"], q["w"], q["rstd"], q["dy"], q["dx"], q["dw"], rows, K)),
        ("cross_entropy", "forward", lambda L, q: L.cross_entropy_forward_f32(
            q["x"], q["label"], q["loss"], q["rowmax"], q["logsum"], rows, K, -100)),
        ("cross_entropy", "backward", lambda L, q: L.cross_entropy_backward_f32(
            q["x"], q["label"], q["rowmax"], q["logsum"], q["g"], q["dx"], rows, K, -100)),
    ]
    olds = {}
    if old is not None:
        for file, (lib, ffi) in old.items():
            olds[file] = (lib, pointers(ffi))
    old_calls = {
        ("softmax", "forward"): ("softmax.c", lambda L, q: L.nn_softmax_fwd_f32(q["x"], q["y"], rows, K, 1, 0)),
        ("softmax", "backward"): ("softmax.c", lambda L, q: L.nn_softmax_bwd_f32(q["y"], q["dy"], q["dx"], rows, K, 1, 0)),
        ("log_softmax", "forward"): ("softmax.c", lambda L, q: L.nn_softmax_fwd_f32(q["x"], q["y"], rows, K, 1, 1)),
        ("log_softmax", "backward"): ("softmax.c", lambda L, q: L.nn_softmax_bwd_f32(
            q["y"], q["dy"], q["dx"], rows, K, 1, 1)),
        ("layer_norm", "forward"): ("norms.c", lambda L, q: L.nn_layer_norm_fwd_f32(
            q["x"], q["w"], q["b"], q["y"], q["mean"], q["rstd"], rows, K, 1e-5)),
        ("layer_norm", "backward"): ("norms.c", lambda L, q: L.nn_layer_norm_bwd_f32(
            q["x"], q["w"], q["mean"], q["rstd"], q["dy"], q["dx"], q["dw"], q["db"], rows, K)),
        ("rms_norm", "forward"): ("norms.c", lambda L, q: L.nn_rms_norm_fwd_f32(
            q["x"], q["w"], q["y"], q["rstd"], rows, K, 1e-6)),
        ("rms_norm", "backward"): ("norms.c", lambda L, q: L.nn_rms_norm_bwd_f32(
            q["x"], q["w"], q["rstd"], q["dy"], q["dx"], q["dw"], rows, K)),
        ("cross_entropy", "forward"): ("cross_entropy.c", lambda L, q: L.nn_cross_entropy_fwd_f32(
            q["x"], q["label"], q["loss"], q["rowmax"], q["logsum"], rows, K, -100)),
        ("cross_entropy", "backward"): ("cross_entropy.c", lambda L, q: L.nn_cross_entropy_bwd_f32(
            q["x"], q["label"], q["rowmax"], q["logsum"], q["g"], 1, q["dx"], rows, K, -100)),
    }
    befores = {name: (m.lib, pointers(m.ffi)) for name, m in before.items()} if before else {}
    found = []
    for op, stage, call in calls:  # (each call keeps the arrays its pointers point into alive)
        new_fn = (lambda c=call, L=new[op][0], q=p[op], keep=arrays: c(L, q))
        old_fn = before_fn = None
        if olds:
            file, old_call = old_calls[(op, stage)]
            old_fn = (lambda c=old_call, L=olds[file][0], q=olds[file][1], keep=arrays: c(L, q))
        if befores:
            before_fn = (lambda c=call, L=befores[op][0], q=befores[op][1], keep=arrays: c(L, q))
        found.append((op, stage, new_fn, old_fn, before_fn))
    return found


def axis_rows(repeat, old, before=None):
    """(case, stage, new ms, old ms or None, before ms or None) of softmax and log_softmax along
    another axis than the last, [outer, n, inner] in place: the SDK's panels of rows vs the
    hand-written column kernels (and the SDK's at another revision: sdk_rows' modules)."""
    rng = numpy.random.default_rng(3)
    found = []
    for label, (outer, n, inner) in (("[1000, 10000] axis 0", (1, 1000, 10000)),
                                     ("[100, 1000, 100] axis 1", (100, 1000, 100))):
        x, dy = (rng.standard_normal((outer, n, inner)).astype(numpy.float32) for _ in range(2))
        y, dx = numpy.empty_like(x), numpy.empty_like(x)
        for op, log in ((SOFTMAX, 0), (LOG_SOFTMAX, 1)):
            def sdk(lib, ffi, name=op.short_name):
                q = {k: ffi.cast("float *", a.ctypes.data) for k, a in (("x", x), ("dy", dy), ("y", y), ("dx", dx))}
                return {"forward": lambda: getattr(lib, f"{name}_forward_f32")(q["x"], q["y"], outer, n, inner),
                        "backward": lambda: getattr(lib, f"{name}_backward_f32")(q["y"], q["dy"], q["dx"], outer, n,
                                                                                  inner)}
            new = sdk(*op.forward_kernel.build_c())
            befores = sdk(before[op.short_name].lib, before[op.short_name].ffi) if before else {}
            olds = {}
            if old is not None:
                olib, offi = old["softmax.c"]
                oq = {k: offi.cast("float *", a.ctypes.data) for k, a in (("x", x), ("dy", dy), ("y", y), ("dx", dx))}
                olds = {"forward": lambda L=olib, q=oq, g=log: L.nn_softmax_fwd_f32(q["x"], q["y"], outer, n, inner, g),
                        "backward": lambda L=olib, q=oq, g=log: L.nn_softmax_bwd_f32(q["y"], q["dy"], q["dx"], outer, n, inner, g)}
            for stage in ("forward", "backward"):
                fns = [new[stage]] + ([olds[stage]] if olds else []) + ([befores[stage]] if befores else [])
                best = interleaved_ms(fns, repeat)
                found.append((f"{op.short_name} {label}", stage, best[0], best[1] if olds else None,
                              best[-1] if befores else None))
    return found


def row_loop_rows(rows, K, repeat, old, before=None):
    """(op, stage, new ms, old ms or None, before ms or None) of every row op's C functions, taking turns."""
    found = []
    for op, stage, new_fn, old_fn, before_fn in row_cases(rows, K, old, before):
        fns = [new_fn] + ([old_fn] if old_fn else []) + ([before_fn] if before_fn else [])
        best = interleaved_ms(fns, repeat)
        found.append((op, stage, best[0], best[1] if old_fn else None, best[-1] if before_fn else None))
    return found


def sdk_loops(rev):
    """The activation loops as the SDK and the pack at git revision ``rev`` wrote them from the C
    bodies, built in a child process on that revision's tree (with a kernel cache of its own) and
    loaded here: {act: module (its lib and ffi)}; None where git or the revision is not there."""
    return _sdk_built(rev, "from opsdk_nn.kernels.activations import OPS\n"
                           "ops = {act: op.value_kernel for act, op in OPS.items()}\n")


def sdk_rows(rev):
    """The row ops' C functions as the SDK wrote them from the same statements at git revision
    ``rev`` (as sdk_loops): {op's short name: module}; None where git or the revision is not there."""
    return _sdk_built(rev, "from opsdk_nn.kernels.softmax import SOFTMAX, LOG_SOFTMAX\n"
                           "from opsdk_nn.kernels.norms import LAYER_NORM, RMS_NORM\n"
                           "from opsdk_nn.kernels.cross_entropy import CROSS_ENTROPY\n"
                           "ops = {op.short_name: op.forward_kernel\n"
                           "       for op in (SOFTMAX, LOG_SOFTMAX, LAYER_NORM, RMS_NORM, CROSS_ENTROPY)}\n")


def _sdk_built(rev, ops):
    """The C builds of the kernels ``ops`` (Python that sets ``ops``: {key: Kernel}) at git revision
    ``rev``, built in a child process on that revision's tree (with a kernel cache of its own) and
    loaded here: {key: module (its lib and ffi)}; None where git or the revision is not there."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))
    folder = tempfile.mkdtemp(prefix="nn-sdk-built-")
    child = ("import json, sys\n" + ops + "paths = {}\n"
             "for key, kernel in ops.items():\n    lib, _ = kernel.build_c()\n"
             "    paths[key] = next(name for name, m in list(sys.modules.items())\n"
             "                      if name.startswith('_opsdk_') and getattr(m, 'lib', None) is lib)\n"
             "print(json.dumps(paths))\n")
    try:
        tree = subprocess.run(["git", "-C", root, "archive", rev], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=tree, check=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, os.path.join(folder, "plugins", "opsdk-nn")]),
                   OPSDK_CACHE_DIR=os.path.join(folder, "cache"))
        out = subprocess.run([sys.executable, "-c", child], cwd=folder, env=env, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    libs = {}
    for key, name in json.loads(out.splitlines()[-1]).items():
        # the build in that cache (the child loaded a copy, gone with it): c/<digest>/<name>.*.so
        path = glob.glob(os.path.join(folder, "cache", "c", name[len("_opsdk_"):], f"{name}.*.so"))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        libs[key] = module
    return libs


def loop_rows(n, repeat, old, stream=None, before=None):
    """(act, new ms, old ms or None, before ms or None, stream GB/s) for forward + backward loops
    on preallocated float32 arrays: the SDK's loops now, the hand-written ones (``old``, the
    build of old_loops) and the SDK's at another revision (``before``, sdk_loops'). With
    ``stream`` (an array of at least STREAM_MIN float32) a streaming pass takes turns with the
    loops, so the bandwidth they are compared with is measured in the same minutes (on a shared
    machine the load changes from one minute to the next)."""
    x = numpy.random.default_rng(1).standard_normal(n).astype(numpy.float32)
    dy, y, dx = numpy.ones_like(x), numpy.empty_like(x), numpy.empty_like(x)
    rows = []
    for act, op in OPS.items():
        attrs = (1.0, 20.0) if act == "softplus" else ()
        lib, ffi = op.value_kernel.build_c()
        px, pdy, py, pdx = (ffi.cast("float *", a.ctypes.data) for a in (x, dy, y, dx))
        fwd, bwd = getattr(lib, f"{act}_value_f32"), getattr(lib, f"{act}_grad_f32")
        steps = [lambda: (fwd(px, py, n, *attrs), bwd(px, pdy, pdx, n, *attrs))]
        if old is not None:
            olib, offi = old
            ox, ody, oy, odx = (offi.cast("float *", a.ctypes.data) for a in (x, dy, y, dx))
            f, b = getattr(olib, f"nn_{act}_fwd_f32"), getattr(olib, f"nn_{act}_bwd_f32")
            p = attrs or (0.0, 0.0)
            steps.append(lambda: (f(ox, oy, n, *p), b(ox, ody, odx, n, *p)))
        if before is not None:
            blib, bffi = before[act].lib, before[act].ffi
            bx, bdy, by, bdx = (bffi.cast("float *", a.ctypes.data) for a in (x, dy, y, dx))
            bf, bb = getattr(blib, f"{act}_value_f32"), getattr(blib, f"{act}_grad_f32")
            steps.append(lambda: (bf(bx, by, n, *attrs), bb(bx, bdy, bdx, n, *attrs)))
        if stream is not None:
            steps.append(lambda: _STREAM(stream, a=1.0000001))
        best = interleaved_ms(steps, repeat)
        gbs = 2 * 4 * stream.size / (best[-1] * 1e-3) / 1e9 if stream is not None else None
        old_ms = best[1] if old is not None else None
        before_ms = best[1 + (old is not None)] if before is not None else None
        rows.append((act, best[0], old_ms, before_ms, gbs))
    return rows


def interleaved_ms(fns, repeat):
    """Best wall time of each fn in ms, the fns taking turns (a disturbance hits them alike)."""
    for fn in fns:
        fn()
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - start)
    return [b * 1e3 for b in best]


def opsdk_step(op, arrays):
    """A forward + backward through the public API: op(*tensors) then opsdk.grad.

    The output gradient is made once, outside the timed step (it is the caller's data)."""
    tensors = [opsdk.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
    inputs = [t for t in tensors if not t.stop_gradient]
    y = op(*tensors)
    seed = None if y.ndim == 0 else [opsdk.ones_like(y)]

    def step():
        opsdk.grad([op(*tensors)], inputs, grad_outputs=seed)

    return step


def torch_step(torch, op, arrays):
    """The same forward + backward in PyTorch (torch.autograd.grad: no .grad accumulation)."""
    tensors = [torch.from_numpy(a).requires_grad_(a.dtype.kind == "f") for a in arrays]
    inputs = [t for t in tensors if t.requires_grad]
    y = op(*tensors)
    seed = None if y.ndim == 0 else torch.ones_like(y)

    def step():
        torch.autograd.grad(op(*tensors), inputs, grad_outputs=seed)

    return step


def cases(n, rng):
    """(name, elementwise?, opsdk op, torch op or None, arrays) for every benchmarked op."""
    x = rng.standard_normal(n).astype(numpy.float32)
    rows = max(n // ROW, 1)
    m = rng.standard_normal((rows, ROW)).astype(numpy.float32)
    w = rng.uniform(0.5, 1.5, ROW).astype(numpy.float32)
    b = rng.uniform(-0.5, 0.5, ROW).astype(numpy.float32)
    labels = rng.integers(0, ROW, rows)
    tf = "torch.nn.functional"
    return [
        ("gelu", True, F.gelu, (tf, "gelu", {}), [x]),
        ("gelu tanh", True, lambda t: F.gelu(t, approximate=True), (tf, "gelu", {"approximate": "tanh"}), [x]),
        ("silu", True, F.silu, (tf, "silu", {}), [x]),
        ("softplus", True, F.softplus, (tf, "softplus", {}), [x]),
        ("mish", True, F.mish, (tf, "mish", {}), [x]),
        ("softmax", False, F.softmax, (tf, "softmax", {"dim": -1}), [m]),
        ("log_softmax", False, F.log_softmax, (tf, "log_softmax", {"dim": -1}), [m]),
        ("layer_norm", False, lambda t, wt, bt: F.layer_norm(t, ROW, wt, bt),
         (tf, "layer_norm", {"normalized_shape": (ROW,)}), [m, w, b]),
        ("rms_norm", False, lambda t, wt: F.rms_norm(t, ROW, wt)[0], (tf, "rms_norm", {"normalized_shape": (ROW,)}), [m, w]),
        ("cross_entropy", False, F.cross_entropy, (tf, "cross_entropy", {}), [m, labels]),
    ]


def _torch_op(torch, spec):
    module, name, kwargs = spec
    fn = getattr(torch.nn.functional, name, None)
    if fn is None:
        return None
    if name in ("layer_norm", "rms_norm"):
        return lambda x, *params: fn(x, kwargs["normalized_shape"], *params)
    return lambda *args: fn(*args, **kwargs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="elements per input (default 1e7)")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--no-torch", action="store_true", help="skip the PyTorch column")
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"git revision with the hand-written activation loops (default {BASELINE})")
    parser.add_argument("--rows-baseline", default=ROWS_BASELINE,
                        help=f"git revision with the hand-written row kernels (default {ROWS_BASELINE})")
    parser.add_argument("--loops-only", action="store_true", help="only the activation loops' tables")
    parser.add_argument("--rows-only", action="store_true", help="only the row ops' loops tables")
    parser.add_argument("--before", metavar="REV",
                        help="also time the loops the SDK wrote from the same bodies at this git revision "
                             "(built from that revision's tree), in the same run: before / after")
    args = parser.parse_args(argv)
    torch = None
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            torch = None
    rng = numpy.random.default_rng(0)
    stream = stream_gbs(args.n, args.repeat)
    threads = os.environ.get("OMP_NUM_THREADS", str(os.cpu_count()))
    print(f"opsdk-nn forward+backward, {args.n:.0e} float32, best of {args.repeat}, "
          f"{threads} OpenMP thread(s), torch {torch.__version__ if torch else 'not run'}")
    print(f"in-place streaming bandwidth (C, x *= a over {max(args.n, STREAM_MIN) * 4 / 1e6:.0f} MB): {stream:.1f} GB/s")
    if not args.loops_only and not args.rows_only:
        print_steps(args, torch, rng, stream)
    if not args.loops_only:
        print_row_loops(args)
    if args.rows_only:
        return
    old = old_loops(args.baseline)
    before = sdk_loops(args.before) if args.before else None
    print(f"\nactivation loops alone (forward + backward C functions, preallocated float32): SDK-written "
          f"from the bodies vs hand-written at {args.baseline if old else '(baseline not available)'}"
          + (f", and as the SDK wrote them at {args.before if before else '(not available)'}" if args.before else ""))
    print("(the streaming pass takes turns with the loops; its best is the row's bandwidth)")
    header = (f"{'op':<14} {'stream GB/s':>11} {'new ms':>8} {'% stream':>9} {'old ms':>8} {'% stream':>9} "
              f"{'old / new':>10}" + (f" {'before ms':>9} {'% stream':>9} {'before / new':>12}" if before else ""))
    print(header)
    print("-" * len(header))
    big = numpy.ones(max(args.n, STREAM_MIN), numpy.float32)
    for act, new, old_ms, before_ms, row_stream in loop_rows(args.n, args.repeat, old, big, before):
        pct = lambda ms: 100 * 5 * 4 * args.n / (ms * 1e-3) / 1e9 / row_stream  # noqa: E731
        tail = f"{old_ms:>8.1f} {pct(old_ms):>8.0f}% {old_ms / new:>9.2f}x" if old_ms else ""
        if before_ms:
            tail += f" {before_ms:>9.1f} {pct(before_ms):>8.0f}% {before_ms / new:>11.2f}x"
        print(f"{act:<14} {row_stream:>11.1f} {new:>8.1f} {pct(new):>8.0f}% {tail}")
    # the maths alone: IN_CACHE elements stay in L1 and on one thread (below OPSDK_OMP_MIN), and
    # each call is short, so the best of many is rarely disturbed even on a loaded machine
    print(f"\nthe same loops' arithmetic: ns per element, forward + backward, {IN_CACHE} float32 in cache, "
          "one thread")
    header = f"{'op':<14} {'new ns':>8} {'old ns':>8} {'old / new':>10}" + (
        f" {'before ns':>9} {'before / new':>12}" if before else "")
    print(header)
    print("-" * len(header))
    for act, new, old_ms, before_ms, _ in loop_rows(IN_CACHE, 40 * args.repeat, old, before=before):
        ns = lambda ms: ms * 1e6 / IN_CACHE  # noqa: E731
        tail = f"{ns(old_ms):>8.3f} {old_ms / new:>9.2f}x" if old_ms else ""
        if before_ms:
            tail += f" {ns(before_ms):>9.3f} {before_ms / new:>11.2f}x"
        print(f"{act:<14} {ns(new):>8.3f} {tail}")


def print_row_loops(args):
    """The row ops' C functions, SDK-written (Rows) vs hand-written (and vs the SDK's at --before),
    on the team and in cache."""
    old = old_row_kernels(args.rows_baseline)
    before = sdk_rows(args.before) if args.before else None
    then = (f"; and as the SDK wrote them at {args.before if before else '(not available)'}" if args.before else "")
    rows = max(args.n // ROW, 1)
    # each pair takes turns many times: on a shared machine the best run is the least disturbed
    for title, shape, repeat in ((f"[{rows}, {ROW}], the OpenMP team", (rows, ROW), 5 * args.repeat),
                                 (f"[8, {ROW}] in cache, one thread", (8, ROW), 40 * args.repeat),
                                 ("[1000, 64] short rows, one thread", (1000, 64), 10 * args.repeat)):
        print(f"\nrow ops' C functions alone, float32 {title}: written from the statements (Rows) vs hand-written "
              f"at {args.rows_baseline if old else '(baseline not available)'}{then}; best of {repeat}, taking turns")
        unit, scale = ("ms", 1) if shape[0] * shape[1] > 100_000 else ("us", 1000)
        header = f"{'op':<14} {'stage':<9} {'new ' + unit:>9} {'old ' + unit:>9} {'old / new':>10}" + (
            f" {'before ' + unit:>10} {'before / new':>12}" if before else "")
        print(header)
        print("-" * len(header))
        for op, stage, new, old_ms, before_ms in row_loop_rows(*shape, repeat, old, before):
            print(f"{op:<14} {stage:<9} {new * scale:>9.2f} " + _versus(new, old_ms, before_ms, scale))
    print(f"\nsoftmax along another axis, float32, in place (the SDK's panels of 64 rows vs the hand-written "
          f"column kernels), the OpenMP team; best of {args.repeat}, taking turns")
    header = f"{'op and shape':<38} {'stage':<9} {'new ms':>9} {'old ms':>9} {'old / new':>10}" + (
        f" {'before ms':>10} {'before / new':>12}" if before else "")
    print(header)
    print("-" * len(header))
    for case, stage, new, old_ms, before_ms in axis_rows(args.repeat, old, before):
        print(f"{case:<38} {stage:<9} {new:>9.2f} " + _versus(new, old_ms, before_ms))


def _versus(new, old_ms, before_ms, scale=1):
    """The old and before columns of a row ops' table line (blank where not measured)."""
    tail = f"{old_ms * scale:>9.2f} {old_ms / new:>9.2f}x" if old_ms else f"{'':>9} {'':>10}"
    if before_ms:
        tail += f" {before_ms * scale:>10.2f} {before_ms / new:>11.2f}x"
    return tail


def print_steps(args, torch, rng, stream):
    """The table of forward + backward steps through the public API."""
    header = f"{'op':<14} {'C ms':>8} {'python ms':>10} {'torch ms':>9} {'C vs python':>12} {'C vs torch':>11} {'C GB/s':>7} {'% stream':>9}"
    print(header)
    print("-" * len(header))
    for name, elementwise, op, torch_spec, arrays in cases(args.n, rng):
        step = opsdk_step(op, arrays)
        with use_backend("c"):
            c_ms = best_ms(step, args.repeat)
        with use_backend("python"):
            py_ms = best_ms(step, args.repeat)
        t_ms = None
        if torch is not None:
            top = _torch_op(torch, torch_spec)
            if top is not None:
                t_ms = best_ms(torch_step(torch, top, arrays), args.repeat)
        gbs = 5 * 4 * args.n / (c_ms * 1e-3) / 1e9 if elementwise else None
        print(f"{name:<14} {c_ms:>8.1f} {py_ms:>10.1f} {t_ms if t_ms is not None else float('nan'):>9.1f} "
              f"{py_ms / c_ms:>11.1f}x {(t_ms / c_ms if t_ms else float('nan')):>10.1f}x "
              + (f"{gbs:>7.1f} {100 * gbs / stream:>8.0f}%" if gbs else f"{'':>7} {'':>9}"))


if __name__ == "__main__":
    main()
