"""build_c: compile a CSource once per machine (cached, locked, atomic) and load it."""

import os
import shutil
import sys
import threading
import time
from importlib.machinery import EXTENSION_SUFFIXES

from opsdk.env import setting
from opsdk.errors import BackendUnavailableError, CacheUnusableError, KernelBuildError
from opsdk.kernels.cache import (CACHE_FIX, append_build_log, build_lock, cache_dir, cache_problem,
                                 subdir, verified_extension, write_manifest)
from opsdk.kernels.cgen import generate_c
from opsdk.kernels.compiler import compiler_identity, find_compiler, first_error, run_logged
from opsdk.kernels.keys import build_key, source_key
from opsdk.kernels.loader import load_extension

_loaded = {}  # entry directory -> (lib, ffi), per process
_process_lock = threading.Lock()  # threads of one process: the file lock is per process


def build_c(source, *, kernel=None):
    """Compile a CSource, or load it from the cache, and return its cffi ``(lib, ffi)``.

    The cache key covers the source, its local headers, cdef, flags, compiler, Python ABI and
    cffi version. Concurrent processes compile once (an OS file lock that dies with its holder);
    entries appear atomically and are verified on load (a corrupt one is rebuilt).

    Args:
        source: the CSource.
        kernel: the kernel's name, for error messages.

    Returns:
        ``(lib, ffi)``: the compiled functions and the cffi FFI that goes with them.

    Raises:
        KernelBuildError: the source does not compile (first error with file:line, the command, the log).
        BackendUnavailableError: there is no C compiler and no cached build of this source.

    Example:
        >>> lib, ffi = build_c(CSource(code="int add(int a, int b) { return a + b; }",
        ...                            cdef="int add(int a, int b);"))
        >>> lib.add(2, 3)
        5
    """
    code = source.read(kernel)
    skey = source_key(source, code)
    command = find_compiler()
    with _process_lock:
        if command is None or cache_problem(writing=False) is not None:
            return _load_prebuilt(source, skey, kernel)
        key = build_key(skey, compiler_identity(command))
        entry = os.path.join(cache_dir(), "c", key)
        hit = _loaded.get(entry)
        if hit is not None:
            return hit
        so_path = verified_extension(entry)
        if so_path is not None:
            try:
                return _remember(entry, load_extension(_module_name(key), so_path))
            except ImportError:
                pass  # matches its manifest yet does not load: rebuild it below
        if cache_problem() is not None:
            # a read-only cache of prebuilt kernels: serve this source's build by another compiler
            return _load_prebuilt(source, skey, kernel)
        try:
            so_path = _build_locked(source, code, command, key, entry, kernel, force=so_path is not None)
            _write_index(skey, key)
        except OSError as exc:  # the cache went away or became read-only under us
            raise CacheUnusableError(
                f"kernel {kernel or source.display_name!r}: backend 'c' cannot run\n"
                f"  expected: a kernel cache to compile into\n"
                f"  got: {cache_problem() or exc}; fix: {CACHE_FIX}"
            ) from None
        try:
            return _remember(entry, load_extension(_module_name(key), so_path))
        except ImportError as exc:
            _discard(entry)
            raise KernelBuildError(
                f"kernel {kernel or source.display_name!r}: the compiled C extension does not load\n"
                f"  expected: every symbol it uses defined in {source.display_name} or a linked library\n"
                f"  got: {exc}"
            ) from None


def c_buildable(source):
    """(True, '') if build_c can run here (a compiler and a usable cache, or a cached build of
    source), else (False, why)."""
    if find_compiler() is not None and cache_problem() is None:
        return True, ""
    try:
        skey = source_key(source, source.read())
        if _prebuilt_extension(skey) is not None:
            return True, ""
    except (OSError, KernelBuildError):
        pass
    return False, _no_build_reason()


def _module_name(key):
    """The extension's module name (its PyInit symbol), unique per key."""
    return f"_opsdk_{key}"


def _remember(entry, lib_ffi):
    """Memoise a loaded extension for this process."""
    _loaded[entry] = lib_ffi
    return lib_ffi


def _no_build_reason():
    """Why the C backend cannot build a source here: no compiler, or an unusable cache."""
    if find_compiler() is not None:
        problem = cache_problem()
        return f"{problem}; fix: {CACHE_FIX}" if problem else "the kernel cache holds no build of it"
    return f"no C compiler ($CC, or cc/gcc/clang on PATH) and no cached build in {cache_dir()}"


def _prebuilt_extension(skey):
    """(key, path) of the last verified build of a source key, or None."""
    try:
        with open(os.path.join(cache_dir(), "index", skey), encoding="utf-8") as f:
            key = f.read().strip()
    except OSError:
        return None
    so_path = verified_extension(os.path.join(cache_dir(), "c", key))
    return None if so_path is None else (key, so_path)


