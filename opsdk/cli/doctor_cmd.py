"""``opsdk doctor``: what opsdk finds here (Python, compilers, CuPy, GPU, cache, packs), with fixes."""
import json
import os
import sys
from dataclasses import asdict, dataclass

import click

OK, WARN, ERROR = "ok", "warn", "error"


@dataclass
class Finding:
    """One line of the report: what was checked, what was found, and how to fix a problem."""

    status: str
    name: str
    detail: str
    fix: str = ""
    traceback: str = ""
    details: str = ""  # lines shown with --verbose (each kernel's origin)


def _python():
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info < (3, 10):
        return Finding(ERROR, "Python", f"{version} ({sys.executable})", "opsdk needs Python 3.10 or newer")
    return Finding(OK, "Python", f"{version} ({sys.executable})")


def _opsdk():
    from .. import version
    from ..version import __version__

    where = version.__file__  # opsdk/version.py: its folder is the package
    from ..errors import TemplateError
    from ..scaffold import template_version, templates_dir

    try:
        templates = templates_dir()
    except TemplateError as error:
        return Finding(ERROR, "opsdk", f"{__version__} ({os.path.dirname(where)}); {error}",
                       "reinstall opsdk: pip install --force-reinstall opsdk")
    return Finding(OK, "opsdk", f"{__version__} ({os.path.dirname(where)}); templates "
                                f"v{template_version(templates)} in {templates}")


def _module(name, label, fix):
    try:
        module = __import__(name)
    except ImportError as error:
        return Finding(ERROR, label, f"cannot import: {error}", fix)
    return Finding(OK, label, getattr(module, "__version__", "?"))


def _c_compiler():
    import sysconfig

    from ..errors import CompilerSettingError
    from ..kernels import compiler_info
    from ..kernels.compiler import find_compiler

    try:
        find_compiler()
    except CompilerSettingError as error:
        text, fix = str(error).split("; fix: ", 1)
        return Finding(ERROR, "C compiler", text, fix)
    info = compiler_info()
    if not info.available:
        return Finding(WARN, "C compiler", info.reason,
                       "install gcc or clang (Debian/Ubuntu: apt install build-essential; macOS: "
                       "xcode-select --install) or set CC; until then C kernels run only from builds "
                       "cached by `opsdk build`, and otherwise fall back to python")
    headers = os.path.join(sysconfig.get_paths()["include"], "Python.h")
    if not os.path.isfile(headers):
        return Finding(WARN, "C compiler", f"{info.version or info.path}, but {headers} is missing",
                       "install Python's headers (Debian/Ubuntu: apt install python3-dev) so C "
                       "kernels can compile")
    return Finding(OK, "C compiler", f"{info.version or '?'} ({info.path})")


def _nvcc():
    import subprocess

    from ..kernels import find_nvcc

    path = find_nvcc()
    if path is None:
        return Finding(WARN, "nvcc", "not found (PATH, $CUDA_HOME/bin, $CUDA_PATH/bin)",
                       "install the CUDA toolkit or set CUDA_HOME; only needed to compile-check "
                       "CUDA kernels (`opsdk build`) where there is no GPU")
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
        lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
        version = next((line for line in lines if "release" in line), lines[-1])
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "version unknown"
    return Finding(OK, "nvcc", f"{version} ({path})")


def _cupy_and_gpu():
    import importlib.util

    from ..kernels import cuda_status

    cupy_fix = "pip install 'opsdk[cuda]' (needs an NVIDIA GPU and driver); CUDA kernels need it"
    if importlib.util.find_spec("cupy") is None:
        return [Finding(WARN, "CuPy", "not installed", cupy_fix),
                Finding(WARN, "GPU", "not checked: needs CuPy", cupy_fix)]
    try:
        import cupy
    except Exception as error:  # a CuPy built for another CUDA raises at import, not ImportError only
        return [Finding(ERROR, "CuPy", f"installed but does not import: {error}",
                        "install the CuPy wheel matching your CUDA (pip install cupy-cuda12x)"),
                Finding(WARN, "GPU", "not checked: CuPy does not import", cupy_fix)]
    cupy_line = Finding(OK, "CuPy", cupy.__version__)
    available, why = cuda_status()
    if not available:
        return [cupy_line, Finding(WARN, "GPU", why, "check the NVIDIA driver (nvidia-smi); CUDA "
                                                   "kernels fall back to python until a GPU is visible")]
    count = cupy.cuda.runtime.getDeviceCount()
    names = []
    for index in range(count):
        name = cupy.cuda.runtime.getDeviceProperties(index)["name"]
        names.append(name.decode() if isinstance(name, bytes) else str(name))
    return [cupy_line, Finding(OK, "GPU", f"{count} device(s): {', '.join(names)}")]


