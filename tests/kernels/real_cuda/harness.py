"""Run one entry of expected.py (a correct kernel or a planted bug) on the CUDA simulator.

The CUDA run of each kernel call is compared with the module's python (NumPy) kernel; an
exception is the simulator's report. ``classify`` turns a run into the verdicts the matrix
prints: detected or missed, the cause named or not, the faulting file:line named or not.
Needs OPSDK_CUDA_SIM=1 (or a GPU) before CuPy is first imported.
"""
import importlib
import os
import re
import sys
import time
import traceback

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
PACK_SRC = os.path.join(HERE, "pack", "src")
CUDA_DIR = os.path.join(PACK_SRC, "realcuda", "cuda")
try:  # imported as part of the test package, or run from this directory as a script's sibling
    from . import expected
except ImportError:
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import expected

SCHEDULES = ("forward", "reverse", "shuffle:1")   # forward: the default order, thread 0 and block 0 first
# agreement with NumPy, relative to the largest magnitude of the python result
TOLERANCE = {"float16": 4e-3, "float32": 2e-4, "float64": 1e-9}
LOCATION = re.compile(r"([\w.+-]+\.cu):(\d+)")


def pack_module(name):
    """A module of the realcuda pack, imported from its source tree."""
    if PACK_SRC not in sys.path:
        sys.path.insert(0, PACK_SRC)
    return importlib.import_module(f"realcuda.{name}")


def apply_edits(lines, edits, label):
    """Replace whole lines; each edit names the text its line must hold, so a moved line is caught."""
    out = list(lines)
    for number, old, new in edits:
        if old not in out[number - 1]:
            raise ValueError(f"{label}: line {number} should contain {old!r}; it is {out[number - 1]!r}")
        if "\n" in new:
            raise ValueError(f"{label}: an edit replaces one line by one line (line numbers stay)")
        out[number - 1] = new + "\n"
    return out


def shipped_lines(cu):
    with open(os.path.join(CUDA_DIR, cu), encoding="utf-8") as f:
        return f.readlines()


def variant_source(entry, build_dir, workaround):
    """Write the entry's .cu (the shipped file, the workaround, the bug's edits) and return its path."""
    cu = getattr(entry, "cu", None) or _cu_of(entry.module)
    if not workaround and not getattr(entry, "edits", ()):
        return os.path.join(CUDA_DIR, cu)   # the shipped file itself: "ran unmodified" means this
    lines = shipped_lines(cu)
    if workaround:
        lines = apply_edits(lines, expected.WORKAROUNDS.get(cu, ()), f"workaround of {cu}")
    lines = apply_edits(lines, getattr(entry, "edits", ()), entry.id)
    os.makedirs(build_dir, exist_ok=True)
    stem = entry.id if getattr(entry, "edits", ()) else "workaround"
    path = os.path.join(build_dir, f"{stem}__{cu}")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    return path


def _cu_of(module):
    return f"{module}.cu"   # each module's kernels live in one .cu file of the same name


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _compare(python_out, cuda_out, dtype):
    """None if cuda agrees with python, else a one-line description of the first difference."""
    python_out, cuda_out = _as_tuple(python_out), _as_tuple(cuda_out)
    if len(python_out) != len(cuda_out):
        return f"{len(cuda_out)} outputs, python gives {len(python_out)}"
    for i, (p, c) in enumerate(zip(python_out, cuda_out)):
        c = c.get() if hasattr(c, "get") else numpy.asarray(c)
        p = p.get() if hasattr(p, "get") else numpy.asarray(p)
        if p.shape != c.shape:
            return f"output {i}: shape {c.shape}, python gives {p.shape}"
        if p.dtype.kind in "iu":
            bad = numpy.flatnonzero(p.ravel() != c.ravel())
        else:
            pf, cf = p.astype(numpy.float64), c.astype(numpy.float64)
            scale = float(numpy.max(numpy.abs(pf))) if pf.size else 0.0
            tol = TOLERANCE.get(numpy.dtype(dtype).name, 2e-4) * max(scale, 1e-30)
            with numpy.errstate(invalid="ignore"):
                wrong = ~(numpy.abs(pf - cf) <= tol) & ~(numpy.isnan(pf) & numpy.isnan(cf))
            bad = numpy.flatnonzero(wrong.ravel())
        if bad.size:
            k = int(bad[0])
            return (f"output {i}: {bad.size} of {p.size} elements differ from NumPy; first at flat index {k}: "
                    f"cuda {c.ravel()[k]!r}, numpy {p.ravel()[k]!r}")
    return None


