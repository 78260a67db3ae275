"""TwoKernelOp, the part Rows and Multi share: the signatures of forward and backward read and
refused by name, the two Kernels and their python implementations, the sources' origin, and the
gradients of forward on Tensors."""
import re

import numpy
import pytest

import opsdk
from opsdk.errors import OpArgumentError
from opsdk.kernels.two_kernels import TwoKernelOp, parameters


class Scale(TwoKernelOp):
    """y = alpha * x, the smallest op on the base: the python kernels call forward and backward."""

    def __init__(self, forward, backward):
        super().__init__("tests.scale", forward, backward)
        self.outputs = ("y",)
        self.unknown, self.extra = self._backward_parameters(("x", "y", "dy"))
        self._make_kernels(("float64",))

    def _forward_python(self, /, *arrays, **attrs):
        return self.forward_fn(numpy, *arrays, **attrs)

    def _backward_python(self, /, *arrays, **attrs):
        return self.backward_fn(numpy, *arrays, **attrs)

    def c_bodies(self):
        return self._sources(lambda: "void scale_forward(void) {}", lambda: "never written", c=True, cuda=False)


def _forward(m, x, *, alpha):
    return alpha * x


def _backward(m, dy, *, alpha):
    return alpha * dy


def test_the_signatures_give_inputs_attributes_and_what_backward_reads():
    assert parameters("tests.op", lambda m, a, b, *, alpha, beta: a, "forward") == (("a", "b"), ("alpha", "beta"))
    op = Scale(_forward, _backward)
    assert (op.inputs, op.attrs, op.reads, op.backward_attrs) == (("x",), ("alpha",), ("dy",), ("alpha",))
    assert (op.unknown, op.extra) == ([], [])


@pytest.mark.parametrize("fn, says", [
    (lambda x: x, "tests.op: forward must take m, then its arrays; expected: forward(m, x, ..., *, attrs); "
                  "got: forward(x)"),
    (lambda m, *, alpha: alpha, "tests.op: forward must take m, then its arrays"),
    (lambda *, m, x: x, "tests.op: forward must take m, then its arrays"),
])
def test_a_signature_without_m_or_arrays_is_refused_by_name(fn, says):
    with pytest.raises(OpArgumentError, match=re.escape(says)):
        parameters("tests.op", fn, "forward")


def test_backward_s_unknown_reads_and_attributes_are_given_to_the_subclass_to_refuse():
    op = Scale(_forward, lambda m, dy, grad, *, alpha, beta: dy)
    assert (op.unknown, op.extra) == (["grad"], ["beta"])


def test_the_two_kernels_are_named_after_the_op_and_run_forward_and_backward():
    op = Scale(_forward, _backward)
    assert [k.name for k in op.kernels] == ["tests.scale_forward", "tests.scale_backward"]
    x = numpy.array([1.0, -2.0])
    numpy.testing.assert_array_equal(op.forward_kernel.run("python", x, alpha=3.0), [3.0, -6.0])
    numpy.testing.assert_array_equal(op.backward_kernel.run("python", x, alpha=3.0), [3.0, -6.0])


def test_the_sources_come_from_the_file_that_called_c_bodies_and_only_those_asked():
    c_source, cuda_source = Scale(_forward, _backward).c_bodies()
    assert cuda_source is None
    assert c_source.code == "void scale_forward(void) {}" and c_source.openmp
    assert c_source.origin.startswith(__file__ + ":")


def test_the_reference_is_named_after_the_op():
    reference = Scale(_forward, _backward)._reference_named(lambda x: x)
    assert reference.__name__ == reference.__qualname__ == "scale_reference"


def test_forward_differentiated_on_tensors_is_differentiable_again_and_none_where_unused():
    x = opsdk.to_tensor(numpy.array([1.0, 2.0]), stop_gradient=False)
    unused = opsdk.to_tensor(numpy.array([5.0]), stop_gradient=False)
    outs = [x * x, 3.0]  # a constant output adds nothing
    dx, dunused = TwoKernelOp._differentiated(outs, [opsdk.ones_like(x), None], [x, unused])
    numpy.testing.assert_array_equal(dx.numpy(), [2.0, 4.0])
    assert dunused is None
    (ddx,) = opsdk.grad([dx.sum()], [x])
    numpy.testing.assert_array_equal(ddx.numpy(), [2.0, 2.0])
    assert TwoKernelOp._differentiated(outs, [None, None], [x]) == [None]
