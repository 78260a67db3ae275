"""build_c: compile a CSource once per machine (cached, locked, atomic) and load it."""

import os
import re
import sys
import threading
import time
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from typing import NamedTuple

from opsdk.env import setting
from opsdk.errors import (BackendUnavailableError, CacheUnusableError, CacheUntrustedError,
                          CompilerSettingError, KernelBuildError, OpsdkWarning)
from opsdk.kernels import prebuilt
from opsdk.kernels.cache import (KEY_NAME, append_build_log, build_lock, cache_dir, cache_problem, subdir,
                                 unusable_error)
from opsdk.kernels.cgen import generate_c
from opsdk.kernels.compiler import compiler_identity, exit_text, find_compiler, first_error, run_logged
from opsdk.kernels.entries import discard_entry, new_build_dir, read_entry, write_manifest
from opsdk.kernels.keys import build_key, source_key
from opsdk.kernels.loader import load_verified
from opsdk.kernels.trust import open_dir, read_trusted, write_private

_loaded = {}  # entry directory -> (lib, ffi), per process
_refused = set()  # prebuilt entries already warned about, per process
_process_lock = threading.Lock()  # threads of one process: the file lock is per process


def build_c(source, *, kernel=None):
    """Compile a CSource, or load it from the cache, and return its cffi ``(lib, ffi)``.

    The cache key covers the source, its local headers, cdef, flags, compiler, Python ABI and
    cffi version. Concurrent processes compile once (an OS file lock that dies with its holder);
    entries appear atomically and are verified on load (a corrupt one is rebuilt). Nothing is
    loaded from a cache or entry another user could write (see ``opsdk.kernels.trust``), and
    what is loaded is the very bytes that were checked (see ``opsdk.kernels.loader``).

    Args:
        source: the CSource.
        kernel: the kernel's name, for error messages.

    Returns:
        ``(lib, ffi)``: the compiled functions and the cffi FFI that goes with them.

    Raises:
        KernelBuildError: the source does not compile (first error with file:line, the command, the log).
        BackendUnavailableError: there is no C compiler and no cached build of this source
            (``CacheUnusableError``: the cache cannot be used, and why).

    Example:
        >>> lib, ffi = build_c(CSource(code="int add(int a, int b) { return a + b; }",
        ...                            cdef="int add(int a, int b);"))
        >>> lib.add(2, 3)
        5
    """
    code = source.read(kernel)
    name = kernel or source.display_name
    with _process_lock:
        shipped = _load_shipped(source, code, name)
        if shipped is not None:
            return shipped
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
        distrusted = None
        try:
            found = read_entry(entry)
        except CacheUntrustedError as exc:
            found, distrusted = None, exc
        if found is not None:
            try:
                return _remember(entry, load_verified(_module_name(key), found))
            except (ImportError, OSError):
                pass  # matches its manifest yet does not load: rebuild it below
        problem = cache_problem()
        if problem is not None:
            # a read-only cache of prebuilt kernels: serve this source's build by another compiler
            return _load_prebuilt(source, skey, kernel)
        try:
            found = _build_locked(source, code, command, key, entry, kernel,
                                  force=found is not None or distrusted is not None)
            _write_index(skey, key)
        except OSError as exc:  # the cache went away, filled up or became read-only under us
            problem = cache_problem()
            raise CacheUnusableError(
                f"kernel {name!r}: backend 'c' cannot run\n"
                f"  expected: a kernel cache to compile into\n"
                f"  got: {problem or exc}; fix: {problem.fix if problem else _os_error_fix(exc)}"
            ) from None
        if distrusted is not None:
            warnings.warn(f"kernel {name!r}: the cached build was not used and was rebuilt: {distrusted}",
                          OpsdkWarning, stacklevel=3)
        try:
            return _remember(entry, load_verified(_module_name(key), found))
        except (ImportError, OSError) as exc:
            discard_entry(entry)
            raise KernelBuildError(
                f"kernel {name!r}: the compiled C extension does not load\n"
                f"  expected: every symbol it uses defined in {source.display_name} or a linked library\n"
                f"  got: {exc}"
            ) from None


def _load_shipped(source, code, name):
    """(lib, ffi) of the build the installed package ships for source, when it matches the
    sources and is trusted (``opsdk.kernels.prebuilt``); else None, warning when one was refused."""
    found = prebuilt.lookup(source, code)
    if found.kind == "refused" and found.entry not in _refused:
        _refused.add(found.entry)
        warnings.warn(f"kernel {name!r}: the prebuilt C build was not used, the kernel is built from "
                      f"its sources: {found.why}", OpsdkWarning, stacklevel=4)
    if found.build is None:
        return None
    hit = _loaded.get(found.entry)
    if hit is not None:
        return hit
    try:
        return _remember(found.entry, prebuilt.load(found))
    except (ImportError, OSError) as exc:
        warnings.warn(f"kernel {name!r}: the prebuilt C build in {found.entry} does not load, the kernel "
                      f"is built from its sources: {exc}", OpsdkWarning, stacklevel=4)
        return None


