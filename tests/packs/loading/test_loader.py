"""Loading one pack under its guard: each way a pack can fail is recorded with its stage."""
import types

import pluggy
import pytest

import opsdk
from opsdk.packs.hookspecs import PROJECT, OpsdkSpec, hookimpl
from opsdk.packs.loading.failures import PluginFailure
from opsdk.packs.loading.loader import load_pack
from opsdk.packs.loading.sources import PackSource
from opsdk.packs.registry import PackInfo, Registry, TensorSpec


class Double(opsdk.PyLayer):
    """Twice the input."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def _module(**functions):
    module = types.ModuleType("a_pack")
    module.__dict__.update(functions)
    return module


@hookimpl
def _good_hook(register):
    register(Double, name="double", inputs=[TensorSpec(shape=(2,))])


def _load(plugin, name="pk", registry=None):
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(OpsdkSpec)
    registry = registry if registry is not None else Registry()
    result = load_pack(PackSource(name, lambda: plugin, "pk-dist", "0.1"), pm, registry)
    return result, registry, pm


def test_good_pack_adds_its_ops():
    info, registry, pm = _load(_module(register_ops=_good_hook))
    assert isinstance(info, PackInfo) and [op.qualname for op in info.ops] == ["pk.double"]
    assert registry.get("pk.double").distribution == "pk-dist" and pm.has_plugin("pk")


def test_import_error_is_recorded_at_stage_import():
    def fail():
        raise ModuleNotFoundError("No module named 'libfoo'")

    registry, pm = Registry(), pluggy.PluginManager(PROJECT)
    failure = load_pack(PackSource("pk", fail, "pk-dist", "0.1"), pm, registry)
    assert (failure.stage, failure.pack, failure.distribution, failure.version) == ("import", "pk", "pk-dist", "0.1")
    assert registry.failures() == [failure]


def test_sys_exit_while_importing_is_recorded_not_obeyed():
    def leave():
        raise SystemExit(3)

    failure = load_pack(PackSource("pk", leave), pluggy.PluginManager(PROJECT), Registry())
    assert failure.stage == "import" and isinstance(failure.error, SystemExit)


def test_exception_inside_the_hook_is_recorded_at_stage_hook():
    @hookimpl
    def register_ops(register):
        raise RuntimeError("boom")

    failure, registry, pm = _load(_module(register_ops=register_ops))
    assert failure.stage == "hook" and str(failure.error) == "boom"
    assert "register_ops" in failure.traceback and not pm.has_plugin("pk")


def test_invalid_registration_is_recorded_at_stage_register():
    @hookimpl
    def register_ops(register):
        register(Double, name="double", inputs=[3])

    failure, _, _ = _load(_module(register_ops=register_ops))
    assert failure.stage == "register"
    assert "pack 'pk', op 'double': inputs[0] must be a TensorSpec; got: int" in str(failure.error)


def test_a_failing_pack_leaves_none_of_its_ops_behind():
    @hookimpl
    def register_ops(register):
        register(Double, name="first", inputs=[TensorSpec(shape=(2,))])
        register(Double, name="second", inputs="oops")

    failure, registry, _ = _load(_module(register_ops=register_ops))
    assert isinstance(failure, PluginFailure) and registry.ops() == []


def test_unknown_hook_is_a_registration_failure():
    @hookimpl
    def register_opz(register):
        pass

    failure, _, pm = _load(_module(register_ops=_good_hook, register_opz=register_opz))
    assert failure.stage == "register" and "unknown hook 'register_opz'" in str(failure.error)
    assert not pm.has_plugin("pk")


def test_pack_without_hooks_is_a_registration_failure():
    failure, _, _ = _load(_module())
    assert "implements no opsdk hook" in str(failure.error)


def test_hook_with_arguments_outside_the_spec_is_a_registration_failure():
    @hookimpl
    def register_ops(register, device):
        pass

    failure, _, _ = _load(_module(register_ops=register_ops))
    assert failure.stage == "register" and "does not match the spec" in str(failure.error)


def test_wrapper_hook_is_a_registration_failure():
    @hookimpl(wrapper=True)
    def register_ops(register):
        return (yield)

    failure, _, _ = _load(_module(register_ops=register_ops))
    assert "must be a plain hook" in str(failure.error)


def test_pack_name_must_be_an_identifier():
    failure, _, _ = _load(_module(register_ops=_good_hook), name="my-pack")
    assert failure.stage == "register" and "pack name 'my-pack'" in str(failure.error)


def test_same_plugin_object_twice_is_a_registration_failure():
    module = _module(register_ops=_good_hook)
    _, registry, pm = _load(module)
    failure = load_pack(PackSource("other", lambda: module), pm, registry)
    assert "already loaded as pack 'pk'" in str(failure.error)
    assert pm.get_plugin("pk") is module


def test_register_called_after_the_hook_returned_is_refused():
    saved = []

    @hookimpl
    def register_ops(register):
        saved.append(register)

    _load(_module(register_ops=register_ops))
    with pytest.raises(opsdk.errors.RegistrationError, match="after register_ops returned"):
        saved[0](Double, name="late", inputs=[TensorSpec(shape=(2,))])


def test_pack_with_a_taken_name_leaves_the_loaded_one_alone():
    first = _module(register_ops=_good_hook)
    _, registry, pm = _load(first)
    failure = load_pack(PackSource("pk", lambda: _module(register_ops=_good_hook), "other-dist", "9"), pm, registry)
    assert failure.stage == "register" and "clashes with the already loaded pack 'pk'" in str(failure.error)
    assert pm.get_plugin("pk") is first and registry.get("pk.double").distribution == "pk-dist"
