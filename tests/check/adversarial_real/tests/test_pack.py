"""The pack is installed and loads: its entry point is found and registering its ops raises nothing."""
import opsdk.plugins


def test_pack_loads_without_errors():
    registry = opsdk.plugins.get_registry()
    failures = [f"{failure}\n{failure.traceback}" for failure in registry.failures()
                if failure.pack == "realops"]
    assert not failures, "\n".join(failures)
    assert registry.has_pack("realops"), (
        "pack 'realops' is not installed: run `pip install -e .` in the pack's directory")


def test_every_listed_op_is_registered():
    from realops.ops import OPS

    registered = {op.name for op in opsdk.plugins.get_registry().pack("realops").ops}
    assert registered == set(OPS)
