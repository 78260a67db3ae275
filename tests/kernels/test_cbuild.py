"""build_c: compile, cache, lock, rebuild, and report errors."""

import os
import signal
import stat
import time

import numpy
import pytest

from opsdk.errors import BackendUnavailableError, KernelBuildError
from opsdk.kernels import CSource, build_c, c_pointer

from .sample import DATA, SCALE_CDEF, child_env, compile_count, finish, scale_source, spawn_build


def _entry_dirs(cache):
    c_dir = os.path.join(cache, "c")
    return [e for e in os.listdir(c_dir) if os.path.isdir(os.path.join(c_dir, e)) and ".tmp-" not in e]


def _extension_path(cache):
    (entry,) = _entry_dirs(cache)
    folder = os.path.join(cache, "c", entry)
    return next(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".so") or n.endswith(".pyd"))


def _slow_cc(tmp_path, *, started_marker=None, slow_flag=None, delay=0.5):
    """A CC wrapper around gcc that sleeps before compiling (while slow_flag exists, if given)."""
    script = tmp_path / "slow-cc"
    condition = f'[ -e "{slow_flag}" ]' if slow_flag else "true"
    touch = f'touch "{started_marker}"' if started_marker else ":"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$1" in --version) exec gcc --version;; esac\n'
        f"if {condition}; then {touch}; sleep {delay}; fi\n"
        'exec gcc "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_c_source_compiles_and_runs(cache):
    lib, ffi = build_c(scale_source())
    x = numpy.arange(5.0)
    y = numpy.empty_like(x)
    lib.scale_f64(c_pointer(ffi, x), c_pointer(ffi, y, writable=True), x.size, 2.5)
    numpy.testing.assert_array_equal(y, 2.5 * x)


def test_second_build_in_process_reuses_loaded_module(cache):
    first = build_c(scale_source())
    assert build_c(scale_source()) is first
    assert compile_count(cache) == 1


def test_cached_build_loads_in_fresh_process_without_compiling(cache):
    build_c(scale_source())
    result = finish(spawn_build(child_env()))
    assert result["y"] == [0.0, 3.0, 6.0, 9.0]
    assert compile_count(cache) == 1
    assert result["cffi_imported"] is False  # the load path never needs cffi's compiler half


def test_four_processes_at_once_compile_once(cache, tmp_path):
    barrier = tmp_path / "go"
    env = child_env(CC=_slow_cc(tmp_path, delay=0.5), TEST_BARRIER=str(barrier))
    children = [spawn_build(env) for _ in range(4)]
    barrier.touch()
    results = [finish(child) for child in children]
    assert all(r["y"] == [0.0, 3.0, 6.0, 9.0] for r in results)
    assert compile_count(cache) == 1