def _cuda_simulator():
    from ..kernels.cudasim import status

    state, detail = status()
    if state == "off":
        return Finding(OK, "CUDA simulator", "off (OPSDK_CUDA_SIM=1 or `opsdk check --simulate` runs "
                                             f"the cuda backend on the CPU: {detail})")
    return Finding(OK if "no C++" not in detail else WARN, "CUDA simulator",
                   f"{state}: CuPy and the GPU above are simulated; {detail} (not a benchmark)",
                   "" if "no C++" not in detail else "install g++ or clang++, or set CXX")


# less free space than this on the cache's filesystem is worth a warning (a build takes ~100 KiB)
LOW_SPACE = 100 << 20


def _cache():
    """The kernel cache: usable, opsdk's, yours alone, with room; and every entry trusted."""
    from .cache_cmd import human_size
    from ..kernels import cache_info, cache_problem
    from ..kernels.cache import untrusted_items
    from ..writable import free_space, nearest_existing

    info = cache_info()
    problem = cache_problem()
    summary = f"{info.path} ({info.entries} build(s), {human_size(info.total_bytes)})"
    if problem is not None:
        detail = str(problem)
        if problem.kind in ("not-writable", "full") and info.entries and cache_problem(writing=False) is None:
            detail += f" ({info.entries} prebuilt build(s) still load; other C kernels fall back to python)"
        else:
            detail += " (C kernels fall back to python)"
        return Finding(ERROR, "cache", detail, problem.fix)
    unsafe = untrusted_items()
    if unsafe:
        more = f" and {len(unsafe) - 1} more" if len(unsafe) > 1 else ""
        return Finding(ERROR, "cache", f"{summary}: {len(unsafe)} item(s) are not loaded, since someone "
                                       f"else could have written them: {unsafe[0]}{more}",
                       "`opsdk cache clear` removes them (they rebuild on next use)")
    free, _ = free_space(nearest_existing(info.path))
    if free is not None and free < LOW_SPACE:
        return Finding(WARN, "cache", f"{summary}; only {human_size(free)} free on its filesystem",
                       "free space there, or set OPSDK_CACHE_DIR to a directory on another filesystem")
    return Finding(OK, "cache", summary)


def _packs():
    from .list_cmd import failure_hint
    from ..packs.loading import get_registry
    from ..printable import printable

    registry = get_registry()
    packs = registry.packs()
    ops = sum(len(p.ops) for p in packs)
    found = [Finding(OK, "packs", f"{len(packs)} loaded ({', '.join(p.name for p in packs)}), {ops} op(s)")]
    for failure in registry.failures():
        # a pack's name, version, message and traceback may hold ESC, BEL, NUL: shown as escapes
        found.append(Finding(ERROR, printable(f"pack {failure.pack}"),
                             printable(f"({failure.source}) failed at {failure.stage}: "
                                       f"{type(failure.error).__name__}: {failure.error}"),
                             printable(failure_hint(failure)), printable(failure.traceback)))
    return found


_FROM = {"prebuilt": "prebuilt in the wheel", "cache": "cached", "compile": "compiled on first call",
         "python": "python fallback"}
_CUDA_FROM = {"cubin": "prebuilt cubin", "ptx": "prebuilt PTX", "prebuilt": "prebuilt in the wheel",
              "compile": "compiled by CuPy on first call", "simulator": "run on the simulator"}


def _kernels():
    """Per pack: where its C kernels come from here (prebuilt in its wheel, the cache, a compile
    on first call, python) and why; a warning for a stale or refused prebuilt build, or no C.
    The same for its CUDA kernels (a prebuilt cubin or PTX, a compile by CuPy, the simulator)."""
    from .list_cmd import c_origins, cuda_origins
    from ..packs.loading import get_registry

    found, memo = [], {}
    for pack in get_registry().packs():
        kernels = {k.name: k for op in pack.ops for k in op.kernels}.values()
        c = _origins_finding(f"kernels {pack.name}", "C", c_origins(kernels, memo), _FROM)
        cuda = _origins_finding(f"cuda kernels {pack.name}", "CUDA", cuda_origins(kernels, memo), _CUDA_FROM)
        found += [f for f in (c, cuda) if f is not None]
    return found


