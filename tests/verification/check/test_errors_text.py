from opsdk import TensorSpec
from opsdk.verification.check.errors_text import error_report, op_frame

from .helpers import verdict
from .ops import Raises


def test_an_error_names_the_frame_of_the_op_and_leaves_the_verifier_out(pack):
    result = verdict(pack, Raises, "no_grad", inputs=[TensorSpec(shape=(2,))])
    assert result.status == "error"
    assert "raised in the op's code at " in result.detail and "ops.py" in result.detail
    assert "opsdk/verification/check/runner.py" not in result.detail


def test_op_frame_follows_the_cause_chain():
    import types

    from . import ops

    try:
        try:
            ops.raise_deep()
        except ValueError as e:
            raise RuntimeError("outer") from e
    except RuntimeError as error:
        op = types.SimpleNamespace(function=ops.Square, kernels=(), reference=None)
        assert op_frame(error, op).endswith("in raise_deep")
        assert error_report(error, op).startswith("RuntimeError: outer")
