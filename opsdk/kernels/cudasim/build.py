"""Compiling for the CUDA simulator: its runtime once per machine, each CUDA source once per content.

Both go to the kernel cache (``cache_dir()/cudasim/<key>``) with the C kernels' machinery: a
key over everything that changes the result, an OS lock per entry, atomic installation and a
manifest checked on load.
"""
import json
import os
import shlex
import shutil
import threading
import time
from typing import NamedTuple

from opsdk.env import setting
from opsdk.errors import BackendUnavailableError, KernelBuildError
from opsdk.kernels.cache import append_build_log, build_lock, subdir
from opsdk.kernels.entries import (discard_entry, installed_extension, new_build_dir, verified_extension,
                                   write_manifest)
from opsdk.kernels.compiler import first_error, run_logged
from opsdk.kernels.digest import digest_parts
from opsdk.kernels.keys import local_headers

from . import abi
from .options import compile_options
from .rewrite import rewrite
from .toolchain import INCLUDE_DIR, KERNEL_FLAGS, RUNTIME_DIR, RUNTIME_FLAGS, no_compiler_reason, toolchain

RECIPE = "opsdk-cudasim-1"
RUNTIME_NAME = "opsdk_cuda_sim_runtime.so"
MODULE_NAME = "module.so"
_lock = threading.Lock()


class ModuleBuild(NamedTuple):
    """A compiled kernel module: the shared library and what it exports."""

    path: str
    kernels: dict      # name (expression) -> {"params": [[type, name], ...], "file": ..., "line": ...}
    instrumented: bool
    fast_math: bool


def _sources_digest():
    """A digest of the simulator's own C++ sources (runtime and headers)."""
    parts = []
    for folder in (RUNTIME_DIR, INCLUDE_DIR):
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    parts += [os.path.relpath(path, folder), f.read()]
    return digest_parts(RECIPE, str(abi.ABI), *parts)


def _chain():
    chain = toolchain()
    if chain is None:
        raise BackendUnavailableError(no_compiler_reason())
    return chain


def build_runtime():
    """Path of the simulator's runtime library, compiled on first use."""
    chain = _chain()
    key = digest_parts(_sources_digest(), chain.identity, *RUNTIME_FLAGS)[:32]
    entry = os.path.join(subdir("cudasim"), f"runtime-{key}")

    def compile_into(tmp):
        sources = sorted(os.path.join(RUNTIME_DIR, f) for f in os.listdir(RUNTIME_DIR) if f.endswith(".cpp"))
        command = [*chain.command, *RUNTIME_FLAGS, f"-I{RUNTIME_DIR}", *sources, "-o", RUNTIME_NAME]
        _run(command, tmp, "the CUDA simulator's runtime")
        return {}

    return _cached(entry, RUNTIME_NAME, compile_into, "cuda simulator runtime")