def _origins_finding(name, language, origins, words):
    """The doctor line of one language's kernels of a pack: counts by origin; a warning for a
    stale or refused prebuilt build, or (C) for the python fallback."""
    from ..printable import printable

    if not origins:
        return None
    counts = {}
    for origin in origins.values():
        counts[origin.kind] = counts.get(origin.kind, 0) + 1
    detail = f"{len(origins)} {language} kernel(s): " + ", ".join(f"{n} {words[k]}" for k, n in counts.items())
    stale = sorted({o.why for o in origins.values() if o.stale})
    fallback = sorted({o.why for o in origins.values() if o.kind == "python"})
    status, fix = OK, ""
    if stale:
        status, detail = WARN, f"{detail}; the wheel's build was not used: {stale[0]}"
        fix = "reinstall the pack's wheel, or keep editing: edited sources are compiled on first call"
    elif fallback:
        status, detail = WARN, f"{detail}; {fallback[0]}"
        fix = "install the pack's prebuilt wheel, or a C compiler"
    lines = "\n".join(f"{kernel}: {o.kind}: {o.why}" for kernel, o in sorted(origins.items()))
    return Finding(status, printable(name), printable(detail), fix, details=printable(lines))


_OTHER_VARIABLES = ("CC", "CXX", "CUDA_HOME")
# what a strict variable's bad value breaks (a lenient one is ignored, with a warning)
_BROKEN = {"OPSDK_BACKEND": "every kernel call fails", "OPSDK_CUDA_SIM_SCHEDULE": "every simulated launch fails"}


def _environment():
    """A line per variable that changes opsdk's behaviour and is set: its value, or what is wrong."""
    from ..env import VARIABLES, problems

    found = {}
    for name, message, strict, fix in problems():
        if strict:
            message += f"; {_BROKEN.get(name, 'it cannot be used')}"
        found[name] = Finding(ERROR if strict else WARN, f"${name}", message, fix)
    for name in (*VARIABLES, *_OTHER_VARIABLES):
        if name in os.environ and name not in found:
            found[name] = Finding(OK, f"${name}", repr(os.environ[name]))
    return [found[name] for name in sorted(found)]


def findings():
    """Every check doctor runs, in the order it prints them."""
    return [
        _python(), _opsdk(),
        _module("numpy", "NumPy", "pip install numpy"),
        _module("cffi", "cffi", "pip install cffi (C kernels are compiled through it)"),
        _c_compiler(), _nvcc(), *_cupy_and_gpu(), _cuda_simulator(), _cache(), *_packs(), *_kernels(),
        *_environment(),
    ]


@click.command("doctor", short_help="Check compilers, CuPy, GPU, cache and packs, with fixes.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--verbose", "-v", is_flag=True,
              help="Show the full traceback of each failed pack, and where each C kernel comes from.")
def doctor_cmd(as_json, verbose):
    """Check what opsdk needs and finds here: Python, NumPy, cffi, C compiler, nvcc, CuPy, GPU,
    the kernel cache and the installed packs, each problem with a fix. Exits 1 on errors."""
    found = findings()
    if as_json:
        click.echo(json.dumps([asdict(f) for f in found], indent=2))
    else:
        width = max(len(f.name) for f in found)
        for f in found:
            click.echo(f"{f.status:<5}  {f.name:<{width}}  {f.detail}")
            if f.fix:
                click.echo(f"{'':<5}  {'':<{width}}  fix: {f.fix}")
            for text in (t for t in (f.traceback, f.details) if t.strip()) if verbose else ():
                click.echo("\n".join(f"{'':<9}{line}" for line in text.rstrip().splitlines()))
        errors = sum(f.status == ERROR for f in found)
        warnings = sum(f.status == WARN for f in found)
        click.echo(f"\n{errors} error(s), {warnings} warning(s).")
    if any(f.status == ERROR for f in found):
        raise SystemExit(1)
