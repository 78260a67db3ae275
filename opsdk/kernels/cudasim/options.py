"""NVRTC compile options as the simulator honours them: -I, -D, -U, -std and fast maths.

Options that only steer code generation for the GPU (architecture, registers, line info, ...)
change nothing on the host and are accepted; an option NVRTC does not know is an error here too.
"""
import os
from typing import NamedTuple

from opsdk.errors import KernelBuildError

# NVRTC's options (short and long spellings) that do not change what a kernel computes here
_IGNORED = (
    "-arch", "--gpu-architecture", "-dc", "--device-c", "-dw", "--device-w", "-rdc",
    "--relocatable-device-code", "-ewp", "--extensible-whole-program", "-G", "--device-debug",
    "-lineinfo", "--generate-line-info", "-dopt", "--dopt", "-Xptxas", "--ptxas-options",
    "-maxrregcount", "--maxrregcount", "--prec-sqrt", "-prec-sqrt", "--prec-div", "-prec-div", "--fmad",
    "-fmad", "--extra-device-vectorization", "-extra-device-vectorization", "--modify-stack-limit",
    "-dlto", "--dlink-time-opt", "--gen-opt-lto", "--optix-ir", "--jump-table-density",
    "--no-source-include", "--builtin-move-forward", "--builtin-initializer-list", "-w",
    "--disable-warnings", "-restrict", "--restrict", "-default-device",
    "--device-as-default-execution-space", "--device-int128", "--optimization-info",
    "--display-error-number", "--no-display-error-number", "--diag-error", "--diag-suppress",
    "--diag-warn", "--brief-diagnostics", "--time", "--split-compile", "--fdevice-syntax-only",
    "--minimal", "--device-stack-protector", "--fdevice-time-trace", "-ftz", "--ftz",
)
_FAST_MATH = ("-use_fast_math", "--use_fast_math")


class CompileOptions(NamedTuple):
    """What the host compiler gets from a CUDA source's options."""

    flags: tuple          # -I / -D / -U for the preprocessor
    include_dirs: tuple
    std: str
    fast_math: bool


def _value(option, name):
    """The value of ``name`` in ``option`` (``-Ix``, ``-I=x``, ``--include-path=x``), or None."""
    if option == name:
        return None
    for sep in ("=", ""):
        if option.startswith(name + sep):
            return option[len(name) + len(sep):]
    return None


def compile_options(options, display_name):
    """The CompileOptions of NVRTC ``options``.

    Raises:
        KernelBuildError: an option NVRTC does not accept (or one with its value missing).
    """
    flags, includes, std, fast = [], [], "-std=c++17", False
    pending = None
    for option in options:
        option = str(option)
        if pending:
            option, pending = pending + option, None
        if option in ("-I", "--include-path", "-D", "--define-macro", "-U", "--undefine-macro"):
            pending = {"-I": "-I", "--include-path": "-I", "-D": "-D", "--define-macro": "-D",
                       "-U": "-U", "--undefine-macro": "-U"}[option]
            continue
        for long, short in (("--include-path", "-I"), ("--define-macro", "-D"), ("--undefine-macro", "-U")):
            value = _value(option, long)
            if value is not None:
                option = short + value
        if option.startswith("-I"):
            path = os.path.abspath(option[2:])
            includes.append(path)
            flags.append(f"-I{path}")
        elif option.startswith(("-D", "-U")):
            flags.append(option)
        elif option.startswith(("-std=", "--std=")):
            std = "-std=" + option.split("=", 1)[1]
        elif option in _FAST_MATH:
            fast = True
            flags.append("-DOPSDK_SIM_FAST_MATH")
        elif option.startswith(_IGNORED):
            if (option.startswith(("-ftz", "--ftz")) and option.endswith("true")):
                fast = True
        else:
            raise KernelBuildError(
                f"{display_name}: NVRTC does not accept the compile option {option!r}\n"
                f"  expected: an NVRTC option (-I, -D, -U, -std=, --use_fast_math, -arch=, ...)\n"
                f"  got: {option!r}")
    if pending:
        raise KernelBuildError(f"{display_name}: compile option {pending!r} has no value")
    return CompileOptions(tuple(flags), tuple(includes), std, fast)