def _load_prebuilt(source, skey, kernel):
    """Load the cached build of a source when it cannot be compiled (no compiler, unusable cache)."""
    found = _prebuilt_extension(skey)
    if found is None:
        problem = cache_problem()
        if find_compiler() is not None and problem is not None:
            raise CacheUnusableError(
                f"kernel {kernel or source.display_name!r}: backend 'c' cannot run\n"
                f"  expected: a writable kernel cache to compile into, or a build of it there\n"
                f"  got: {problem}; fix: {CACHE_FIX}"
            )
        raise BackendUnavailableError(
            f"kernel {kernel or source.display_name!r}: backend 'c' cannot run\n"
            f"  expected: a C compiler (install gcc or clang, or set CC) or a build cached by `opsdk build`\n"
            f"  got: {_no_build_reason()}"
        )
    key, so_path = found
    entry = os.path.dirname(so_path)
    return _loaded.get(entry) or _remember(entry, load_extension(_module_name(key), so_path))


def _write_index(skey, key):
    """Remember which build serves a source, for machines that later lose their compiler."""
    path = os.path.join(subdir("index"), skey)
    tmp = f"{path}.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(key)
    os.replace(tmp, path)


def _build_locked(source, code, command, key, entry, kernel, force):
    """Compile under the entry's lock unless another process installed it meanwhile."""
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    lock, timeout_error = build_lock(entry + ".lock", setting("OPSDK_BUILD_TIMEOUT"))
    try:
        with lock:
            if not force:
                so_path = verified_extension(entry)
                if so_path is not None:
                    return so_path
            _discard(entry)
            _remove_leftovers(entry)
            return _compile_and_install(source, code, command, key, entry, kernel)
    except timeout_error:
        raise KernelBuildError(
            f"kernel {kernel or source.display_name!r}: timed out waiting for another process building it\n"
            f"  expected: the lock {entry}.lock released within $OPSDK_BUILD_TIMEOUT "
            f"({lock.timeout:g} s)\n"
            f"  got: still held; raise OPSDK_BUILD_TIMEOUT if the compile is legitimately slow"
        ) from None


def _discard(entry):
    """Remove a (corrupt or unloadable) entry."""
    shutil.rmtree(entry, ignore_errors=True)


def _remove_leftovers(entry):
    """Remove temp dirs of killed builds (safe: we hold the entry's lock)."""
    folder, name = os.path.split(entry)
    for item in os.scandir(folder):
        if item.name.startswith(name + ".tmp-"):
            shutil.rmtree(item.path, ignore_errors=True)


def compile_command(source, command, so_name, c_name):
    """The compiler command line (run in the build directory)."""
    import sysconfig

    args = [*command, "-shared", "-fPIC", "-O2", "-Werror=implicit-function-declaration",
            f"-I{sysconfig.get_paths()['include']}", f"-I{source.base_dir}"]
    if sys.platform == "darwin":
        args += ["-undefined", "dynamic_lookup"]  # Python's symbols come from the host process
    args += [f"-I{d}" for d in source.include_dirs]
    args += [f"-D{n}" if v is None else f"-D{n}={v}" for n, v in source.define_macros]
    args += list(source.extra_compile_args)
    if source.openmp:
        args.append("-fopenmp")
    args += ["-o", so_name, c_name, *source.extra_link_args]
    args += [f"-l{lib}" for lib in source.libraries]
    return args


def _compile_and_install(source, code, command, key, entry, kernel):
    """Generate, compile into a temp dir, verify, then rename into place (atomic)."""
    module_name = _module_name(key)
    so_name, c_name = module_name + EXTENSION_SUFFIXES[0], module_name + ".c"
    text = generate_c(source, code, module_name, c_name, kernel)
    tmp = f"{entry}.tmp-{os.getpid()}-{time.monotonic_ns()}"
    os.mkdir(tmp)
    with open(os.path.join(tmp, c_name), "w", encoding="utf-8") as f:
        f.write(text)
    args = compile_command(source, command, so_name, c_name)
    started = time.perf_counter()
    returncode = run_logged(args, tmp, os.path.join(tmp, "build.log"))
    if returncode != 0:
        _raise_build_failure(source, kernel, key, tmp, args)
    write_manifest(tmp, so_name)
    try:
        os.rename(tmp, entry)
    except OSError:
        # someone installed the entry without our lock (clear_cache removed the lock file): keep theirs
        _discard(tmp)
        if verified_extension(entry) is None:
            raise
    append_build_log(f"compiled {key} {kernel or source.display_name} {time.perf_counter() - started:.3f}s")
    return os.path.join(entry, so_name)


def _raise_build_failure(source, kernel, key, tmp, args):
    """Keep the failed build under logs/ and raise KernelBuildError with its first error."""
    import shlex

    kept = os.path.join(subdir("logs"), key)
    shutil.rmtree(kept, ignore_errors=True)
    os.rename(tmp, kept)
    log_path = os.path.join(kept, "build.log")
    with open(log_path, encoding="utf-8", errors="replace") as f:
        f.readline()  # the command line: its -Werror=... must not pass for the first error
        log_text = f.read()
    error = first_error(log_text)
    hint = ""
    if "implicit declaration" in error:
        hint = f"\n  hint: every function in the cdef must be defined in {source.display_name}"
    raise KernelBuildError(
        f"kernel {kernel or source.display_name!r}: C compile failed\n"
        f"  {error}{hint}\n"
        f"  command (in {kept}): {shlex.join(args)}\n"
        f"  full log: {log_path}"
    )
