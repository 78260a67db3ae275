"""Forcing a backend: use_backend and OPSDK_BACKEND."""

import threading

import pytest

from opsdk.errors import BackendUnavailableError
from opsdk.kernels import current_backend, use_backend


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv("OPSDK_BACKEND", raising=False)


def test_nothing_is_forced_by_default():
    assert current_backend() is None


def test_use_backend_forces_and_restores():
    with use_backend("python"):
        assert current_backend() == "python"
    assert current_backend() is None


def test_inner_use_backend_wins_and_outer_returns():
    with use_backend("c"):
        with use_backend("python"):
            assert current_backend() == "python"
        assert current_backend() == "c"


def test_environment_variable_forces(monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "C")
    assert current_backend() == "c"


def test_context_manager_overrides_environment(monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "c")
    with use_backend("python"):
        assert current_backend() == "python"


def test_use_backend_none_lifts_the_environment_force(monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "c")
    with use_backend(None):
        assert current_backend() is None


def test_auto_in_environment_forces_nothing(monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "auto")
    assert current_backend() is None


def test_unknown_backend_name_is_refused():
    with pytest.raises(BackendUnavailableError, match="expected: one of python, c, cuda"):
        with use_backend("fortran"):
            pass


def test_unknown_backend_in_environment_is_refused(monkeypatch):
    monkeypatch.setenv("OPSDK_BACKEND", "fortran")
    with pytest.raises(BackendUnavailableError, match="OPSDK_BACKEND"):
        current_backend()


def test_force_is_per_thread():
    seen = []
    with use_backend("python"):
        thread = threading.Thread(target=lambda: seen.append(current_backend()))
        thread.start()
        thread.join()
    assert seen == [None]


def test_an_op_call_under_an_unknown_environment_backend_says_how_to_fix_it(monkeypatch):
    import opsdk

    monkeypatch.setenv("OPSDK_BACKEND", "bogus")
    with pytest.raises(BackendUnavailableError) as caught:
        opsdk.erf(opsdk.to_tensor([0.5]))
    message = str(caught.value)
    assert "expected: one of python, c, cuda (or 'auto')" in message and "got: 'bogus'" in message
    assert "fix: unset OPSDK_BACKEND" in message
