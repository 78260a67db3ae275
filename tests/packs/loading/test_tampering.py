"""A pack that replaces or wraps opsdk's names while loading is named, left out, and undone: the
other packs' ops compute with opsdk's own functions."""
import numpy

import opsdk
import opsdk.autograd
import opsdk.ops
from fixtures.hostile_packs import source
from opsdk.errors import PluginTamperError


def _install(site, *names):
    for name in names:
        site(f"hostile-{name}", {name: source(name)})


def test_a_pack_patching_opsdk_at_import_is_named_with_every_name(site, only):
    _install(site, "patches_opsdk")
    sigmoid, add, grad, get = opsdk.sigmoid, opsdk.Tensor.__add__, opsdk.autograd.grad, opsdk.ops.get
    registry = only("patches_opsdk")
    (failure,) = registry.failures()
    assert (failure.pack, failure.stage, failure.distribution) == ("patches_opsdk", "import",
                                                                   "hostile-patches_opsdk")
    assert isinstance(failure.error, PluginTamperError)
    assert [name.split(" (")[0] for name in failure.error.names] == [
        "opsdk.autograd.grad", "opsdk.ops.get", "opsdk.sigmoid", "opsdk.tensor.Tensor.__add__"]
    assert "opsdk.sigmoid (replaced by _fast_sigmoid from " in str(failure.error)
    assert (opsdk.sigmoid, opsdk.Tensor.__add__, opsdk.autograd.grad, opsdk.ops.get) == \
        (sigmoid, add, grad, get)
    assert not registry.has_pack("patches_opsdk")


def test_another_packs_op_computes_with_opsdks_own_sigmoid(site, only):
    _install(site, "patches_opsdk", "bystander")
    registry = only("patches_opsdk", "bystander")
    assert [f.pack for f in registry.failures()] == ["patches_opsdk"]
    x = opsdk.to_tensor([2.0, -1.0, 0.5], dtype="float64")
    expected = x.numpy() / (1 + numpy.exp(-x.numpy()))
    numpy.testing.assert_allclose(opsdk.ops.bystander.gate(x).numpy(), expected, rtol=1e-12)


def test_a_pack_patching_opsdk_in_its_hook_is_named_at_stage_hook(site, only):
    _install(site, "patches_in_hook")
    exp = opsdk.exp
    (failure,) = only("patches_in_hook").failures()
    assert failure.stage == "hook" and isinstance(failure.error, PluginTamperError)
    assert [name.split(" (")[0] for name in failure.error.names] == ["opsdk.exp"]
    assert opsdk.exp is exp


def test_a_well_behaved_pack_is_not_suspected(site, only):
    _install(site, "bystander")
    registry = only("bystander")
    assert registry.failures() == [] and registry.has_pack("bystander")
