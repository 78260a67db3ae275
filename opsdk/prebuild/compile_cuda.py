"""Compiling a CUDA source for a wheel with nvcc: a cubin per architecture and the PTX of the lowest,
the way ``opsdk.kernels.prebuilt_cuda`` finds and checks them."""
import os
import shlex
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

from opsdk.errors import CudaCompileError
from opsdk.kernels import prebuilt, prebuilt_cuda, trust
from opsdk.kernels.digest import digest_file
from opsdk.kernels.keys import prebuilt_cuda_key
from opsdk.kernels.nvcc import _first_nvcc_error, _indent


def aot_blocker(source):
    """Why source cannot be compiled ahead of time (its kernels then compile at run time), or None."""
    names = source.names
    if not names:
        return 'it defines no extern "C" __global__ kernel to load by name'
    templated = [n for n in names if "<" in n]
    if templated:
        return (f"its kernel names {', '.join(templated)} are template instances, which only NVRTC "
                f"names at run time")
    return None


def nvcc_version(nvcc):
    """nvcc's version line (``Cuda compilation tools, release 13.0, V13.0.88``), or ''."""
    try:
        done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = [line.strip() for line in done.stdout.splitlines() if "release" in line]
    return lines[-1] if lines else ""


def target_command(nvcc, source, label, output, cu_path):
    """The nvcc command that makes one target (``sm_90``: a cubin; ``compute_75``: PTX)."""
    what = "--cubin" if prebuilt_cuda.file_format(label) == "cubin" else "--ptx"
    return [nvcc, what, f"-arch={label}", f"-I{source.base_dir}", *source.options, "-o", output, cu_path]


def compile_cuda_into(source, folder, nvcc, archs, jobs=None):
    """Compile a CudaSource for a wheel into ``folder/<prebuilt key>/`` (made here): a cubin per
    architecture in ``archs`` and the PTX of the lowest, with their MANIFEST.

    Args:
        source: the CudaSource (see ``aot_blocker`` for those that cannot be).
        folder: the package's ``_opsdk_prebuilt`` folder in the build tree.
        nvcc: the path of nvcc (``nvcc.find_nvcc()``).
        archs: architectures as numbers, e.g. ``(80, 90)``.
        jobs: how many nvcc run at once (default: one per CPU).

    Returns:
        ``(entry, labels)``: the entry folder and the targets it holds (``sm_80``, ``compute_80``, ...).

    Raises:
        CudaCompileError: nvcc rejects it (its first error, the command, its output).
    """
    code = source.read()
    key = prebuilt_cuda_key(source, code)
    entry = os.path.join(folder, key)
    os.makedirs(entry, exist_ok=True)
    labels = prebuilt_cuda.arch_labels(archs)
    with tempfile.TemporaryDirectory(prefix="opsdk-nvcc-") as tmp:
        # the very text the key hashes, with the file and line nvcc's messages should name
        cu_path = os.path.join(tmp, "source.cu")
        with open(cu_path, "w", encoding="utf-8") as f:
            f.write(f"{source.line_directive()}\n{code}")
        commands = [target_command(nvcc, source, label, os.path.join(entry, prebuilt_cuda.file_name(key, label)),
                                   cu_path) for label in labels]
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
            results = list(pool.map(lambda args: subprocess.run(args, capture_output=True, text=True), commands))
    for args, done in zip(commands, results):
        if done.returncode != 0:
            log = (done.stdout + done.stderr).strip()
            raise CudaCompileError(f"{source.display_name}: nvcc for the wheel failed\n"
                                   f"  {_first_nvcc_error(log)}\n  command: {shlex.join(args)}\n"
                                   f"  nvcc output:\n{_indent(log)}")
    seal_entry(entry, source, key, labels, nvcc_version(nvcc))
    return entry, labels


def seal_entry(entry, source, key, labels, toolchain):
    """Write the MANIFEST of a CUDA entry whose files (``prebuilt_cuda.file_name(key, label)`` for
    each label) are made, and take group and others' write permission from it all."""
    lines = [f"kind {prebuilt_cuda.KIND}", f"key {key}", f"source {prebuilt.source_label(source)}",
             f"kernels {' '.join(source.names)}"]
    for label in labels:
        name = prebuilt_cuda.file_name(key, label)
        path = os.path.join(entry, name)
        lines.append(f"{label} {name} {os.path.getsize(path)} {digest_file(path)}")
    lines.append(f"nvcc {toolchain}")
    trust.write_private(os.path.join(entry, "MANIFEST"), "\n".join(lines) + "\n")
    trust.seal(entry)