def build_module(code, options=(), name_expressions=(), display_name="<CUDA source>"):
    """The ModuleBuild of a CUDA source (compiled, or found in the cache).

    Raises:
        KernelBuildError: the source does not compile as host C++ against the simulator's
            headers (first error with file:line), or uses something the simulator cannot run.
        BackendUnavailableError: there is no C++ compiler.
    """
    chain = _chain()
    opts = compile_options(options, display_name)
    headers = local_headers(code, os.getcwd(), opts.include_dirs)
    key = digest_parts(_sources_digest(), chain.identity, *chain.hooks, *chain.extras, code, *options,
                       "names", *name_expressions, "headers", *(p + t for p, t in headers))[:32]
    entry = os.path.join(subdir("cudasim"), key)

    def compile_into(tmp):
        source = os.path.join(tmp, "source.cu")
        with open(source, "w", encoding="utf-8") as f:
            f.write(code)
        flags = [f"-I{RUNTIME_DIR}", f"-I{INCLUDE_DIR}", *opts.flags]
        _run([*chain.command, "-E", "-x", "c++", opts.std, *flags, "-include", "opsdk_cuda_sim.h",
              source, "-o", "stage1.ii"], tmp, display_name)
        with open(os.path.join(tmp, "stage1.ii"), encoding="utf-8", errors="surrogateescape") as f:
            rewritten = rewrite(f.read())
        kernels = _exported(rewritten.kernels, name_expressions, display_name)
        with open(os.path.join(tmp, "stage2.ii"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(rewritten.text)
            f.write(_entries(kernels))
        _run([*chain.command, "-x", "c++-cpp-output", opts.std, *KERNEL_FLAGS, *chain.hooks, *chain.extras, "-c",
              "stage2.ii", "-o", "module.o"], tmp, display_name)
        _run([*chain.command, "-shared", "module.o", "-o", MODULE_NAME], tmp, display_name)
        return {"kernels": kernels, "instrumented": bool(chain.hooks), "fast_math": opts.fast_math}

    path = _cached(entry, MODULE_NAME, compile_into, display_name)
    with open(os.path.join(entry, "kernels.json"), encoding="utf-8") as f:
        meta = json.load(f)
    return ModuleBuild(path, meta["kernels"], meta["instrumented"], meta["fast_math"])


def _exported(found, name_expressions, display_name):
    """{name: metadata} of every extern "C" kernel and every name expression."""
    by_name = {k.name: k for k in found}
    out = {}
    for k in found:
        if k.extern_c and not k.template:
            out[k.name] = _meta(k, k.qualified)
    for expression in name_expressions:
        base = expression.split("<")[0].split("::")[-1].strip()
        kernel = by_name.get(base)
        if kernel is None:
            raise KernelBuildError(
                f"{display_name}: name expression {expression!r} names no __global__ function\n"
                f"  expected: one of {sorted(by_name) or 'the kernels of the source'}\n  got: {base!r}")
        qualified = expression if expression.startswith("::") else "::" + expression.strip()
        if "::" not in expression:
            qualified = kernel.qualified.rsplit("::", 1)[0] + "::" + expression.strip()
        out[expression] = _meta(kernel, qualified)
    return out


def _meta(kernel, qualified):
    return {"qualified": qualified, "params": [list(p) for p in kernel.params], "file": kernel.file,
            "line": kernel.line}


def _entries(kernels):
    """Generated C++: one entry per kernel and the table the runtime reads."""
    lines = ['\n# 1 "<opsdk cuda simulator: kernel entries>"']
    rows = []
    for i, (name, meta) in enumerate(kernels.items()):
        ref = f"&{meta['qualified']}"
        lines.append(f"static void opsdk_sim_entry_{i}(void **a) {{ ::opsdk_sim::invoke({ref}, a); }}")
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        rows.append(f'{{"{quoted}", (void (*)(void **))&opsdk_sim_entry_{i}, ::opsdk_sim::param_count({ref}), '
                    f"::opsdk_sim::param_table({ref})}}")
    table = ",\n        ".join(rows) if rows else "{0, 0, 0, 0}"
    lines.append('extern "C" __attribute__((visibility("default"))) const opsdk_sim_kernel *'
                 "opsdk_sim_kernels(int *count) {\n"
                 f"    static const opsdk_sim_kernel table[] = {{\n        {table}}};\n"
                 f"    *count = {len(rows)};\n    return table;\n}}")
    lines.append(f'extern "C" __attribute__((visibility("default"))) int opsdk_sim_module_abi() {{ return {abi.ABI}; }}')
    return "\n".join(lines) + "\n"


def _run(command, cwd, what):
    """Run a compiler step in cwd (its output appended to build.log); KernelBuildError on failure."""
    log_path = os.path.join(cwd, "build.log")
    if run_logged(command, cwd, log_path, mode="a") != 0:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            text = "\n".join(line for line in f.read().splitlines() if not line.startswith("$ "))
        kept = os.path.join(subdir("logs"), "cudasim-" + os.path.basename(cwd))
        discard_entry(kept)
        shutil.copytree(cwd, kept)
        raise KernelBuildError(
            f"CUDA simulator: the host C++ compiler rejected {what}\n"
            f"  {first_error(text)}\n"
            f"  (the simulator compiles CUDA as C++ against its own headers: a CUDA feature it does "
            f"not model fails here; `nvcc --ptx` is the check of what NVRTC accepts)\n"
            f"  command (in {kept}): {shlex.join(command)}\n"
            f"  full log: {os.path.join(kept, 'build.log')}"
        )


def _cached(entry, so_name, compile_into, label):
    """Path of a private, checked copy of ``so_name`` in the cache entry (to load), built by
    ``compile_into(tmp_dir)`` when missing."""
    so_path = verified_extension(entry)
    if so_path is not None:
        return so_path
    with _lock:
        lock, timeout_error = build_lock(entry + ".lock", setting("OPSDK_BUILD_TIMEOUT"))
        try:
            with lock:
                so_path = verified_extension(entry)
                if so_path is not None:
                    return so_path
                discard_entry(entry)
                tmp = new_build_dir(entry)
                started = time.perf_counter()
                try:
                    meta = compile_into(tmp)
                    with open(os.path.join(tmp, "kernels.json"), "w", encoding="utf-8") as f:
                        json.dump(meta, f)
                    write_manifest(tmp, so_name)
                    os.rename(tmp, entry)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
                append_build_log(f"cudasim {os.path.basename(entry)} {label} "
                                 f"{time.perf_counter() - started:.3f}s")
        except timeout_error:
            raise KernelBuildError(f"{label}: timed out waiting for another process building it "
                                   f"(lock {entry}.lock; raise OPSDK_BUILD_TIMEOUT)") from None
    return installed_extension(entry, label)
