"""Packs that hang, exit or crash while loading are stopped in a child process and named, each
once (the CLI's end-to-end runs are in test_hostile_packs_cli.py)."""
import signal
import sys
import warnings

import pytest

from opsdk import env

from fixtures.hostile_packs import line_of, source
from opsdk.errors import OpsdkWarning, PluginCrashError, PluginTimeoutError
from opsdk.packs.loading import supervisor

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="packs are isolated with fork, on Linux only")


@pytest.fixture
def probe(monkeypatch):
    """Probe mode with a short timeout; the mode and the verdicts are forgotten afterwards."""
    # short, for the hanging pack; long enough for a well-behaved pack's load on a machine that
    # runs other work (at 0.5 s a bystander was once taken for a hang under a load of 8)
    monkeypatch.setenv(supervisor.ENV_TIMEOUT, "2")
    monkeypatch.setitem(supervisor._mode, "name", "probe")
    monkeypatch.setattr(supervisor, "_known", {})
    starts = []
    start = supervisor.Worker.start
    monkeypatch.setattr(supervisor.Worker, "start", classmethod(
        lambda cls, timeout: starts.append(timeout) or start.__func__(cls, timeout)))
    return starts


def _install(site, *names):
    for name in names:
        site(f"hostile-{name}", {name: source(name)})


def _failures(registry):
    return {f.pack: f for f in registry.failures()}


def test_a_pack_that_hangs_is_stopped_and_named_with_where_it_waits(site, only, probe):
    _install(site, "hangs", "bystander")
    registry = only("hangs", "bystander")
    failure = _failures(registry)["hangs"]
    assert isinstance(failure.error, PluginTimeoutError) and failure.error.seconds == 2
    assert "did not finish loading (at import) within 2 s (OPSDK_PLUGIN_TIMEOUT)" in str(failure.error)
    assert "Timeout" in failure.traceback
    assert f"line {line_of('hangs', 'recv')} in <module>" in failure.traceback
    assert registry.has_pack("bystander") and list(_failures(registry)) == ["hangs"]


def test_a_pack_that_exits_is_named_with_its_status(site, only, probe):
    _install(site, "exits", "bystander")
    registry = only("exits", "bystander")
    failure = _failures(registry)["exits"]
    assert isinstance(failure.error, PluginCrashError) and failure.error.exit_code == 0
    assert "ended the process while loading (at import): exit status 0" in str(failure.error)
    assert registry.has_pack("bystander")


def test_a_pack_that_crashes_is_named_with_the_signal_and_the_line(site, only, probe):
    _install(site, "crashes", "bystander")
    registry = only("crashes", "bystander")
    failure = _failures(registry)["crashes"]
    assert failure.error.exit_code == -signal.SIGSEGV
    assert "killed by signal SIGSEGV (a crash in native code)" in str(failure.error)
    assert "Segmentation fault" in failure.traceback
    assert f"line {line_of('crashes', 'string_at')} in <module>" in failure.traceback
    assert registry.has_pack("bystander")


def test_a_stopped_pack_is_never_imported_here(site, only, probe):
    names = site("hostile-exits", {"exits": source("exits")})
    only("exits")
    assert names["exits"] not in sys.modules


def test_every_bad_pack_is_found_in_one_load_and_none_is_probed_again(site, only, probe):
    _install(site, "hangs", "exits", "crashes", "bystander")
    registry = only("hangs", "exits", "crashes", "bystander")
    assert sorted(_failures(registry)) == ["crashes", "exits", "hangs"]
    assert registry.has_pack("bystander")
    probes = len(probe)
    assert probes <= 4  # a child per bad pack, and one for the packs after the last bad one
    registry = only("hangs", "exits", "crashes", "bystander")
    assert sorted(_failures(registry)) == ["crashes", "exits", "hangs"] and len(probe) == probes


def test_packs_already_imported_here_are_not_probed(site, only, probe):
    _install(site, "bystander")
    only("bystander")
    only("bystander")
    assert len(probe) == 1


def test_without_a_mode_packs_load_in_this_process(site, only, monkeypatch):
    monkeypatch.setitem(supervisor._mode, "name", None)
    starts = []
    monkeypatch.setattr(supervisor.Worker, "start", classmethod(lambda cls, t: starts.append(t)))
    _install(site, "bystander")
    assert only("bystander").has_pack("bystander") and starts == []


@pytest.mark.parametrize("value, seconds", [(None, 30.0), ("2.5", 2.5), ("0", None), (" 7 ", 7.0)])
def test_the_timeout_comes_from_the_environment(monkeypatch, value, seconds):
    if value is None:
        monkeypatch.delenv(supervisor.ENV_TIMEOUT, raising=False)
    else:
        monkeypatch.setenv(supervisor.ENV_TIMEOUT, value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert supervisor.plugin_timeout() == seconds


@pytest.mark.parametrize("value", ["abc", "-1", "nan", ""])
def test_a_timeout_that_is_no_number_of_seconds_is_warned_about(monkeypatch, value):
    monkeypatch.setattr(env, "_warned", set())
    monkeypatch.setattr(env, "_parsed", {})
    monkeypatch.setenv(supervisor.ENV_TIMEOUT, value)
    with pytest.warns(OpsdkWarning, match=f"OPSDK_PLUGIN_TIMEOUT='{value}' is not valid; expected: a number of seconds"):
        assert supervisor.plugin_timeout() == 30.0
