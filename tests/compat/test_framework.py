"""opsdk.framework: Paddle's public framework names, flags, mode queries."""
import pytest

import opsdk as paddle
from opsdk.errors import ArgumentTypeError, OpArgumentError


def test_framework_names_are_opsdks_own():
    f = paddle.framework
    assert f.no_grad is paddle.no_grad and f.grad is paddle.grad and f.seed is paddle.seed
    assert f.ParamAttr is paddle.ParamAttr and f.Parameter is paddle.nn.Parameter
    assert f.save is paddle.save and f.load is paddle.load
    assert f.get_default_dtype() == "float32"


def test_mode_queries_say_dynamic_only():
    f = paddle.framework
    assert f.in_dynamic_mode() and f.in_dynamic_or_pir_mode()
    assert not f.in_pir_mode() and not f.use_pir_api()


def test_flags_round_trip_and_refuse_unknown_names():
    f = paddle.framework
    before = f.get_flags("FLAGS_call_stack_level")
    try:
        f.set_flags({"FLAGS_call_stack_level": 3})
        assert f.get_flags(["FLAGS_call_stack_level"]) == {"FLAGS_call_stack_level": 3}
        assert paddle.get_flags("FLAGS_call_stack_level") == {"FLAGS_call_stack_level": 3}
    finally:
        f.set_flags(before)
    with pytest.raises(OpArgumentError, match="unknown flag 'FLAGS_nope'"):
        f.set_flags({"FLAGS_nope": 1})
    with pytest.raises(ArgumentTypeError, match="must be a dict"):
        f.set_flags("FLAGS_call_stack_level")


def test_is_parameter_and_is_persistable():
    p = paddle.create_parameter([2], "float32")
    t = paddle.ones([2])
    assert paddle.framework.is_parameter(p) and not paddle.framework.is_parameter(t)
    assert paddle.framework.is_persistable(p) and not paddle.framework.is_persistable(t)


def test_enable_static_is_unsupported_and_a_runtime_error():
    with pytest.raises(RuntimeError, match="no static-graph mode"):
        paddle.framework.enable_static()
