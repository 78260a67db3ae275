"""The snapshot of opsdk's public names: what a pack changed is named and put back; what opsdk's
own lazy imports add or set is not a change."""
import functools
import importlib
import sys

import pytest

import opsdk
import opsdk.autograd
import opsdk.ops
from opsdk.packs import lookup
from opsdk.packs.loading.namespace import Snapshot


@pytest.fixture
def snapshot():
    """A snapshot whose restore() runs after the test too, so a failed assertion leaks nothing."""
    taken = Snapshot()
    yield taken
    taken.restore()


def test_nothing_changed_names_nothing(snapshot):
    assert snapshot.restore() == []


def test_a_replaced_top_level_function_is_named_and_put_back(snapshot):
    original = opsdk.sigmoid
    opsdk.sigmoid = lambda x: x
    (changed,) = snapshot.restore()
    assert changed.startswith("opsdk.sigmoid (replaced by ")
    assert f"<lambda> from {__file__}:" in changed  # where the replacement was written
    assert opsdk.sigmoid is original


def test_a_wrapper_that_copies_the_name_and_module_is_still_caught(snapshot):
    original = opsdk.Tensor.__add__

    @functools.wraps(original)
    def logged(*args):
        return original(*args)

    opsdk.Tensor.__add__ = logged
    assert [c.split(" (")[0] for c in snapshot.restore()] == ["opsdk.tensor.Tensor.__add__"]
    assert opsdk.Tensor.__add__ is original


def test_a_submodule_function_and_a_deleted_name_are_named(snapshot):
    grad = opsdk.autograd.grad
    opsdk.autograd.grad = lambda *a, **k: None
    del opsdk.autograd.no_grad
    changed = snapshot.restore()
    assert [c.split(" (")[0] for c in changed] == ["opsdk.autograd.grad", "opsdk.autograd.no_grad"]
    assert changed[1].endswith("(deleted)")
    assert opsdk.autograd.grad is grad and callable(opsdk.autograd.no_grad)


def test_an_operator_added_to_a_class_is_removed(snapshot):
    opsdk.Tensor.__rlshift__ = lambda self, other: 0
    assert [c.split(" (")[0] for c in snapshot.restore()] == ["opsdk.tensor.Tensor.__rlshift__"]
    assert "__rlshift__" not in vars(opsdk.Tensor)


def test_a_new_public_name_is_not_a_change(snapshot):
    opsdk.autograd.extra_helper = len
    try:
        assert snapshot.restore() == []
    finally:
        del opsdk.autograd.extra_helper


def test_private_names_are_not_watched(snapshot):
    module = sys.modules["opsdk.packs.loading.namespace"]
    before = module._MISSING
    module._MISSING = object()
    try:
        assert snapshot.restore() == []
    finally:
        module._MISSING = before


def test_opsdk_installing_its_own_policy_hook_is_not_a_change():
    # importing opsdk.amp (a pack may do it first) sets opsdk.functional.cast_policy.state/matmul
    from opsdk.amp import matmul as amp_matmul
    from opsdk.functional import cast_policy

    installed = cast_policy.state, cast_policy.matmul
    cast_policy.state, cast_policy.matmul = cast_policy._NoPolicy(), None
    try:
        snapshot = Snapshot()
        cast_policy.install(amp_matmul.state, amp_matmul.autocast_matmul)
        assert cast_policy.matmul is not None
        assert snapshot.restore() == []
    finally:
        cast_policy.state, cast_policy.matmul = installed


def test_names_of_a_module_imported_during_the_pack_are_watched_from_then_on(snapshot):
    module = importlib.import_module("opsdk.linalg")  # may be new to this process
    snapshot.update()
    original = module.det
    module.det = lambda x: x
    assert [c.split(" (")[0] for c in snapshot.restore()] == ["opsdk.linalg.det"]
    assert module.det is original


def test_the_machinery_behind_opsdk_ops_is_watched_too(snapshot):
    resolve = lookup._PackOps.__getattr__
    lookup._PackOps.__getattr__ = lambda self, name: None
    assert [c.split(" (")[0] for c in snapshot.restore()] == [
        "opsdk.packs.lookup._PackOps.__getattr__"]
    assert lookup._PackOps.__getattr__ is resolve