def _alive(pid):
    """True while pid runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _kill_mid_compile(env, started):
    """Start a build, SIGKILL its Python process once the compiler runs."""
    victim = spawn_build(env)
    deadline = time.monotonic() + 60
    while not started.exists():
        assert victim.poll() is None, victim.stderr.read()
        assert time.monotonic() < deadline, "the build never reached the compiler"
        time.sleep(0.02)
    os.kill(victim.pid, signal.SIGKILL)  # only the Python process, as the OOM killer would
    victim.wait()
    return victim


def test_build_killed_mid_compile_does_not_block_the_next(cache, tmp_path):
    started, slow = tmp_path / "compiling", tmp_path / "slow"
    slow.touch()
    env = child_env(CC=_slow_cc(tmp_path, started_marker=started, slow_flag=slow, delay=60))
    _kill_mid_compile(env, started)
    slow.unlink()
    began = time.monotonic()
    result = finish(spawn_build(env), timeout=50)
    assert time.monotonic() - began < 45  # did not wait for a 60 s compiler
    assert result["y"] == [0.0, 3.0, 6.0, 9.0]
    assert compile_count(cache) == 1
    assert not [n for n in os.listdir(os.path.join(cache, "c")) if ".tmp-" in n]


@pytest.mark.skipif(os.name != "posix", reason="the compiler's watcher is a POSIX process group")
def test_compiler_of_a_killed_python_does_not_live_on(cache, tmp_path):
    # a compiler driver with a child of its own, as gcc runs cc1: both must die with the Python
    pids = tmp_path / "pids"
    script = tmp_path / "hanging-cc"
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in --version) exec gcc --version;; esac\n'
        f'sleep 120 & echo "$$ $!" > "{pids}.tmp" && mv "{pids}.tmp" "{pids}"\n'
        "wait\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    _kill_mid_compile(child_env(CC=str(script)), pids)
    driver, child = map(int, pids.read_text().split())
    deadline = time.monotonic() + 20
    while (_alive(driver) or _alive(child)) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in (driver, child) if _alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert not survivors, "the compiler outlived the Python process that started it"


def _replace_file(path, data):
    """Put new bytes at path as a new file: this process has the old one mapped, and writing
    into a mapped extension in place would crash it (SIGBUS) when the pages are touched."""
    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_truncated_extension_is_detected_and_rebuilt(cache):
    build_c(scale_source())
    so_path = _extension_path(cache)
    data = _read(so_path)
    _replace_file(so_path, data[:len(data) // 2])
    result = finish(spawn_build(child_env()))
    assert result["y"] == [0.0, 3.0, 6.0, 9.0]
    assert compile_count(cache) == 2


def test_corrupt_extension_of_same_size_is_detected_and_rebuilt(cache):
    build_c(scale_source())
    so_path = _extension_path(cache)
    data = _read(so_path)
    _replace_file(so_path, data[:200] + b"\xff" * 64 + data[264:])
    finish(spawn_build(child_env()))
    assert compile_count(cache) == 2


def test_entry_without_manifest_is_rebuilt(cache):
    build_c(scale_source())
    os.unlink(os.path.join(os.path.dirname(_extension_path(cache)), "MANIFEST"))
    finish(spawn_build(child_env()))
    assert compile_count(cache) == 2


def test_syntax_error_reports_file_and_line(cache):
    with pytest.raises(KernelBuildError) as caught:
        build_c(CSource("data/bad.c", cdef="void broken(double *y, int64_t n);"), kernel="tests.bad")
    message = str(caught.value)
    assert "kernel 'tests.bad'" in message
    assert f"{os.path.join(DATA, 'bad.c')}:4:" in message
    assert "error:" in message
    assert "command (in " in message and "-shared" in message


def test_a_compiler_killed_by_a_signal_says_so(cache, tmp_path, monkeypatch):
    # a compiler that dies silently (the OOM killer, a kill from outside) must not read as a
    # mysterious failure with nothing printed: the message names the signal
    script = tmp_path / "killed-cc"
    script.write_text("#!/bin/sh\nkill -9 $$\n")
    script.chmod(0o755)
    monkeypatch.setenv("CC", str(script))
    with pytest.raises(KernelBuildError) as caught:
        build_c(scale_source(), kernel="tests.killed")
    assert "killed by SIGKILL" in str(caught.value)


def test_build_failure_keeps_full_log_in_cache(cache):
    with pytest.raises(KernelBuildError) as caught:
        build_c(CSource("data/bad.c", cdef="void broken(double *y, int64_t n);"))
    log_path = str(caught.value).split("full log: ")[1].strip()
    assert log_path.startswith(cache)
    with open(log_path, encoding="utf-8") as f:
        assert "bad.c:4" in f.read()


def test_inline_source_error_names_where_it_was_written(cache):
    source = CSource(code="int f(void) {\n  return 1\n}\n", cdef="int f(void);")
    with pytest.raises(KernelBuildError) as caught:
        build_c(source)
    assert f"<inline C from {os.path.abspath(__file__)}:" in str(caught.value)


def test_function_in_cdef_but_not_in_source_is_a_build_error(cache):
    source = CSource(code="int present(void) { return 1; }", cdef="int present(void); int absent(void);")
    with pytest.raises(KernelBuildError, match="absent"):
        build_c(source)


def test_unparsable_cdef_is_a_build_error(cache):
    source = CSource(code="int f(void) { return 1; }", cdef="int f(void")
    with pytest.raises(KernelBuildError, match="cdef"):
        build_c(source)


def test_openmp_source_compiles_and_links(cache):
    source = CSource(
        code="#include <omp.h>\nint threads(void) { return omp_get_max_threads(); }",
        cdef="int threads(void);", openmp=True,
    )
    lib, _ = build_c(source)
    assert lib.threads() >= 1


def test_without_compiler_a_cached_build_still_loads(cache, monkeypatch, no_compiler):
    monkeypatch.setenv("PATH", os.defpath)
    build_c(scale_source())
    monkeypatch.setenv("PATH", no_compiler)
    result = finish(spawn_build(child_env()))
    assert result["y"] == [0.0, 3.0, 6.0, 9.0]


def test_without_compiler_or_cached_build_the_backend_is_unavailable(cache, no_compiler):
    with pytest.raises(BackendUnavailableError, match="no C compiler"):
        build_c(scale_source(), kernel="tests.scale")


def test_compile_uses_extra_compile_args_and_macros(cache):
    source = CSource(code="int value(void) { return VALUE; }", cdef="int value(void);",
                     define_macros=(("VALUE", "42"),), extra_compile_args=("-O3",))
    lib, _ = build_c(source)
    assert lib.value() == 42


def test_c_call_releases_the_gil(cache):
    # cffi's API mode releases the GIL around calls, so Python threads run while C works
    import threading

    source = CSource(code="#include <time.h>\nvoid nap(void) { struct timespec t = {0, 200000000}; nanosleep(&t, 0); }",
                     cdef="void nap(void);")
    lib, _ = build_c(source)
    ticks, stop = [], threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    worker = threading.Thread(target=tick)
    worker.start()
    try:
        before = len(ticks)
        lib.nap()
        during = len(ticks) - before
    finally:
        stop.set()
        worker.join()
    assert during >= 10
