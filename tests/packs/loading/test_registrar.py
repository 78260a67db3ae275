"""The register callback: one pack's ops, checked and collected."""
import pytest

import opsdk
from opsdk.errors import RegistrationError
from opsdk.packs.loading.registrar import Registrar
from opsdk.packs.registry import TensorSpec


class Double(opsdk.PyLayer):
    """Twice the input."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def test_register_returns_the_op_with_the_pack_metadata():
    register = Registrar("pk", version="1.2", distribution="pk-dist")
    op = register(Double, name="double", inputs=[TensorSpec(shape=(2,))])
    assert (op.qualname, op.pack_version, op.distribution) == ("pk.double", "1.2", "pk-dist")
    assert register.ops == {"double": op}


def test_registering_one_name_twice_is_refused():
    register = Registrar("pk")
    register(Double, name="double", inputs=[TensorSpec(shape=(2,))])
    with pytest.raises(RegistrationError, match="pack 'pk', op 'double': registered twice"):
        register(Double, name="double", inputs=[TensorSpec(shape=(3,))])


def test_options_must_be_passed_by_keyword():
    with pytest.raises(RegistrationError, match="only positional argument and the rest by keyword; got: 2 positional"):
        Registrar("pk")(Double, "double")


def test_function_may_be_passed_by_keyword():
    op = Registrar("pk")(function=Double, name="double", inputs=[TensorSpec(shape=(2,))])
    assert op.function is Double
