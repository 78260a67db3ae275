"""Multi: an elementwise op with several inputs and outputs, from its python maths and, for C and
CUDA, the statements of one element.

Write the forward and backward once with ``m`` (``opsdk.kernels.elementwise.maths``: the maths
of NumPy and CuPy arrays and of opsdk Tensors). The forward's positional parameters are the
inputs, its keyword-only ones the attributes, and it returns the outputs in order; the
backward's positional parameters name what it reads (inputs, outputs, ``d<output>``) and it
returns ``d<input>`` for every input::

    def forward(m, a, b, *, alpha):
        return a + alpha * b, a * b                       # the outputs: plus, prod

    def backward(m, a, b, dplus, dprod, *, alpha):
        return dplus + dprod * b, alpha * dplus + dprod * a

    OP = Multi("pack.pair", forward, backward, outputs=("plus", "prod"))

``Multi`` makes two Kernels (``<name>_forward``, ``<name>_backward``) whose python
implementations these are; ``.c_bodies(forward=..., backward=...)`` adds C and CUDA ones written
from statements (see ``statements``). A Function's forward and backward call
``OP.forward(ctx, a, b, alpha=alpha)`` and ``OP.backward(ctx, dplus, dprod)``: the inputs are
checked and broadcast against each other, a broadcast input's gradient summed back to its shape.
Under ``create_graph`` the backward differentiates ``forward`` on Tensors (opsdk ops), so every
order works; ``OP.reference`` is that same forward for ``opsdk check``.
"""
import inspect

import numpy

from opsdk.autograd.grad_api import grad as grad_of
from opsdk.autograd.grad_mode import is_grad_enabled
from opsdk.errors import OpArgumentError, ShapeError
from opsdk.functional.creation import zeros_like
from opsdk.functional.shape import broadcast_to
from opsdk.kernels.elementwise import C_FLAGS, DTYPES, maths_of
from opsdk.kernels.elementwise.op import (broadcast_arrays, filled, float_arrays, float_attrs, grad_like, run_native,
                                          sum_array_to)
from opsdk.kernels.kernel import Kernel
from opsdk.kernels.elementwise.bodies import check_names
from opsdk.kernels.multi.statements import Program, c_code, cuda_code
from opsdk.kernels.sources import SDK_INCLUDE_DIR, CSource, CudaSource
from opsdk.kernels.tensors import array_of, tensor_of
from opsdk.tensor import Tensor


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _one_or_tuple(values):
    return values[0] if len(values) == 1 else tuple(values)


def _signature(op, fn, what):
    """(positional names after m, keyword-only names) of ``fn(m, ...)``: at least one array."""
    params = list(inspect.signature(fn).parameters.values())
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2 or positional[0] != params[0].name:
        raise OpArgumentError(f"{op}: {what} must take m, then its arrays; expected: {what}(m, x, ..., *, attrs); "
                              f"got: {what}{inspect.signature(fn)}")
    return tuple(positional[1:]), tuple(p.name for p in params if p.kind is p.KEYWORD_ONLY)


