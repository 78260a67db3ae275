"""opsdk.packs.builtin.plugin: the SDK's own ops load as pack 'opsdk' through the register_ops hook."""
import opsdk
import opsdk.plugins
from opsdk.packs.builtin import OPS


def test_builtin_pack_loads_without_failures():
    failures = [str(f) for f in opsdk.plugins.get_registry().failures() if f.pack == "opsdk"]
    assert failures == []


def test_every_builtin_op_is_registered_under_pack_opsdk():
    registered = {op.name for op in opsdk.plugins.get_registry().ops() if op.pack == "opsdk"}
    assert set(OPS) <= registered
