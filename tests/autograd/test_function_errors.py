"""An exception inside an op's backward names the op and where its forward was called."""
import pytest

import opsdk
from opsdk.autograd import PyLayer
from opsdk.errors import BackwardError, OpBackwardError


class Broken(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        raise ValueError("kernel exploded")


def forward_here(x):
    return Broken.apply(x)  # the line the error must point at


def test_backward_exception_names_the_op_and_keeps_the_original_as_cause():
    x = opsdk.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(OpBackwardError, match="^Error message in backward of 'Broken'") as info:
        forward_here(x).sum().backward()
    assert isinstance(info.value.__cause__, ValueError)
    assert "kernel exploded" in str(info.value)


def test_backward_exception_shows_the_file_and_line_of_the_forward_call():
    x = opsdk.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(OpBackwardError) as info:
        forward_here(x).sum().backward()
    line = forward_here.__code__.co_firstlineno + 1
    assert f"test_function_errors.py:{line} in forward_here" in str(info.value)


def test_backward_exception_is_a_backward_error():
    assert issubclass(OpBackwardError, BackwardError)


def test_backward_exception_under_opsdk_grad_names_the_op():
    x = opsdk.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(OpBackwardError, match="Broken"):
        opsdk.grad(forward_here(x).sum(), x)
