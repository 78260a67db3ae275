"""gpu_check.py's prebuilt section: the pack's CUDA kernels loaded from PTX and cubins compiled
ahead of time by nvcc, as a wheel ships them, against the same kernels compiled from source.

    python plugins/opsdk-nn/prebuilt_check.py              # on a GPU
    python plugins/opsdk-nn/prebuilt_check.py --simulate   # the dry path: no GPU needed

A copy of the package is made in a temporary folder (an installed wheel's layout) and the
activations' CUDA source is compiled into it with nvcc, as the wheel build does: on a GPU, for
its architecture (a cubin and PTX); in the dry path, for sm_80. A child process imports the pack
from the copy, then
- on a GPU: runs nn.gelu_value from the cubin opsdk chooses, from the PTX (the loader is shown a
  GPU newer than every cubin) and compiled from source by CuPy, and compares them;
- dry: checks which file the loader would choose for a few GPUs, that the files hold the
  source's kernels, and that the CPU simulator runs the source instead.
Prints one line per verdict (``prebuilt <item>: pass ...`` or ``FAIL: ...``); exit status 0 when
every verdict passed or nvcc is absent (then one ``skipped`` line says so), 1 otherwise.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL, SIZE = "gelu_value_f32", 100_003  # one grid-stride kernel, an odd size


def _child_env(site, simulate):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([site, *filter(None, sys.path)]),
           "PYTHONDONTWRITEBYTECODE": "1", "OPSDK_LOAD_PLUGINS": ""}
    env.pop("OPSDK_CUDA_SIM", None)
    if simulate:
        env["OPSDK_CUDA_SIM"] = "1"
    return env


def verdicts(simulate=False):
    """{item: verdict} of the prebuilt section (run in a child process over a copy of the pack)."""
    from opsdk.kernels import find_nvcc

    if find_nvcc() is None:
        return {"prebuilt": "skipped: no nvcc here to compile the PTX and cubins"}
    with tempfile.TemporaryDirectory(prefix="gpu-check-prebuilt-") as site:
        shutil.copytree(os.path.join(HERE, "opsdk_nn"), os.path.join(site, "opsdk_nn"),
                        ignore=shutil.ignore_patterns("__pycache__", "_opsdk_prebuilt"))
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", site,
                               *(["--simulate"] if simulate else [])], env=_child_env(site, simulate),
                              capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not done.stdout.strip():
        return {"prebuilt": f"FAIL: the check exited {done.returncode}: {(done.stderr or done.stdout)[-400:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- in the child, with the pack imported from the copy --------------------------------------------

def _build(source, archs):
    """Compile source into its package's _opsdk_prebuilt folder as the wheel build does."""
    from opsdk.kernels import find_nvcc, prebuilt
    from opsdk.prebuild.compile_cuda import compile_cuda_into

    return compile_cuda_into(source, prebuilt.folder_of(source), find_nvcc(), archs)


def _files_hold_the_kernels(entry, source):
    from opsdk.kernels import prebuilt, prebuilt_cuda

    fields = prebuilt.manifest(entry)
    files = prebuilt_cuda.targets(fields)
    with open(os.path.join(entry, files[min(f for f in files if f.startswith("compute_"))][0]), encoding="utf-8") as f:
        ptx = f.read()
    missing = [name for name in source.names if f".entry {name}(" not in ptx]
    return "pass" if not missing else f"FAIL: the PTX lacks {', '.join(missing)}"


def _dry(source, entry):
    """Which file the loader chooses for a few GPUs, and the simulator taking the source."""
    from opsdk.kernels import prebuilt_cuda
    from opsdk.kernels.cuda import cuda_origin, load_module

    out = {"prebuilt files": _files_hold_the_kernels(entry, source)}
    code = source.read()
    chosen = {cc: getattr(prebuilt_cuda.lookup(source, code, cc).build, "chosen", None) for cc in (80, 86, 90, 75)}
    expected = {80: "sm_80", 86: "sm_80", 90: "compute_80", 75: None}
    out["prebuilt choice"] = ("pass (8.0, 8.6: the sm_80 cubin; 9.0: the PTX; 7.5: the source)" if chosen == expected
                              else f"FAIL: chose {chosen}, expected {expected}")
    origin, module = cuda_origin(source), load_module(source)  # the simulator compiles nothing until a launch
    takes_source = origin.kind == "simulator" and code in (getattr(module, "code", None) or "")
    out["prebuilt on the simulator"] = ("pass (the simulator takes the source)" if takes_source else
                                        f"FAIL: origin {origin.kind}, module {module!r}")
    return out


