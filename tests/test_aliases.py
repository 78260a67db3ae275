"""The public modules whose code lives elsewhere (opsdk.check, opsdk.gradcheck, opsdk.plugins,
opsdk.registry, opsdk.hookspecs, opsdk.ops) hand out the very objects of their homes in
verification/ and packs/, and define nothing of their own."""
import importlib

import pytest

import opsdk

HOMES = {
    "opsdk.check": "opsdk.verification.check",
    "opsdk.gradcheck": "opsdk.verification.gradcheck",
    "opsdk.plugins": "opsdk.packs.loading",
    "opsdk.registry": "opsdk.packs.registry",
    "opsdk.hookspecs": "opsdk.packs.hookspecs",
}


@pytest.mark.parametrize("public, home", HOMES.items(), ids=HOMES.keys())
def test_a_public_name_re_exports_every_public_name_of_its_home(public, home):
    alias, real = importlib.import_module(public), importlib.import_module(home)
    assert alias.__all__ == real.__all__
    assert all(getattr(alias, name) is getattr(real, name) for name in real.__all__)
    # (names starting with "@": pytest's assertion rewriting, which covers opsdk as a pytest plugin)
    own = {name for name in vars(alias) if name[0] not in "_@"} - set(real.__all__)
    assert own == set()


@pytest.mark.parametrize("public", list(HOMES) + ["opsdk.ops"])
def test_a_public_name_is_reached_from_opsdk_without_importing_it(public):
    assert getattr(opsdk, public.split(".")[1]) is importlib.import_module(public)


def test_opsdk_ops_takes_only_get_and_the_module_hooks_from_the_lookup():
    from opsdk.packs import lookup

    ops = importlib.import_module("opsdk.ops")
    assert ops.get is lookup.get
    assert ops.__getattr__ is lookup.__getattr__ and ops.__dir__ is lookup.__dir__
    assert [name for name in vars(ops) if name[0] not in "_@"] == ["get"]


def test_the_docs_public_imports_still_work():
    from opsdk.check import ERROR, FAIL, CheckResult, plan_cases, run_checks, select_ops  # noqa: F401
    from opsdk.gradcheck import check_gradients, gradcheck  # noqa: F401
    from opsdk.hookspecs import hookimpl
    from opsdk.registry import Sample, TensorSpec, build_opinfo  # noqa: F401

    assert hookimpl is opsdk.hookimpl and TensorSpec is opsdk.TensorSpec
    assert opsdk.plugins.register_pack is opsdk.register_pack
    assert opsdk.autograd.gradcheck is gradcheck