def _os_error_fix(exc):
    """What to do about an OSError met while writing into the cache."""
    import errno

    from opsdk.kernels.cache import CACHE_FIX, FULL_FIX

    return FULL_FIX if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)) else CACHE_FIX


def c_buildable(source):
    """(True, '') if build_c can run here (a compiler and a usable cache, or a cached build of
    source), else (False, why)."""
    try:
        if prebuilt.lookup(source, source.read()).build is not None:
            return True, ""
    except (OSError, KernelBuildError):
        pass
    try:
        command = find_compiler()
    except CompilerSettingError as exc:
        return False, str(exc)
    if command is not None and cache_problem() is None:
        return True, ""
    try:
        skey = source_key(source, source.read())
        if _prebuilt_extension(skey) is not None:
            return True, ""
    except (OSError, KernelBuildError, CacheUnusableError):
        pass
    return False, _no_build_reason()


class Origin(NamedTuple):
    """Where a C kernel's code comes from here: ``kind`` is ``"prebuilt"`` (shipped in the pack's
    wheel), ``"cache"`` (a build in the kernel cache), ``"compile"`` (compiled into the cache on
    first call) or ``"python"`` (no C here: the python kernel runs); ``why`` says why."""

    kind: str
    why: str
    stale: bool = False  # the package ships a build made from other sources (edited since)


def c_origin(source):
    """The ``Origin`` of source's C build, found without compiling or loading anything."""
    try:
        code = source.read()
        shipped = prebuilt.lookup(source, code)
        if shipped.kind == "prebuilt":
            return Origin("prebuilt", shipped.why)
        note, stale = shipped.why, shipped.kind in ("stale", "refused")
        skey = source_key(source, code)
        command = find_compiler()
        if command is not None and cache_problem() is None:
            entry = os.path.join(cache_dir(), "c", build_key(skey, compiler_identity(command)))
            if read_entry(entry) is not None:
                return Origin("cache", f"cached build {entry} ({note})", stale)
            return Origin("compile", f"compiled into the cache on first call ({note})", stale)
        found = _prebuilt_extension(skey)
        if found is not None:
            return Origin("cache", f"cached build {os.path.join(cache_dir(), 'c', found[0])}, no compiler "
                                   f"needed ({note})", stale)
        return Origin("python", f"{_no_build_reason()} ({note})", stale)
    except (OSError, KernelBuildError, CompilerSettingError, CacheUnusableError) as exc:
        return Origin("python", (str(exc).splitlines() or [type(exc).__name__])[-1].strip())


def _module_name(key):
    """The extension's module name (its PyInit symbol), unique per key."""
    return f"_opsdk_{key}"


def _remember(entry, lib_ffi):
    """Memoise a loaded extension for this process."""
    _loaded[entry] = lib_ffi
    return lib_ffi


def _no_build_reason():
    """Why the C backend cannot build a source here: no compiler, or an unusable cache."""
    problem = cache_problem()
    if find_compiler() is not None:
        return f"{problem}; fix: {problem.fix}" if problem else "the kernel cache holds no build of it"
    where = f"; and {problem}" if problem is not None and problem.kind != "full" else f" in {cache_dir()}"
    return f"no C compiler ($CC, or cc/gcc/clang on PATH) and no cached build{where}"


def _prebuilt_extension(skey):
    """(key, Build) of the last verified build of a source key, or None.

    Raises:
        CacheUntrustedError: the index or the build it names could have been written by another user.
    """
    root = cache_dir()
    problem = cache_problem(writing=False)
    if problem is not None:
        if problem.kind in ("untrusted", "not-ours"):
            raise unusable_error(problem)
        return None
    index = os.path.join(root, "index")
    try:
        fd = open_dir(index)
    except OSError:
        return None
    try:
        key = read_trusted(skey, fd, label=os.path.join(index, skey)).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
    if not _is_key(key):
        return None
    found = read_entry(os.path.join(root, "c", key))
    return None if found is None else (key, found)


def _is_key(text):
    return re.fullmatch(KEY_NAME, text) is not None


