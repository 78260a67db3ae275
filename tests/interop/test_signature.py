"""How exported ops see an op's signature; these need no framework."""
import pytest

import opsdk
from opsdk.errors import FrameworkNotInstalledError, InteropError
from opsdk.interop import _require
from opsdk.interop.exported import Exported
from opsdk.interop.levels import Levels
from opsdk.interop.signature import attr_type
from opsdk.interop.torch_schema import level_schema, op_schema


def _exported(name):
    return Exported(opsdk.ops.get(name))


def _is_tensor(v):
    return isinstance(v, opsdk.Tensor)


def test_tensor_parameters_come_from_samples_and_optional_ones_default_to_none():
    sig = _exported("nn.layer_norm").signature
    assert sig.tensor_names == ("x", "weight", "bias")
    assert sig.optional == {"weight", "bias"}
    assert sig.attr_types == {"normalized_shape": "int[]", "epsilon": "float"}


def test_attribute_types_are_inferred_from_defaults_and_sample_values():
    assert attr_type("beta", [1.5, 2], 1.0, "op") == "float"
    assert attr_type("axis", [0, 1], -1, "op") == "int"
    assert attr_type("shape", [5, [3, 4]], inspect_empty(), "op") == "int[]"
    assert attr_type("flag", [], False, "op") == "bool"
    assert attr_type("bias", [0.5], None, "op") == "float?"


def inspect_empty():
    import inspect

    return inspect.Parameter.empty


def test_an_attribute_of_no_declarable_type_is_an_error_naming_it():
    with pytest.raises(InteropError, match="attribute 'table'.*dict"):
        attr_type("table", [{"a": 1}], inspect_empty(), "pack.op")


def test_schema_puts_tensors_first_and_attributes_as_keywords():
    sig = _exported("nn.layer_norm").signature
    assert op_schema(sig, 1) == ("(Tensor x, Tensor? weight=None, Tensor? bias=None, *, "
                                 "SymInt[] normalized_shape, float epsilon=1e-05) -> Tensor")
    assert level_schema(sig).startswith("(Tensor[] cotangents, Tensor x, Tensor? weight, ")


def test_two_outputs_give_a_tuple_schema():
    exported = _exported("interoptest.masked_scale")
    assert exported.n_outputs == 2
    assert op_schema(exported.signature, 2).endswith("-> (Tensor, Tensor)")


def test_binding_takes_tensors_positionally_and_attributes_by_keyword():
    sig = _exported("nn.layer_norm").signature
    x, w = opsdk.ones([2, 3]), opsdk.ones([3])
    tensors, attrs = sig.bind((x, w), {"normalized_shape": [3]}, _is_tensor)
    assert tensors == [x, w, None] and attrs == {"normalized_shape": [3], "epsilon": 1e-05}


def test_binding_errors_name_the_op_and_the_argument():
    sig = _exported("example.swish").signature
    x = opsdk.ones([2])
    with pytest.raises(InteropError, match="example.swish: unexpected keyword argument 'gamma'"):
        sig.bind((x,), {"gamma": 1.0}, _is_tensor)
    with pytest.raises(InteropError, match="too many positional arguments.*beta"):
        sig.bind((x, 1.5), {}, _is_tensor)
    with pytest.raises(InteropError, match="missing tensor argument 'x'"):
        sig.bind((), {}, _is_tensor)


def test_a_lone_number_for_a_list_attribute_becomes_a_list():
    sig = _exported("nn.layer_norm").signature
    assert sig.declared({"normalized_shape": 5, "epsilon": 0.1})["normalized_shape"] == [5]


def test_cotangent_counts_follow_the_levels():
    # one float tensor, one float output: level 1 takes 1, level 2 takes 1 (level 1's
    # output), level 3 takes 2 (level 2's outputs: grads of x and of level 1's cotangent)
    assert Levels.cotangent_counts(3, 1, 1) == [1, 1, 2]
    assert Levels.cotangent_counts(2, 3, 2) == [2, 3]


def test_output_meta_runs_on_zeros_and_is_cached():
    exported = _exported("nn.cross_entropy")
    metas = [((5, 4), "float64"), ((5,), "int64")]
    assert exported.output_meta(metas, {"reduction": "none", "ignore_index": -100, "axis": -1}) \
        == [((5,), "float64")]
    assert exported.output_meta(metas, {"reduction": "mean", "ignore_index": -100, "axis": -1}) \
        == [((), "float64")]


def test_second_order_levels_agree_with_opsdk_double_backward():
    import numpy as np

    exported = _exported("example.swish")
    levels = exported.levels({"beta": 1.5})
    x = np.linspace(-2, 2, 5)
    wrap = lambda a: opsdk.to_tensor(a)  # noqa: E731
    g1 = levels.level(1, [wrap(x)], [wrap(np.ones(5))])
    g2 = levels.level(2, [wrap(x)], [wrap(np.ones(5)), wrap(np.ones(5))])
    t = opsdk.to_tensor(x, stop_gradient=False)
    (d1,) = opsdk.grad(opsdk.ops.example.swish(t, beta=1.5).sum(), t, create_graph=True)
    (d2,) = opsdk.grad(d1.sum(), t)
    np.testing.assert_allclose(g1[0].numpy(), d1.numpy(), rtol=1e-12)
    np.testing.assert_allclose(g2[0].numpy(), d2.numpy(), rtol=1e-12)
    np.testing.assert_allclose(g2[1].numpy(), d1.numpy(), rtol=1e-12)  # d(level 1)/d(cotangent)


def test_a_missing_framework_is_an_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(_require.EXTRAS, "torch", "opsdk_no_such_framework")
    with pytest.raises(FrameworkNotInstalledError, match=r"pip install opsdk\[torch\]"):
        _require.require("torch")


def test_import_opsdk_interop_imports_no_framework():
    import subprocess
    import sys

    code = ("import sys, opsdk, opsdk.interop; opsdk.interop.__doc__; "
            "print([m for m in ('torch', 'jax', 'paddle') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
