"""The host C++ compiler the CUDA simulator compiles kernels with, and the flags it uses."""
import os
import shutil
import subprocess
import tempfile
from typing import NamedTuple

from opsdk.env import setting
from opsdk.errors import CacheUnusableError
from opsdk.kernels.cache import subdir
from opsdk.kernels.compiler import compiler_env, compiler_identity
from opsdk.kernels.digest import digest_parts
from opsdk.kernels.trust import read_trusted, write_private

_CANDIDATES = ("g++", "clang++", "c++")
RUNTIME_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runtime")
INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")

# -fwrapv: signed overflow wraps as on a GPU; -fno-strict-aliasing: kernels pun types through
# reinterpret_cast, which nvcc does not punish; no contraction (a*b+c stays two roundings)
# stack-clash protection probes every page a frame takes, so a deep frame hits the fiber
# stack's guard page instead of jumping over it into the next thread's stack; -g1 keeps the
# line tables (inlined calls included) that name a fault's source line, in DWARF 4: binutils'
# addr2line (2.40) names the compile's own file (source.cu) for lines of DWARF 5's file 1 when
# that is the user's #line file, as it is when the user's code comes first in the module;
# -fno-plt: a kernel calls the runtime's access hooks through the GOT directly, not through a
# PLT stub each time
KERNEL_FLAGS = ("-O2", "-g1", "-gdwarf-4", "-fPIC", "-fwrapv", "-fno-strict-aliasing", "-ffp-contract=off",
                "-fvisibility=hidden", "-fstack-clash-protection", "-fno-plt", "-w")
RUNTIME_FLAGS = ("-std=c++17", "-O2", "-fPIC", "-shared", "-pthread", "-fno-strict-aliasing",
                 "-fvisibility=hidden", "-frounding-math", "-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=0")
# every load and store of a kernel calls the runtime's __tsan_read/__tsan_write hooks (bounds,
# shared-memory initialisation and races): thread-sanitizer instrumentation reports each access
# with its direction, where address-sanitizer's drops a store after a load of the same address.
# Only the compile step gets it: the link takes no sanitizer runtime (the simulator's is it).
_GCC_HOOKS = ("-fsanitize=thread", "--param", "tsan-instrument-func-entry-exit=0")
_CLANG_HOOKS = ("-fsanitize=thread", "-mllvm", "-tsan-instrument-func-entry-exit=0",
                "-mllvm", "-tsan-instrument-read-before-write=1")


# Float-to-integer conversions out of range (and of NaN) saturate on a GPU (cvt; NaN gives 0)
# and are undefined in C++: clang can be told to saturate as the GPU does; gcc cannot, so its
# conversions are checked (the runtime's __ubsan_handle_float_cast_overflow names the line).
_CONVERSION_FLAGS = (("-fno-strict-float-cast-overflow",), ("-fsanitize=float-cast-overflow",))
# A local variable read before it is set holds whatever the GPU's register held; on the host it
# might hold 0 by luck and hide the bug: fill such locals with a pattern (huge values, garbage).
_LOCALS_FLAGS = (("-ftrivial-auto-var-init=pattern",),)
# gcc splits a float4 / double2 copy into scalar loads (scalar replacement of aggregates), so the
# access hooks would never see the 16-byte load a GPU makes, nor its misalignment: keep them whole
_AGGREGATE_FLAGS = (("-fno-tree-sra",),)


class Toolchain(NamedTuple):
    """A host C++ compiler: its command, identity (for cache keys), access-hook and conversion flags."""

    command: tuple
    identity: str
    hooks: tuple  # () when the compiler cannot instrument accesses
    conversions: tuple = ()  # how out-of-range float-to-integer conversions are made GPU-like or caught
    locals: tuple = ()  # how uninitialised local variables get garbage
    aggregates: tuple = ()  # how vector loads stay whole

    @property
    def extras(self):
        """The kernel flags besides the access hooks: conversions, locals, aggregates."""
        return (*self.conversions, *self.locals, *self.aggregates)


_found = {}


def find_cxx():
    """The C++ compiler command ($CXX, else g++, clang++ or c++ on PATH), or None."""
    cxx = os.environ.get("CXX", "").strip()
    if cxx:
        words = cxx.split()
        path = shutil.which(words[0])
        return None if path is None else (path, *words[1:])
    for name in _CANDIDATES:
        path = shutil.which(name)
        if path:
            return (path,)
    return None


def toolchain():
    """The Toolchain (probed once per process), or None without a C++ compiler."""
    command = find_cxx()
    if command is None:
        return None
    found = _found.get(command)
    if found is None:
        identity = compiler_identity(list(command))
        found = _found[command] = Toolchain(command, identity, _probe_hooks(command, identity),
                                            _probe(command, identity, "conversions", _CONVERSION_FLAGS),
                                            _probe(command, identity, "locals", _LOCALS_FLAGS),
                                            _probe(command, identity, "aggregates", _AGGREGATE_FLAGS))
    return found


def _probe_hooks(command, identity):
    """The instrumentation flags the compiler accepts (gcc's or clang's spelling), or ().

    The answer is kept in the cache, keyed by the compiler's identity: probing costs a compile.
    """
    if not setting("OPSDK_CUDA_SIM_INSTRUMENT"):
        return ()
    candidates = (_CLANG_HOOKS, _GCC_HOOKS) if "clang" in identity else (_GCC_HOOKS, _CLANG_HOOKS)
    return _probe(command, identity, "hooks", candidates)


def _probe(command, identity, what, candidates):
    """The first flag set of ``candidates`` the compiler accepts, or (); kept in the cache by the
    compiler's identity (probing costs a compile)."""
    memo = os.path.join(subdir("cudasim"), f"{what}-" + digest_parts(identity)[:24])
    try:
        text = read_trusted(memo).decode("utf-8")
        return tuple(text.split("\n")) if text else ()
    except (OSError, UnicodeDecodeError, CacheUnusableError):
        pass  # none yet, or not one only you could have written: probe again
    flags = _compile_probe(command, candidates)
    write_private(memo, "\n".join(flags))
    return flags


def _compile_probe(command, candidates):
    """The first of ``candidates`` (flag tuples) that compiles a one-line source, or ()."""
    with tempfile.TemporaryDirectory(prefix="opsdk-cudasim-probe-") as tmp:
        src = os.path.join(tmp, "probe.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write("extern \"C\" int probe(int *p) { return p[1]; }\n")
        for flags in candidates:
            done = subprocess.run([*command, "-c", *flags, src, "-o", os.path.join(tmp, "probe.o")],
                                  capture_output=True, text=True, env=compiler_env(tmp))
            if done.returncode == 0:
                return flags
    return ()


def no_compiler_reason():
    """Why the simulator cannot compile kernels here."""
    wanted = os.environ.get("CXX") or " / ".join(_CANDIDATES)
    return (f"the CUDA simulator needs a C++ compiler: looked for {wanted} on PATH; install g++ or "
            "clang++, or set CXX")
