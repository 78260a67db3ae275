"""The pack as a plugin: its entry point, its ops under pack ``nn``, and ``opsdk check`` on all of them."""
import importlib.metadata

import pytest

import opsdk
from opsdk.check import FAIL, ERROR, plan_cases, run_checks, select_ops
from opsdk_nn import plugin

OPS = {"gelu", "silu", "softplus", "mish", "softmax", "log_softmax", "layer_norm", "rms_norm",
       "cross_entropy"}


@pytest.fixture(scope="module")
def nn_pack():
    """Pack ``nn`` in the registry: installed through its entry point, or registered here."""
    registry = opsdk.plugins.get_registry()
    if registry.has_pack("nn"):
        yield registry.pack("nn")
        return
    info = opsdk.plugins.register_pack(plugin, name="nn")
    try:
        yield info
    finally:
        opsdk.plugins.unregister_pack("nn")


def test_entry_point_names_the_plugin_module():
    found = [ep for ep in importlib.metadata.entry_points(group="opsdk") if ep.name == "nn"]
    assert [ep.value for ep in found] == ["opsdk_nn.plugin"]


def test_pack_registers_every_op_with_double_backward(nn_pack):
    assert {op.name for op in nn_pack.ops} == OPS
    for op in nn_pack.ops:
        assert op.double_backward and op.dtypes == ("float32", "float64")
        assert op.backends == ("python", "c", "cuda")


def test_ops_are_reachable_by_qualified_name(nn_pack):
    x = opsdk.to_tensor([0.0, 1.0])
    assert opsdk.ops.get("nn.silu")(x).numpy()[1] == pytest.approx(0.7310586)


@pytest.mark.slow
def test_every_op_passes_opsdk_check_on_the_cpu_backends(nn_pack):
    ops, failures = select_ops(packs=["nn"])
    results = run_checks(plan_cases(ops, backends=["python", "c"]), failures)
    bad = [f"{r.op}[{r.backend}-{r.dtype}-{r.check}]: {r.detail}" for r in results if r.status in (FAIL, ERROR)]
    assert not bad, "\n".join(bad)
    assert {r.op for r in results if r.status == "pass"} == {f"nn.{name}" for name in OPS}
