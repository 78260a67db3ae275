"""Compile-check CUDA sources with ``nvcc --ptx``: catches syntax errors on machines without a GPU."""

import os
import re
import shutil
from typing import NamedTuple

from opsdk.errors import CudaCompileError
from opsdk.kernels.sources import CudaSource

# nvcc front end: "file.cu(12): error: ..." (also "catastrophic error"); preprocessor/host: "file.cu:12:3: error:"
_NVCC_ERROR = (
    r"(?m)^(?P<file>.+?)\((?P<line>\d+)\): (?:catastrophic )?error:? (?P<msg>.*)$"
    r"|^(?P<file2>.+?):(?P<line2>\d+)(?::\d+)?: (?:fatal )?error: (?P<msg2>.*)$"
)


class CudaCheck(NamedTuple):
    """What ``check_cuda_source`` found: ``checked`` is False (with ``reason``) when nvcc is absent."""

    checked: bool
    reason: str
    ptx: str
    command: tuple


def find_nvcc():
    """Path of nvcc: on PATH, else under $CUDA_HOME / $CUDA_PATH, else None."""
    found = shutil.which("nvcc")
    if found:
        return found
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.path.isfile(os.path.join(root, "bin", "nvcc")):
            return os.path.join(root, "bin", "nvcc")
    return None


def check_cuda_source(source, arch=None, *, options=None, kernel=None):
    """Compile a CUDA source to PTX with nvcc, so CI catches errors without a GPU.

    Args:
        source: a CudaSource, or the path of a ``.cu`` file.
        arch: e.g. ``"sm_80"`` or ``"compute_90"`` (default: nvcc's default).
        options: compiler options (default: the CudaSource's).
        kernel: the kernel's name, for error messages.

    Returns:
        ``CudaCheck(checked, reason, ptx, command)``; ``checked`` is False when nvcc is absent,
        and ``reason`` says so (callers skip with it).

    Raises:
        CudaCompileError: nvcc rejected the source; the message gives its first error as
            ``file.cu:LINE: error: ...``, the command and nvcc's whole output.

    Example:
        >>> result = check_cuda_source(CudaSource(code='extern "C" __global__ void k(float *y) { y[0] = 1; }'))
        >>> result.checked or result.reason.startswith("nvcc not found")
        True
    """
    import shlex
    import subprocess
    import tempfile

    if not isinstance(source, CudaSource):
        source = CudaSource(os.path.abspath(os.fspath(source)))
    nvcc = find_nvcc()
    if nvcc is None:
        return CudaCheck(False, "nvcc not found (not on PATH, nor under $CUDA_HOME/bin or $CUDA_PATH/bin)", "", ())
    code = source.read(kernel)
    options = source.options if options is None else tuple(options)
    with tempfile.TemporaryDirectory(prefix="opsdk-nvcc-") as tmp:
        if source.path is not None:
            cu_path = source.path
        else:
            cu_path = os.path.join(tmp, "inline.cu")
            with open(cu_path, "w", encoding="utf-8") as f:
                f.write(f"{source.line_directive()}\n{code}")
        ptx_path = os.path.join(tmp, "out.ptx")
        command = [nvcc, "--ptx", *(["-arch", arch] if arch else []), f"-I{source.base_dir}",
                   *options, "-o", ptx_path, cu_path]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            log = (done.stdout + done.stderr).strip()
            who = f"kernel {kernel!r}: " if kernel else ""
            raise CudaCompileError(
                f"{who}nvcc rejected {source.display_name}\n"
                f"  {_first_nvcc_error(log)}\n"
                f"  command: {shlex.join(command)}\n"
                f"  nvcc output:\n{_indent(log)}"
            )
        with open(ptx_path, encoding="utf-8") as f:
            ptx = f.read()
    return CudaCheck(True, "", ptx, tuple(command))


def _first_nvcc_error(log):
    """nvcc's first error as ``file:line: error: message``."""
    match = re.search(_NVCC_ERROR, log)
    if match is None:
        lines = [line for line in log.splitlines() if line.strip()]
        return next((line for line in lines if "error" in line.lower()), lines[0] if lines else "nvcc failed")
    if match["file"]:
        return f"{match['file']}:{match['line']}: error: {match['msg']}"
    return f"{match['file2']}:{match['line2']}: error: {match['msg2']}"


def _indent(text):
    """text indented by four spaces."""
    return "\n".join("    " + line for line in text.splitlines())