def _load_prebuilt(source, skey, kernel):
    """Load the cached build of a source when it cannot be compiled (no compiler, unusable cache)."""
    name = kernel or source.display_name
    try:
        found = _prebuilt_extension(skey)
    except CacheUnusableError as exc:
        raise type(exc)(
            f"kernel {name!r}: backend 'c' cannot run\n"
            f"  expected: a kernel cache that is opsdk's and only you can write\n"
            f"  got: {exc}"
        ) from None
    if found is None:
        problem = cache_problem()
        if find_compiler() is not None and problem is not None:
            raise unusable_error(problem, f"kernel {name!r}: backend 'c' cannot run\n"
                                          f"  expected: a writable kernel cache to compile into, or a build "
                                          f"of it there\n  got: ")
        raise BackendUnavailableError(
            f"kernel {name!r}: backend 'c' cannot run\n"
            f"  expected: a C compiler (install gcc or clang, or set CC) or a build cached by `opsdk build`\n"
            f"  got: {_no_build_reason()}"
        )
    key, found = found
    entry = os.path.join(cache_dir(), "c", key)
    hit = _loaded.get(entry)
    if hit is not None:
        return hit
    try:
        return _remember(entry, load_verified(_module_name(key), found))
    except (ImportError, OSError) as exc:
        raise BackendUnavailableError(
            f"kernel {name!r}: backend 'c' cannot run\n"
            f"  expected: the build cached in {entry} to load\n"
            f"  got: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; fix: rebuild it "
            f"where a compiler exists (`opsdk build`)"
        ) from None


def _write_index(skey, key):
    """Remember which build serves a source, for machines that later lose their compiler."""
    write_private(os.path.join(subdir("index"), skey), key)


def _build_locked(source, code, command, key, entry, kernel, force):
    """Compile under the entry's lock unless another process installed it meanwhile; returns
    the installed ``Build``."""
    subdir("c")
    lock, timeout_error = build_lock(entry + ".lock", setting("OPSDK_BUILD_TIMEOUT"))
    try:
        with lock:
            if not force:
                try:
                    found = read_entry(entry)
                except CacheUntrustedError:
                    found = None
                if found is not None:
                    return found
            discard_entry(entry)
            _remove_leftovers(entry)
            return _compile_and_install(source, code, command, key, entry, kernel)
    except timeout_error:
        raise KernelBuildError(
            f"kernel {kernel or source.display_name!r}: timed out waiting for another process building it\n"
            f"  expected: the lock {entry}.lock released within $OPSDK_BUILD_TIMEOUT "
            f"({lock.timeout:g} s)\n"
            f"  got: still held; raise OPSDK_BUILD_TIMEOUT if the compile is legitimately slow"
        ) from None


def _remove_leftovers(entry):
    """Remove temp dirs of killed builds (safe: we hold the entry's lock)."""
    folder, name = os.path.split(entry)
    for item in os.scandir(folder):
        if item.name.startswith(name + ".tmp-"):
            discard_entry(item.path)


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
    """Generate, compile into a private temp dir, seal, then rename into place (atomic);
    returns the installed ``Build``."""
    module_name = _module_name(key)
    so_name, c_name = module_name + EXTENSION_SUFFIXES[0], module_name + ".c"
    text = generate_c(source, code, module_name, c_name, kernel)
    tmp = new_build_dir(entry)
    with open(os.path.join(tmp, c_name), "w", encoding="utf-8") as f:
        f.write(text)
    args = compile_command(source, command, so_name, c_name)
    started = time.perf_counter()
    returncode = run_logged(args, tmp, os.path.join(tmp, "build.log"))
    if returncode != 0:
        _raise_build_failure(source, kernel, key, tmp, args, returncode)
    write_manifest(tmp, so_name)
    try:
        os.rename(tmp, entry)
    except OSError:
        # someone installed the entry without our lock (clear_cache removed the lock file): keep theirs
        discard_entry(tmp)
        if read_entry(entry) is None:
            raise
    append_build_log(f"compiled {key} {kernel or source.display_name} {time.perf_counter() - started:.3f}s")
    found = read_entry(entry)
    if found is None:
        raise KernelBuildError(f"kernel {kernel or source.display_name!r}: the build at {entry} was removed "
                               f"or altered as soon as it was installed (another process clearing the "
                               f"cache?); run it again")
    return found


def _raise_build_failure(source, kernel, key, tmp, args, returncode):
    """Keep the failed build under logs/ and raise KernelBuildError with its first error."""
    import shlex

    kept = os.path.join(subdir("logs"), key)
    discard_entry(kept)
    os.rename(tmp, kept)
    log_path = os.path.join(kept, "build.log")
    with open(log_path, encoding="utf-8", errors="replace") as f:
        f.readline()  # the command line: its -Werror=... must not pass for the first error
        log_text = f.read()
    error = first_error(log_text)
    status = exit_text(returncode)
    if not log_text.strip():
        error = f"(the compiler printed nothing; {status})"
    elif "killed by" in status:
        error = f"{error} ({status})"
    hint = ""
    if "implicit declaration" in error:
        hint = f"\n  hint: every function in the cdef must be defined in {source.display_name}"
    raise KernelBuildError(
        f"kernel {kernel or source.display_name!r}: C compile failed\n"
        f"  {error}{hint}\n"
        f"  command (in {kept}): {shlex.join(args)}\n"
        f"  full log: {log_path}"
    )