def run_entry(entry, build_dir, workaround=False):
    """Run every kernel call of the entry on the simulator. Returns a dict (see classify)."""
    module = pack_module(entry.module)   # imports opsdk, which puts the simulated cupy in place
    import cupy

    source = variant_source(entry, build_dir, workaround)
    tag = f"@{entry.id}{'+wa' if workaround else ''}@{os.environ.get('OPSDK_CUDA_SIM_SCHEDULE', 'forward')}"
    kernels = module.kernels(source, dict(entry.options), tag=tag)
    result = {"id": entry.id, "source": source, "workaround": workaround, "error": None, "mismatch": None,
              "calls": 0}
    start = time.perf_counter()
    for dtype in entry.dtypes:
        rng = numpy.random.default_rng(7)
        for stage, args, kwargs in module.calls(rng, dtype, **entry.calls):
            if getattr(entry, "stages", ()) and stage not in entry.stages:
                continue
            result["calls"] += 1
            python_out = getattr(module.K, stage).run("python", *args, **kwargs)
            try:
                device_args = [cupy.asarray(a) for a in args]
                cuda_out = getattr(kernels, stage).run("cuda", *device_args, **kwargs)
                if isinstance(cuda_out, tuple):
                    cuda_out = tuple(o.get() for o in cuda_out)
                else:
                    cuda_out = cuda_out.get()
            except Exception as exc:  # the simulator's report, or a failure to build
                result["error"] = {"type": type(exc).__name__, "message": str(exc),
                                   "where": f"{dtype} {stage}", "traceback": traceback.format_exc(limit=3)}
                result["seconds"] = time.perf_counter() - start
                return result
            diff = _compare(python_out, cuda_out, dtype)
            if diff and result["mismatch"] is None:
                result["mismatch"] = f"{dtype} {stage}: {diff}"
    result["seconds"] = time.perf_counter() - start
    return result


def is_build_failure(result):
    error = result.get("error")
    return bool(error) and error["type"] in ("CompileException", "KernelBuildError", "CudaCompileError")


def classify(entry, result):
    """Verdicts of one run: status, detected, cause named, line named (None where not applicable)."""
    error, mismatch = result.get("error"), result.get("mismatch")
    message = error["message"] if error else ""
    named = [(os.path.basename(f), int(line)) for f, line in LOCATION.findall(message)]
    verdict = {"status": "error" if error else ("mismatch" if mismatch else "pass"), "named": named,
               "message": message or mismatch or ""}
    if isinstance(entry, expected.Correct):
        verdict["ok"] = verdict["status"] == "pass"
        return verdict
    verdict["detected"] = verdict["status"] != "pass"
    words = entry.cause_re or expected.CAUSES[expected.CLASSES[entry.cls][1]]
    verdict["cause_ok"] = None if words is None else bool(error and re.search(words, message, re.I))
    if entry.fault is None:
        verdict["line_ok"] = None
    else:
        lines = {entry.fault, *entry.also}
        stem = os.path.basename(result.get("source", ""))
        verdict["line_ok"] = any(f == stem and line in lines for f, line in named)
        verdict["fault_line_ok"] = any(f == stem and line == entry.fault for f, line in named)
    return verdict