class Multi:
    """A multi op: its python maths, its two kernels, and the forward and backward of its Function.

    Args:
        name: the op's qualified name, ``"pack.op"``.
        forward: ``forward(m, *inputs, **attrs)`` -> the outputs, in the order of ``outputs``.
        backward: ``backward(m, *reads, **attrs)`` -> ``d<input>`` for every input; ``reads``,
            its positional parameters, name inputs, outputs and ``d<output>``s.
        outputs: the outputs' names (each of the inputs' broadcast shape).
        dtypes: what the compiled kernels take.
    """

    def __init__(self, name, forward, backward, *, outputs=("y",), dtypes=DTYPES):
        self.name, self.short_name = name, name.rsplit(".", 1)[-1]
        self.forward_fn, self.backward_fn = forward, backward
        self.inputs, self.attrs = _signature(name, forward, "forward")
        self.outputs = tuple(outputs)
        for kind, names in (("input", self.inputs), ("attribute", self.attrs), ("output", self.outputs)):
            check_names(name, kind, names)
        self.grads = tuple(f"d{x}" for x in self.inputs)
        self.douts = tuple(f"d{y}" for y in self.outputs)
        names = [*self.inputs, *self.attrs, *self.outputs, *self.grads, *self.douts]
        clash = sorted({n for n in names if names.count(n) > 1})
        if not self.outputs or clash:
            raise OpArgumentError(f"{name}: inputs, attributes, outputs and their gradients (d<name>) need "
                                  f"names of their own, and one output at least; expected: distinct names; got: "
                                  + (f"{', '.join(clash)} twice" if clash else "no outputs"))
        self.reads, self.backward_attrs = _signature(name, backward, "backward")
        known = (*self.inputs, *self.outputs, *self.douts)
        unknown = [r for r in self.reads if r not in known] + [
            f"*, {a}" for a in self.backward_attrs if a not in self.attrs]
        if unknown:
            raise OpArgumentError(f"{name}: backward(m, ...) reads arrays by name, then attributes of forward "
                                  f"after *; expected: arrays among {', '.join(known)}; attributes among "
                                  f"{', '.join(self.attrs) or 'none (forward has none)'}; got: {', '.join(unknown)}")
        self.programs = None  # the C and CUDA statements, where c_bodies wrote the kernels
        # the two Kernels, for register(..., kernels=op.kernels)
        self.kernels = (Kernel(f"{name}_forward", dtypes=dtypes), Kernel(f"{name}_backward", dtypes=dtypes))
        self.forward_kernel, self.backward_kernel = self.kernels
        self.forward_kernel.python(self._forward_python, self.inputs)
        self.backward_kernel.python(self._backward_python, self.reads)

    def __repr__(self):
        return f"Multi({self.name!r}, inputs={self.inputs}, outputs={self.outputs})"

    @property
    def reference(self):
        """``forward`` on Tensors: for ``register(..., reference=op.reference)``."""
        def reference(*inputs, **attrs):
            shape = list(numpy.broadcast_shapes(*(tuple(t.shape) for t in inputs)))
            full = [t if list(t.shape) == shape else broadcast_to(t, shape) for t in inputs]
            outs = self._outputs(self.forward_fn(maths_of(full[0]), *full, **self._attrs(attrs)))
            return _one_or_tuple([o if isinstance(o, Tensor) and list(o.shape) == shape
                                  else o + zeros_like(full[0]) for o in outs])

        reference.__name__ = reference.__qualname__ = f"{self.short_name}_reference"
        return reference

    # -- compiled implementations -----------------------------------------------------------

    def c_bodies(self, forward, backward, *, c=True, cuda=True):
        """Add C and CUDA kernels written by the SDK from the statements of one element.

        Args:
            forward: statements writing every output.
            backward: statements writing ``d<input>`` for every input, reading what ``backward``
                reads (inputs, outputs, ``d<output>``) and its attributes.
            c: write the C kernels; cuda: write the CUDA kernels.

        Returns:
            self.
        """
        programs = [Program(self.name, "forward", forward, self.inputs, self.attrs, self.outputs),
                    Program(self.name, "backward", backward, self.reads, self.backward_attrs, self.grads)]
        if c:
            source = CSource(code=c_code(self.short_name, programs), openmp=True, extra_compile_args=C_FLAGS,
                             libraries=("m",), _depth=1)
            for kernel, p in zip(self.kernels, programs):
                kernel.c(source, f"{self.short_name}_{p.stage}")
        if cuda:
            source = CudaSource(code=cuda_code(self.short_name, programs), options=(f"-I{SDK_INCLUDE_DIR}",),
                                _depth=1)
            for kernel, p in zip(self.kernels, programs):
                kernel.cuda(source, f"{self.short_name}_{p.stage}")
        self.programs = programs
        return self

    def c_code(self):
        """The written C source (after c_bodies)."""
        return c_code(self.short_name, self.programs)

    def cuda_code(self):
        """The written CUDA source (after c_bodies)."""
        return cuda_code(self.short_name, self.programs)

    # -- python kernels -----------------------------------------------------------------------

    def _outputs(self, results, what="forward"):
        """``results`` as a tuple, one per output of forward (or per input: backward's gradients)."""
        names, per = (self.outputs, "output") if what == "forward" else (self.grads, "input")
        results = _as_tuple(results)
        if len(results) != len(names):
            raise OpArgumentError(f"{self.name}: {what} returns one value per {per}; expected: {len(names)} "
                                  f"({', '.join(names)}); got: {len(results)}")
        return results

    def _fresh(self, results, like, arrays):
        """Each result as a new array of ``like``'s shape and dtype, none an input nor another result."""
        out = []
        for r in results:
            a = filled(r, like)
            out.append(a.copy() if any(a is b for b in (*arrays, *out)) else a)
        return _one_or_tuple(out)

    def _forward_python(self, /, *arrays, **attrs):
        lead = arrays[0]
        return self._fresh(self._outputs(self.forward_fn(maths_of(lead), *arrays, **attrs)), lead, arrays)

    def _backward_python(self, /, *arrays, **attrs):
        lead = arrays[0]
        grads = self._outputs(self.backward_fn(maths_of(lead), *arrays, **attrs), "backward")
        return self._fresh(grads, lead, arrays)

    # -- the Function's forward and backward --------------------------------------------------

    def forward(self, ctx, /, *inputs, **attrs):
        """The forward of the op's Function: checks, broadcasting, the forward kernel.

        Returns:
            The output Tensor (a tuple for several outputs), of the inputs' broadcast shape.
        """
        arrays = self._broadcast(float_arrays(self.name, self.inputs, inputs))
        attrs = self._attrs(attrs)
        outs = [tensor_of(a) for a in _as_tuple(run_native(self.forward_kernel, arrays, attrs))]
        ctx.multi_attrs = attrs
        ctx.save_for_backward(*inputs, *(o for y, o in zip(self.outputs, outs) if y in self.reads))
        return _one_or_tuple(outs)

    def backward(self, ctx, *douts):
        """The backward of the op's Function: ``d<input>`` for every input, summed to its shape (the
        backward kernel, or ``forward`` differentiated on Tensors when the gradient must itself be
        differentiable)."""
        saved = ctx.saved_tensor()
        inputs = saved[:len(self.inputs)]
        if is_grad_enabled():
            return self._backward_tensors(inputs, douts, ctx.multi_attrs)
        arrays = broadcast_arrays([array_of(x) for x in inputs])
        lead = arrays[0]
        named = {**dict(zip(self.inputs, arrays)),
                 **dict(zip([y for y in self.outputs if y in self.reads], map(array_of, saved[len(self.inputs):])))}
        for name, d in zip(self.douts, douts):
            if name in self.reads:
                named[name] = maths_of(lead).xp.zeros(lead.shape, lead.dtype) if d is None else grad_like(d, lead)
        attrs = {a: ctx.multi_attrs[a] for a in self.backward_attrs}
        grads = _as_tuple(run_native(self.backward_kernel, [named[r] for r in self.reads], attrs))
        return _one_or_tuple([tensor_of(sum_array_to(g, x.shape)) for g, x in zip(grads, inputs)])

    def _backward_tensors(self, inputs, douts, attrs):
        """The gradients as opsdk ops (recorded, so differentiable again): forward on Tensors, differentiated."""
        wanted = [i for i, t in enumerate(inputs) if not t.stop_gradient]
        outs = self._outputs(self.forward_fn(maths_of(inputs[0]), *inputs, **attrs))
        terms = [(o * d).sum() for o, d in zip(outs, douts) if d is not None and isinstance(o, Tensor)]
        found = [None] * len(wanted)
        if terms and wanted:
            found = grad_of(sum(terms[1:], terms[0]), [inputs[i] for i in wanted], create_graph=True,
                            allow_unused=True)
        grads = [x * 0.0 for x in inputs]
        for i, g in zip(wanted, found):
            if g is not None:
                grads[i] = g
        return _one_or_tuple(grads)

    def _broadcast(self, arrays):
        """The arrays broadcast to one shape, or a ShapeError naming the op and the shapes."""
        try:
            numpy.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            shapes = ", ".join(f"{x} {list(a.shape)}" for x, a in zip(self.inputs, arrays))
            raise ShapeError(f"{self.name}: the inputs must broadcast against each other; expected: shapes "
                             f"that broadcast (equal, or 1, in each trailing axis); got: {shapes}") from None
        return broadcast_arrays(arrays)

    def _attrs(self, attrs):
        """The attributes as Python floats, each of forward's and no other."""
        unknown, missing = sorted(set(attrs) - set(self.attrs)), [a for a in self.attrs if a not in attrs]
        if unknown or missing:
            raise OpArgumentError(f"{self.name}: attributes; expected: {', '.join(self.attrs) or 'none'}; got: "
                                  f"{', '.join(sorted(attrs)) or 'none'}")
        return float_attrs(self.name, attrs)
