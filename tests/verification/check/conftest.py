"""Fixtures of the verification tests: a private kernel cache, the fixture packs, in-test packs.
(Tests marked slow here are deselected unless ``-m slow``: tests/conftest.py.)"""
import pytest

from fixtures.packs import registered


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """One OPSDK_CACHE_DIR for the session (C kernels compile once), never the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPSDK_CACHE_DIR", str(tmp_path_factory.mktemp("opsdk-cache")))
        patch.delenv("OPSDK_BACKEND", raising=False)
        patch.delenv("OPSDK_LOAD_PLUGINS", raising=False)
        yield


def _run_pack(module, name, **options):
    from opsdk.verification.check import plan_cases, run_checks, select_ops

    with registered(module, name):
        ops, failures = select_ops(packs=[name])
        return run_checks(plan_cases(ops), failures, **options)


@pytest.fixture(scope="session")
def good_results():
    """`opsdk check` results over the good fixture pack (fast mode, seed 0)."""
    return _run_pack("good_pack", "goodpack")


@pytest.fixture(scope="session")
def bad_results():
    """`opsdk check` results over the subtly wrong fixture pack (fast mode, seed 0)."""
    return _run_pack("bad_pack", "badpack")


@pytest.fixture
def pack():
    """Register in-test ops as a pack: ``pack(name, register_ops)``; unregistered afterwards."""
    import opsdk.plugins
    from opsdk import hookimpl
    from opsdk.verification.check import clear_caches

    names = []

    def register(name, register_ops):
        class Plugin:
            pass

        Plugin.register_ops = staticmethod(hookimpl(register_ops))
        opsdk.plugins.register_pack(Plugin, name=name)
        names.append(name)
        clear_caches()
        return name

    yield register
    for name in names:
        opsdk.plugins.unregister_pack(name)
    clear_caches()


@pytest.fixture(autouse=True)
def _private_kernel_registry(monkeypatch):
    """Kernels a test makes (some deliberately broken) stay out of all_kernels() after it."""
    import opsdk.kernels.kernel as kernel_module

    monkeypatch.setattr(kernel_module, "_registry", dict(kernel_module._registry))


@pytest.fixture(scope="module")
def regimes():
    """The regimes pack (adversarial_regimes/) registered as ``reg`` for a module's tests."""
    from .adversarial_regimes.pack import registered

    with registered():
        yield
