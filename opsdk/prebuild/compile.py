"""Compiling a C source for a wheel, the way ``opsdk.kernels.prebuilt`` finds and checks it."""
import os
import shlex

import cffi

from opsdk.errors import KernelBuildError
from opsdk.kernels import prebuilt
from opsdk.kernels.cbuild import compile_command
from opsdk.kernels.cgen import generate_c
from opsdk.kernels.compiler import _version_text, first_error, run_logged
from opsdk.kernels.entries import write_manifest
from opsdk.kernels.keys import prebuilt_abi, prebuilt_key


def compile_into(source, folder, command):
    """Compile source for a wheel into ``folder/<prebuilt key>/`` (made here); returns that entry.

    Args:
        source: the CSource.
        folder: the package's ``_opsdk_prebuilt`` folder in the build tree.
        command: the compiler command (``compiler.find_compiler()``).

    Raises:
        KernelBuildError: it does not compile (the compiler's first error, the command, the log).
    """
    code = source.read()
    key = prebuilt_key(source, code)
    entry = os.path.join(folder, key)
    os.makedirs(entry, exist_ok=True)
    so_name, c_name = prebuilt.extension_name(key, prebuilt_abi()), prebuilt.module_name(key) + ".c"
    with open(os.path.join(entry, c_name), "w", encoding="utf-8") as f:
        f.write(generate_c(source, code, prebuilt.module_name(key), c_name))
    args = compile_command(source, command, so_name, c_name)
    log = os.path.join(entry, "build.log")
    if run_logged(args, entry, log) != 0:
        with open(log, encoding="utf-8", errors="replace") as f:
            f.readline()  # the command line
            text = f.read()
        raise KernelBuildError(f"{source.display_name}: C compile for the wheel failed\n"
                               f"  {first_error(text)}\n  command (in {entry}): {shlex.join(args)}")
    for name in (c_name, "build.log"):
        os.unlink(os.path.join(entry, name))  # the wheel ships the extension, not its intermediates
    write_manifest(entry, so_name)
    compiler = [" ".join(command), *_version_text(command).splitlines()[:1]]
    with open(os.path.join(entry, "MANIFEST"), "a", encoding="utf-8") as f:
        f.write(f"key {key}\nsource {prebuilt.source_label(source)}\ncffi {cffi.__version__}\n"
                f"compiler {' | '.join(compiler[:2])}\n")
    return entry