def _on_gpu(source, entry):
    """nn.gelu_value from the cubin, from the PTX and from source, compared."""
    import warnings

    import numpy

    import cupy
    from opsdk.errors import OpsdkWarning
    from opsdk.kernels import cuda
    from opsdk.kernels.cuda import cuda_origin
    from opsdk_nn.kernels.activations import GELU

    fwd = GELU.value_kernel
    x = cupy.asarray(numpy.linspace(-6, 6, SIZE, dtype=numpy.float32))
    capability = cuda.device_capability(cupy)
    runs, origins = {}, {}
    newer = (capability // 10 + 1) * 10  # a GPU no cubin of this build serves: the PTX is loaded
    for name, patch in (("cubin", {}), ("ptx", {"device_capability": lambda c: newer}),
                        ("source", {"_shipped_module": lambda *a: None})):
        saved = {attr: getattr(cuda, attr) for attr in patch}
        cuda._modules.clear()
        fwd._plans = {}  # the kernel keeps its bound module: each run must load its own
        try:
            for attr, value in patch.items():
                setattr(cuda, attr, value)
            origins[name] = cuda_origin(source).kind
            with warnings.catch_warnings():
                warnings.simplefilter("error", OpsdkWarning)  # a refused or unloadable build is a failure here
                runs[name] = fwd.run("cuda", x, p0=0.0, p1=0.0).get()
        except Exception as error:  # report it as the verdict
            runs[name] = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        finally:
            for attr, value in saved.items():
                setattr(cuda, attr, value)
    cuda._modules.clear()
    out = {"prebuilt files": _files_hold_the_kernels(entry, source)}
    for name in ("cubin", "ptx"):
        if isinstance(runs[name], str) or isinstance(runs["source"], str):
            out[f"prebuilt {name}"] = f"FAIL: {runs[name] if isinstance(runs[name], str) else runs['source']}"
        elif origins[name] != name:
            out[f"prebuilt {name}"] = f"FAIL: the loader took {origins[name]}, not the {name}"
        else:
            worst = float(numpy.max(numpy.abs(runs[name] - runs["source"])))
            ok = numpy.allclose(runs[name], runs["source"], rtol=1e-6, atol=1e-7)
            out[f"prebuilt {name}"] = (f"{'pass' if ok else 'FAIL'} ({KERNEL} on {SIZE} float32 from the {name} vs "
                                       f"compiled from source: max |diff| {worst:.1e})")
    return out


def child(site, simulate):
    import opsdk_nn
    from opsdk_nn.kernels.activations import GELU

    source = GELU.value_kernel.sources["cuda"]

    if not os.path.realpath(opsdk_nn.__file__).startswith(os.path.realpath(site)):
        return {"prebuilt": f"FAIL: opsdk_nn imported from {opsdk_nn.__file__}, not the copy in {site}"}
    if simulate:
        entry, _ = _build(source, (80,))
        return _dry(source, entry)
    import cupy
    from opsdk.kernels import cuda

    entry, _ = _build(source, (cuda.device_capability(cupy),))
    return _on_gpu(source, entry)


def main(argv):
    if argv[:1] == ["--child"]:
        if sys.path and os.path.realpath(sys.path[0]) == HERE:
            del sys.path[0]  # the script's folder holds the pack: it must come from the copy
        print(json.dumps(child(argv[1], "--simulate" in argv)))
        return 0
    found = verdicts("--simulate" in argv)
    for item, verdict in found.items():
        print(f"{item}: {verdict}")
    return 1 if any(v.startswith("FAIL") for v in found.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
