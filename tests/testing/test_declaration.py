import pytest

from opsdk.testing import OpChecks, op_checks


def test_single_names_become_tuples():
    declared = op_checks("p.a", "p.b", pack="p", backend="c", dtype="float32", check="forward")
    assert declared == OpChecks(("p.a", "p.b"), ("p",), ("c",), ("float32",), ("forward",))


def test_defaults_select_everything_in_fast_mode_with_the_default_seed():
    assert op_checks() == OpChecks()


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="'fast' or 'full'"):
        op_checks(pack="p", mode="quick")


def test_declarations_carry_the_marker_the_plugin_looks_for():
    assert type(op_checks()).__opsdk_op_checks__ is True
