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
import numpy

from opsdk.autograd.grad_mode import is_grad_enabled
from opsdk.errors import OpArgumentError, ShapeError
from opsdk.functional.creation import zeros_like
from opsdk.kernels.elementwise import DTYPES, maths_of
from opsdk.kernels.elementwise.op import (as_tuple, broadcast_arrays, broadcast_tensors, filled, float_arrays, float_attrs, grad_like,
                                          one_or_tuple, run_native, sum_array_to)
from opsdk.kernels.elementwise.bodies import check_names
from opsdk.kernels.multi.statements import Program, c_code, cuda_code
from opsdk.kernels.tensors import array_of, tensor_of
from opsdk.kernels.two_kernels import TwoKernelOp
from opsdk.tensor import Tensor


class Multi(TwoKernelOp):
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
        super().__init__(name, forward, backward)
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
        known = (*self.inputs, *self.outputs, *self.douts)
        unknown, extra = self._backward_parameters(known)
        unknown += [f"*, {a}" for a in extra]
        if unknown:
            raise OpArgumentError(f"{name}: backward(m, ...) reads arrays by name, then attributes of forward "
                                  f"after *; expected: arrays among {', '.join(known)}; attributes among "
                                  f"{', '.join(self.attrs) or 'none (forward has none)'}; got: {', '.join(unknown)}")
        self.programs = None  # the C and CUDA statements, where c_bodies wrote the kernels
        self._make_kernels(dtypes)

    def __repr__(self):
        return f"Multi({self.name!r}, inputs={self.inputs}, outputs={self.outputs})"

    @property
    def reference(self):
        """``forward`` on Tensors: for ``register(..., reference=op.reference)``."""
        def reference(*inputs, **attrs):
            shape, full = broadcast_tensors(inputs)
            outs = self._outputs(self.forward_fn(maths_of(full[0]), *full, **self._attrs(attrs)))
            return one_or_tuple([o if isinstance(o, Tensor) and list(o.shape) == shape
                                 else o + zeros_like(full[0]) for o in outs])

        return self._reference_named(reference)

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
        c_source, cuda_source = self._sources(lambda: c_code(self.short_name, programs),
                                              lambda: cuda_code(self.short_name, programs), c=c, cuda=cuda)
        for kernel, p in zip(self.kernels, programs):
            if c:
                kernel.c(c_source, f"{self.short_name}_{p.stage}")
            if cuda:
                kernel.cuda(cuda_source, f"{self.short_name}_{p.stage}")
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
        results = as_tuple(results)
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
        return one_or_tuple(out)

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
        outs = [tensor_of(a) for a in as_tuple(run_native(self.forward_kernel, arrays, attrs))]
        ctx.multi_attrs = attrs
        self._keep(ctx, inputs, outs)
        return one_or_tuple(outs)

    def backward(self, ctx, *douts):
        """The backward of the op's Function: ``d<input>`` for every input, summed to its shape (the
        backward kernel, or ``forward`` differentiated on Tensors when the gradient must itself be
        differentiable)."""
        inputs, read_outputs = self._kept(ctx)
        if is_grad_enabled():
            return self._backward_tensors(inputs, douts, ctx.multi_attrs)
        arrays = broadcast_arrays([array_of(x) for x in inputs])
        lead = arrays[0]
        named = {**dict(zip(self.inputs, arrays)), **read_outputs}
        for name, d in zip(self.douts, douts):
            if name in self.reads:
                named[name] = maths_of(lead).xp.zeros(lead.shape, lead.dtype) if d is None else grad_like(d, lead)
        attrs = {a: ctx.multi_attrs[a] for a in self.backward_attrs}
        grads = as_tuple(run_native(self.backward_kernel, [named[r] for r in self.reads], attrs))
        return one_or_tuple([tensor_of(sum_array_to(g, x.shape)) for g, x in zip(grads, inputs)])

    def _backward_tensors(self, inputs, douts, attrs):
        """The gradients as opsdk ops (recorded, so differentiable again): forward on Tensors, differentiated."""
        wanted = [i for i, t in enumerate(inputs) if not t.stop_gradient]
        outs = self._outputs(self.forward_fn(maths_of(inputs[0]), *inputs, **attrs))
        found = self._differentiated(outs, douts, [inputs[i] for i in wanted])
        grads = [x * 0.0 for x in inputs]
        for i, g in zip(wanted, found):
            if g is not None:
                grads[i] = g
        return one_or_tuple(grads)

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
