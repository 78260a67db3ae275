"""What Rows and Multi share: an op written once as ``forward(m, ...)`` and ``backward(m, ...)``,
run by two Kernels (``<name>_forward``, ``<name>_backward``) whose python implementations call them.

``TwoKernelOp`` reads the two signatures (forward's positional parameters after ``m`` are the
inputs, its keyword-only ones the attributes; backward's positional ones name the arrays it
reads, its keyword-only ones attributes of forward), makes the two Kernels, writes one C and one
CUDA source for both, keeps on the Function's context the inputs and the outputs backward reads,
and, where a gradient must itself be differentiable, differentiates ``forward`` on Tensors. A
subclass says what its arrays are (elements, rows, features), checks them, and gives the python
kernels (``_forward_python``, ``_backward_python``) and the written code.
"""
import inspect

from opsdk.autograd.grad_api import grad as grad_of
from opsdk.errors import OpArgumentError
from opsdk.kernels.elementwise import C_FLAGS
from opsdk.kernels.kernel import Kernel
from opsdk.kernels.sources import SDK_INCLUDE_DIR, CSource, CudaSource
from opsdk.kernels.tensors import array_of
from opsdk.tensor import Tensor


def parameters(op, fn, what):
    """(positional names after m, keyword-only names) of ``fn(m, ...)``: ``m`` first, then one
    array at least; an OpArgumentError naming ``op`` and ``what`` (forward, backward) otherwise."""
    params = list(inspect.signature(fn).parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2 or positional[0] != params[0].name:
        raise OpArgumentError(f"{op}: {what} must take m, then its arrays; expected: {what}(m, x, ..., *, attrs); "
                              f"got: {what}{inspect.signature(fn)}")
    return tuple(positional[1:]), tuple(p.name for p in params if p.kind is p.KEYWORD_ONLY)


class TwoKernelOp:
    """The base of Rows and Multi: the two functions of ``m``, their signatures, the two Kernels.

    A subclass's ``__init__`` calls this one, checks its declaration, then ``_backward_parameters``
    (with the names backward may read) and ``_make_kernels``; it sets ``outputs``.
    """

    def __init__(self, name, forward, backward):
        self.name, self.short_name = name, name.rsplit(".", 1)[-1]
        self.forward_fn, self.backward_fn = forward, backward
        self.inputs, self.attrs = parameters(name, forward, "forward")
        self.outputs = ()
        self.reads = self.backward_attrs = None
        self.forward_kernel = self.backward_kernel = None

    def _backward_parameters(self, known):
        """Read backward's signature into ``reads`` and ``backward_attrs``.

        Returns:
            (the arrays read that are not among ``known``, the attributes that forward does not take):
            the subclass refuses a declaration where either is not empty.
        """
        self.reads, self.backward_attrs = parameters(self.name, self.backward_fn, "backward")
        return [r for r in self.reads if r not in known], [a for a in self.backward_attrs if a not in self.attrs]

    def _make_kernels(self, dtypes, forward_arg_dtypes=None, backward_arg_dtypes=None):
        """The two Kernels, their python implementations ``_forward_python`` over the inputs and
        ``_backward_python`` over what backward reads."""
        self.forward_kernel = Kernel(f"{self.name}_forward", dtypes=dtypes, arg_dtypes=forward_arg_dtypes)
        self.backward_kernel = Kernel(f"{self.name}_backward", dtypes=dtypes, arg_dtypes=backward_arg_dtypes)
        self.forward_kernel.python(self._forward_python, self.inputs)
        self.backward_kernel.python(self._backward_python, self.reads)

    @property
    def kernels(self):
        """The two Kernels, for ``register(..., kernels=op.kernels)``."""
        return (self.forward_kernel, self.backward_kernel)

    def _reference_named(self, reference):
        """``reference`` named ``<op>_reference`` (as ``opsdk check`` shows it)."""
        reference.__name__ = reference.__qualname__ = f"{self.short_name}_reference"
        return reference

    def _sources(self, c_code, cuda_code, *, c, cuda):
        """One C and one CUDA source for both kernels (one compile, one module), None where not
        asked; ``c_code`` and ``cuda_code`` write the code. The sources' origin is the file that
        called ``c_bodies``."""
        c_source = CSource(code=c_code(), openmp=True, extra_compile_args=C_FLAGS, libraries=("m",),
                           _depth=2) if c else None
        cuda_source = CudaSource(code=cuda_code(), options=(f"-I{SDK_INCLUDE_DIR}",), _depth=2) if cuda else None
        return c_source, cuda_source

    def _keep(self, ctx, inputs, outs):
        """Keep for backward the inputs and the outputs (Tensors) that backward reads."""
        ctx.save_for_backward(*inputs, *(o for y, o in zip(self.outputs, outs) if y in self.reads))

    def _kept(self, ctx):
        """(the input Tensors, {output name: its array} for the outputs backward reads), as ``_keep`` kept them."""
        saved = ctx.saved_tensor()
        read = [y for y in self.outputs if y in self.reads]
        return saved[:len(self.inputs)], dict(zip(read, map(array_of, saved[len(self.inputs):])))

    @staticmethod
    def _differentiated(outs, douts, wrt):
        """d(sum of out * dout)/d(each of ``wrt``), recorded (create_graph), so differentiable again;
        None for one that the outputs do not depend on."""
        terms = [(o * d).sum() for o, d in zip(outs, douts) if d is not None and isinstance(o, Tensor)]
        if not terms or not wrt:
            return [None] * len(wrt)
        return list(grad_of(sum(terms[1:], terms[0]), list(wrt), create_graph=True, allow_unused=True))
