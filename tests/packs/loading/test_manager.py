"""The process's packs: lazy loading, in-process packs, reload, OPSDK_LOAD_PLUGINS, guarded loading."""
import os
import subprocess
import sys
import threading
import types

import pytest

import opsdk
import opsdk.packs.loading as plugins
from opsdk.errors import PackNotFoundError, PluginLoadError

from .conftest import GOOD_PACK

RAISES_ON_IMPORT = "raise ImportError('the pack needs libfoo, which is missing')\n"

REGISTERS_GARBAGE = '''
from opsdk import hookimpl

@hookimpl
def register_ops(register):
    register(42, name="answer")
'''


def _double_pack():
    namespace = {}
    exec(GOOD_PACK, namespace)
    module = types.ModuleType("in_test_pack")
    module.register_ops = namespace["register_ops"]
    return module


def test_import_opsdk_loads_no_pack_and_no_pluggy():
    code = ("import sys, opsdk, opsdk.ops; "
            "print(sorted(m for m in ('pluggy', 'opsdk.packs.loading', 'importlib.metadata') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    env.pop("OPSDK_CUDA_SIM", None)  # the import as users get it, whatever this suite runs under
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"


def test_builtin_pack_loads_even_when_plugins_are_disabled(only):
    registry = only()
    assert [p.name for p in registry.packs()] == ["opsdk"]
    assert registry.packs()[0].version == opsdk.__version__


def test_pack_registered_in_test_is_usable_then_gone():
    plugins.register_pack(_double_pack(), name="testpack")
    try:
        x = opsdk.to_tensor([1.0, 2.0], stop_gradient=False)
        y = opsdk.ops.testpack.double(x)
        y.sum().backward()
        assert y.numpy().tolist() == [2.0, 4.0]
        assert x.grad.numpy().tolist() == [2.0, 2.0]
    finally:
        plugins.unregister_pack("testpack")
    assert not plugins.get_registry().has_pack("testpack")
    with pytest.raises(AttributeError):
        opsdk.ops.testpack


def test_register_pack_accepts_a_module_name_and_guards_its_import():
    with pytest.raises(PluginLoadError, match="failed at import") as caught:
        plugins.register_pack("opsdk_no_such_module_anywhere", name="ghost")
    try:
        assert isinstance(caught.value.__cause__, ModuleNotFoundError)
        assert [f.stage for f in plugins.get_registry().failures() if f.pack == "ghost"] == ["import"]
    finally:
        plugins.unregister_pack("ghost")
    assert not [f for f in plugins.get_registry().failures() if f.pack == "ghost"]


def test_register_pack_error_chains_the_packs_own_error_with_its_traceback():
    @opsdk.hookimpl
    def register_ops(register):
        raise KeyError("missing table")

    with pytest.raises(PluginLoadError, match="failed at hook: KeyError") as caught:
        plugins.register_pack(types.SimpleNamespace(register_ops=register_ops), name="keyless")
    try:
        cause = caught.value.__cause__
        assert isinstance(cause, KeyError) and cause.__traceback__ is not None
    finally:
        plugins.unregister_pack("keyless")


def test_register_pack_refuses_a_taken_name():
    with pytest.raises(PluginLoadError, match="pack name 'opsdk' is taken"):
        plugins.register_pack(_double_pack(), name="opsdk")


def test_in_process_pack_survives_reload():
    plugins.register_pack(_double_pack(), name="testpack")
    try:
        assert plugins.reload().get("testpack.double").pack == "testpack"
    finally:
        plugins.unregister_pack("testpack")


def test_unregister_unknown_pack_lists_the_loaded_ones():
    with pytest.raises(PackNotFoundError, match="expected: one of opsdk"):
        plugins.unregister_pack("never_registered")


def test_good_pack_works_beside_one_that_raises_on_import_and_one_that_registers_garbage(site, only):
    site("good-dist", {"good": GOOD_PACK})
    site("broken-dist", {"broken": RAISES_ON_IMPORT}, version="0.3")
    site("garbage-dist", {"garbage": REGISTERS_GARBAGE})
    registry = only("good", "broken", "garbage")
    x = opsdk.to_tensor([1.5, -1.0])
    assert opsdk.ops.double(x).numpy().tolist() == [3.0, -2.0]
    failures = {f.pack: f for f in registry.failures()}
    assert sorted(failures) == ["broken", "garbage"]
    assert (failures["broken"].stage, failures["broken"].distribution, failures["broken"].version) == \
        ("import", "broken-dist", "0.3")
    assert "libfoo" in str(failures["broken"].error) and "ImportError" in failures["broken"].traceback
    assert failures["garbage"].stage == "register"
    assert "pack 'garbage', op 'answer'" in str(failures["garbage"].error)


def test_lookup_of_an_op_from_a_failed_pack_names_the_failure(site, only):
    site("broken-dist", {"broken": RAISES_ON_IMPORT})
    only("broken")
    with pytest.raises(AttributeError, match="broken \\(import: ImportError: the pack needs libfoo"):
        opsdk.ops.broken.double


def test_env_var_selects_packs_by_entry_point_or_distribution_name(site, only):
    site("first-dist", {"first": GOOD_PACK})
    site("second-dist", {"second": GOOD_PACK})
    assert [p.name for p in only("second_dist").packs()] == ["opsdk", "second"]
    assert [p.name for p in only("first").packs()] == ["opsdk", "first"]


def test_env_var_unset_loads_every_installed_pack(site, monkeypatch):
    site("first-dist", {"first": GOOD_PACK})
    site("second-dist", {"second": GOOD_PACK})
    monkeypatch.delenv("OPSDK_LOAD_PLUGINS", raising=False)
    names = {p.name for p in plugins.reload().packs()}
    assert {"opsdk", "first", "second"} <= names


def test_env_var_naming_a_missing_pack_is_recorded(only):
    failures = only("not_installed_anywhere").failures()
    assert [(f.pack, f.stage) for f in failures] == [("not_installed_anywhere", "import")]
    assert "OPSDK_LOAD_PLUGINS" in str(failures[0].error)


def test_second_pack_with_a_taken_name_is_recorded_and_the_first_stays(site, only):
    site("alpha-dist", {"clash": GOOD_PACK}, version="1.0")
    site("beta-dist", {"clash": GOOD_PACK}, version="2.0")
    registry = only("clash")
    assert registry.pack("clash").distribution in ("alpha-dist", "beta-dist")
    (failure,) = registry.failures()
    first, second = registry.pack("clash").distribution, failure.distribution
    assert failure.stage == "register" and {first, second} == {"alpha-dist", "beta-dist"}
    assert first in str(failure.error) and second in str(failure.error)


def test_first_lookup_loads_the_packs_lazily(site, monkeypatch):
    site("lazy-dist", {"lazy": GOOD_PACK})
    monkeypatch.setenv("OPSDK_LOAD_PLUGINS", "lazy")
    plugins.manager._state.registry = None  # as in a fresh process
    assert opsdk.ops.lazy.double.qualname == "lazy.double"


def test_list_ops_filters_by_pack():
    plugins.register_pack(_double_pack(), name="testpack")
    try:
        assert [op.qualname for op in plugins.list_ops("testpack")] == ["testpack.double"]
        assert "testpack.double" in [op.qualname for op in plugins.list_ops()]
    finally:
        plugins.unregister_pack("testpack")


def test_list_ops_of_an_unknown_pack_is_an_error():
    with pytest.raises(PackNotFoundError, match="no op pack named 'nopack'"):
        plugins.list_ops("nopack")


def test_concurrent_first_lookups_load_the_packs_once(monkeypatch):
    monkeypatch.setattr(plugins.manager._state, "registry", None)
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(plugins.get_registry())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 4 and all(registry is seen[0] for registry in seen)


def test_pack_that_lists_ops_while_importing_sees_the_packs_loaded_before_it(site, only):
    site("curious-dist", {"curious": "import opsdk\nSEEN = [p.name for p in opsdk.plugins.get_registry().packs()]\n"
                                     + GOOD_PACK})
    only("curious")
    assert sys.modules[plugins.get_registry().pack("curious").ops[0].function.__module__].SEEN == ["opsdk"]
