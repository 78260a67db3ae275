"""Cache keys of C builds: everything that changes the compiled extension, hashed."""

import os
import re
import sys
from importlib.machinery import EXTENSION_SUFFIXES

from opsdk.kernels.digest import digest_parts

# bump when the build recipe (flags, generated code) changes, so old entries are never reused
BUILD_RECIPE = "opsdk-c-1"
# the same for builds shipped in wheels (``prebuilt_key``): bump it with the compile command
PREBUILT_RECIPE = "opsdk-c-prebuilt-1"
# the same for CUDA builds shipped in wheels (``prebuilt_cuda_key``): PTX and cubins made by nvcc
PREBUILT_CUDA_RECIPE = "opsdk-cuda-prebuilt-1"

# patterns stay strings: re compiles (and caches) them on first use, not at import
_LOCAL_INCLUDE = r'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"'


def local_headers(code, base_dir, include_dirs=()):
    """[(path, text)] of the ``#include "..."`` files reachable from code, recursively."""
    found, seen = [], set()
    pending = [(code, base_dir)]
    while pending:
        text, here = pending.pop()
        for name in re.findall(_LOCAL_INCLUDE, text):
            for folder in (here, *include_dirs):
                candidate = os.path.normpath(os.path.join(folder, name))
                if os.path.isfile(candidate):
                    break
            else:
                continue  # the compiler reports a missing header better than we could
            if candidate in seen:
                continue
            seen.add(candidate)
            with open(candidate, encoding="utf-8", errors="surrogateescape") as f:
                header = f.read()
            found.append((candidate, header))
            pending.append((header, os.path.dirname(candidate)))
    return sorted(found)


def python_abi():
    """The interpreter ABI a compiled extension is tied to."""
    return f"{sys.implementation.cache_tag} {EXTENSION_SUFFIXES[0]} {sys.platform}"


def cffi_version():
    """Version of the cffi backend the generated module binds to."""
    import _cffi_backend  # the C part only: the compiler half of cffi stays unimported

    return _cffi_backend.__version__


def _recipe_parts(source, code, include_dirs, portable=False):
    """The headers' texts and every option of a build, as key parts (``portable``: in an order that
    does not depend on where the source and the headers are)."""
    parts = []
    headers = local_headers(code, source.base_dir, source.include_dirs)
    if portable:
        headers = sorted(headers, key=lambda found: (os.path.basename(found[0]), found[1]))
    for path, text in headers:
        parts += [os.path.basename(path), text]
    parts += ["flags", *source.extra_compile_args, "link", *source.extra_link_args]
    parts += ["libs", *source.libraries, "include", *include_dirs]
    parts += ["macros", *(f"{n}={v}" for n, v in source.define_macros), f"openmp={source.openmp}"]
    return parts


def source_key(source, code):
    """Key of everything but the compiler: finds a cached build when no compiler is present."""
    parts = [BUILD_RECIPE, code, source.key_cdef(), python_abi(), cffi_version()]
    return digest_parts(*parts, *_recipe_parts(source, code, source.include_dirs))[:32]


def platform_tag():
    """The machine a prebuilt extension runs on: OS and architecture (``linux x86_64``)."""
    import platform

    return f"{sys.platform} {platform.machine().lower()}"


def prebuilt_abi():
    """``abi3``: what cffi's API mode compiles against; a free-threaded CPython has no stable ABI
    before 3.15, so there a build serves one interpreter (its cache tag, ``cpython-313t``)."""
    import sysconfig

    return f"{sys.implementation.cache_tag}t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "abi3"


def prebuilt_key(source, code):
    """Key of a build shipped in a pack's wheel: recorded there at build time and matched against
    the installed sources before it is loaded.

    Unlike ``source_key`` it holds no path (the wheel is built in one place and installed in
    another; the headers' texts are in it, wherever they were found) and no Python version: cffi's
    API mode compiles against the stable ABI (``Py_LIMITED_API``), so one build serves every
    CPython 3 of the platform. The cffi version is recorded beside it, not in it: a cffi module
    loads under later cffi 1.x releases, and one that does not is rebuilt in the cache.
    """
    parts = [PREBUILT_RECIPE, code, source.key_cdef(), platform_tag(), prebuilt_abi()]
    return digest_parts(*parts, *_recipe_parts(source, code, (), portable=True))[:32]


def cuda_include_dirs(options):
    """The folders a CUDA source's options add to the include path (``-Idir``, ``-I dir``,
    ``--include-path=dir``, ``--include-path dir``)."""
    found, options = [], list(options)
    for i, option in enumerate(options):
        for flag in ("-I", "--include-path=", "--include-path"):
            if option.startswith(flag):
                rest = option[len(flag):]
                if rest:
                    found.append(rest)
                elif i + 1 < len(options):
                    found.append(options[i + 1])
                break
    return found


def _portable_cuda_options(options):
    """A CUDA source's options as key parts, an include folder standing as a bare ``-I``: where
    the package sits differs between the build and the install, and the headers found there are
    in the key by their texts."""
    parts, skip = [], False
    for option in options:
        if skip:
            skip = False
            continue
        if option in ("-I", "--include-path"):
            parts.append("-I")
            skip = True
        elif option.startswith(("-I", "--include-path=")):
            parts.append("-I")
        else:
            parts.append(option)
    return parts


def prebuilt_cuda_key(source, code):
    """Key of a CUDA source's PTX and cubins shipped in a pack's wheel: what CuPy would compile
    at run time (the code, its headers' texts, the options, the kernel names asked for).

    Like ``prebuilt_key`` it holds no path; it holds no platform either (PTX and cubins do not
    depend on the host) and no architecture (the MANIFEST lists those the build holds).
    """
    headers = local_headers(code, source.base_dir, cuda_include_dirs(source.options))
    names, options = source.names, _portable_cuda_options(source.options)
    parts = [PREBUILT_CUDA_RECIPE, code, str(len(names)), *names, str(len(options)), *options]
    for path, text in sorted(headers, key=lambda found: (os.path.basename(found[0]), found[1])):
        parts += [os.path.basename(path), text]
    return digest_parts(*parts)[:32]


def build_key(source_key_, compiler_identity):
    """Full key of one build: the source key plus the compiler that builds it."""
    return digest_parts(source_key_, compiler_identity)[:32]
