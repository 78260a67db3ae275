"""Elementwise: an op from its maths (f, its gradient, its second derivatives) and its kernels.

Write three functions of ``m`` (see ``maths``), the inputs and the float attributes::

    def value(m, x, *, beta):  return m.softplus(beta * x) / beta          # f
    def grad(m, x, *, beta):   return (m.sigmoid(beta * x),)               # df/dx_i
    def grad2(m, x, *, beta):                                             # (df/dx_i, d2f/dx_i dx_j)
        s = m.sigmoid(beta * x)
        return (s,), ((beta * s * (1 - s),),)

``Elementwise`` makes three Kernels of them (``<name>_value``, ``<name>_grad``,
``<name>_grad2``) with their python implementations; ``.c(...)`` and ``.cuda(...)`` add compiled
ones (C functions ``<op>_value_f32`` & co., see ``opsdk.kernels.adapters``). A Function's forward
and backward then call ``op.forward(ctx, x, beta=beta)`` and ``op.backward(ctx, dy)``:

- inputs broadcast against each other; the gradient of a broadcast input is summed back;
- first-order backward runs the grad kernel; second order the grad2 kernel; where that second
  derivative must itself be differentiable (third order and up) it is computed from ``grad2``
  on Tensors, so every order works.
"""

import inspect

import numpy

from opsdk.autograd import PyLayer
from opsdk.autograd.grad_mode import is_grad_enabled
from opsdk.errors import DTypeError, OpArgumentError
from opsdk.functional.creation import zeros_like
from opsdk.functional.reduction import sum as sum_
from opsdk.functional.shape import broadcast_to, reshape
from opsdk.kernels.elementwise.bodies import Bodies, array_names
from opsdk.kernels.elementwise.maths import maths_of
from opsdk.kernels.kernel import Kernel
from opsdk.kernels.sources import SDK_INCLUDE_DIR, CSource, CudaSource
from opsdk.kernels.tensors import array_of, tensor_of
from opsdk.tensor import Tensor

DTYPES = ("float32", "float64")
# how generated and hand-written elementwise C sources compile: vectorized (no errno, no FP
# traps, so libm-free maths and selects vectorize; no -ffast-math: inf and nan behave), OpenMP
C_FLAGS = ("-O3", "-fno-math-errno", "-fno-trapping-math")
_NATIVE = frozenset(numpy.dtype(d) for d in DTYPES)


def as_tuple(value):
    """``value`` as a tuple (maths return one array or a tuple of them)."""
    return value if isinstance(value, tuple) else (value,)


def one_or_tuple(values):
    """One value as itself, several as a tuple (as a Function returns its outputs)."""
    return values[0] if len(values) == 1 else tuple(values)


def filled(value, like):
    """``value`` (an array or a number) as a new array of ``like``'s shape and dtype."""
    if type(value) is type(like) and value.shape == like.shape and value.dtype == like.dtype:
        return value
    xp = maths_of(like).xp
    return xp.ascontiguousarray(xp.broadcast_to(xp.asarray(value, dtype=like.dtype), like.shape))


class Elementwise:
    """An elementwise op: its maths, its three kernels, and the forward and backward of its Function.

    Args:
        name: the op's qualified name, ``"pack.op"`` (kernels are ``"pack.op_value"`` & co.).
        value: ``value(m, *inputs, **attrs)``: f.
        grad: ``grad(m, *inputs, **attrs)``: the tuple of df/d(input), one per input.
        grad2: ``grad2(m, *inputs, **attrs)``: ``(grad, hessian)``, hessian[i][j] = d2f/di dj.
        inputs: the inputs' names, in order (for messages).
        dtypes: what the compiled kernels take.

    Example:
        >>> op = Elementwise("doc.square", lambda m, x: x * x, lambda m, x: (2 * x,),
        ...                  lambda m, x: ((2 * x,), ((2.0,),)))
        >>> op.value_kernel(numpy.array([3.0]))
        array([9.])
    """

    def __init__(self, name, value, grad, grad2, *, inputs=("x",), dtypes=DTYPES):
        self.name = name
        self.short_name = name.rsplit(".", 1)[-1]
        self.value, self.grad, self.grad2 = value, grad, grad2
        self.inputs = tuple(inputs)
        self.bodies = None  # the scalar C bodies, where c_bodies wrote the compiled kernels
        self.value_kernel = Kernel(f"{name}_value", dtypes=dtypes)
        self.grad_kernel = Kernel(f"{name}_grad", dtypes=dtypes)
        self.grad2_kernel = Kernel(f"{name}_grad2", dtypes=dtypes)
        self.value_kernel.python(self._value_python, kernel_arguments(inputs, "value"))
        self.grad_kernel.python(self._grad_python, kernel_arguments(inputs, "grad"))
        self.grad2_kernel.python(self._grad2_python, kernel_arguments(inputs, "grad2"))
        self.grad_function = type(f"{self.short_name}_grad", (_GradFunction,),
                                  {"_opsdk_qualname": f"{name}_grad"})

    def __repr__(self):
        return f"Elementwise({self.name!r}, inputs={self.inputs})"

    @property
    def kernels(self):
        """The three Kernels, for ``register(..., kernels=op.kernels)``."""
        return (self.value_kernel, self.grad_kernel, self.grad2_kernel)

    @property
    def reference(self):
        """``value`` on Tensors, for ``register(..., reference=op.reference)``.

        ``opsdk check`` then compares the op's output, gradient and second derivatives with the
        autograd of ``value`` written with ``m``'s Tensor functions: a derivation independent of
        ``grad`` and ``grad2`` (and of the kernels).
        """
        def reference(*inputs, **attrs):
            shape, full = broadcast_tensors(inputs)
            out = self.value(maths_of(full[0]), *full, **self._attrs(attrs))
            if not isinstance(out, Tensor) or list(out.shape) != shape:  # a constant f
                out = out + zeros_like(full[0])
            return out

        reference.__name__ = reference.__qualname__ = f"{self.short_name}_reference"
        return reference

    # -- compiled implementations ---------------------------------------------------------

    def c(self, source):
        """Add the C kernels: ``<op>_value_<dtype>``, ``<op>_grad_<dtype>``, ``<op>_grad2_<dtype>``.

        Args:
            source: a CSource, or the path of the .c file (relative to the calling file),
                compiled with OpenMP and ``C_FLAGS``.

        Returns:
            self.
        """
        if not isinstance(source, CSource):
            source = CSource(source, openmp=True, extra_compile_args=C_FLAGS, libraries=("m",), _depth=1)
        for kernel, stage in zip(self.kernels, ("value", "grad", "grad2")):
            kernel.c(source, f"{self.short_name}_{stage}")
        return self

    def c_bodies(self, value, grad, grad2, *, c=True, cuda=True):
        """Add C and CUDA kernels written by the SDK from scalar C bodies (see ``bodies``): one
        body per function serves both languages.

        Args:
            value: f for one element, a C expression over the inputs and attributes by name
                (or statements ending in ``return``); ``T`` is the float type.
            grad: df/dx_i, one body per input (a string for one input).
            grad2: d2f/dx_i dx_j, a k x k list of bodies (a string for one input).
            c: write the C kernels (float32/float64 loops through opsdk/elementwise.h).
            cuda: write the CUDA kernels (grid-stride, through opsdk/maths.cuh).

        Returns:
            self.

        Example:
            >>> op = Elementwise("doc.cube", lambda m, x, *, s: s * x ** 3,
            ...                  lambda m, x, *, s: (3 * s * x ** 2,),
            ...                  lambda m, x, *, s: ((3 * s * x ** 2,), ((6 * s * x,),)))
            >>> op = op.c_bodies("s * x * x * x", "3 * s * x * x", "6 * s * x")
        """
        attrs = [p.name for p in inspect.signature(self.value).parameters.values()
                 if p.kind is p.KEYWORD_ONLY]
        bodies = Bodies(self.name, self.inputs, attrs, value, grad, grad2)
        if c:
            self.c(CSource(code=bodies.c_code(), openmp=True, extra_compile_args=C_FLAGS,
                           libraries=("m",), _depth=1))
        if cuda:
            self.cuda(CudaSource(code=bodies.cuda_code(), options=(f"-I{SDK_INCLUDE_DIR}",),
                                 _depth=1))
        self.bodies = bodies
        return self

    def cuda(self, source):
        """Add the CUDA kernels (the same names, grid-stride); ``source``: a CudaSource or a .cu path."""
        if not isinstance(source, CudaSource):
            source = CudaSource(source, _depth=1)
        for kernel, stage in zip(self.kernels, ("value", "grad", "grad2")):
            kernel.cuda(source, f"{self.short_name}_{stage}")
        return self

    # -- python kernels ---------------------------------------------------------------------

    def _value_python(self, /, *arrays, **attrs):
        out = filled(self.value(maths_of(arrays[0]), *arrays, **attrs), arrays[0])
        # f = x returns x itself: an output must never be an input
        return out.copy() if any(out is a for a in arrays) else out

    def _grad_python(self, /, *arrays, **attrs):
        *xs, dy = arrays
        slopes = as_tuple(self.grad(maths_of(dy), *xs, **attrs))
        return one_or_tuple([filled(dy * slope, dy) for slope in slopes])

    def _grad2_python(self, /, *arrays, **attrs):
        k = len(self.inputs)
        xs, dy, gs = arrays[:k], arrays[k], arrays[k + 1:]
        slopes, curvatures = self.grad2(maths_of(dy), *xs, **attrs)
        slopes, curvatures = as_tuple(slopes), tuple(as_tuple(row) for row in as_tuple(curvatures))
        gx = [filled(dy * sum(g * curvatures[i][j] for i, g in enumerate(gs)), dy) for j in range(k)]
        gdy = filled(sum(g * slope for g, slope in zip(gs, slopes)), dy)
        return (*gx, gdy)

    # -- the Function's forward and backward ------------------------------------------------

    def forward(self, ctx, /, *inputs, **attrs):
        """The forward of the op's Function: checks, broadcasting, the value kernel.

        Args:
            ctx: the Function's context (inputs and attributes are kept on it).
            *inputs: the input Tensors, in the order of ``inputs``.
            **attrs: the float attributes.

        Returns:
            The output Tensor, of the inputs' broadcast shape and dtype.
        """
        arrays = self._arrays(inputs)
        attrs = self._attrs(attrs)
        ctx.save_for_backward(*inputs)
        ctx.attrs = attrs
        return tensor_of(run_native(self.value_kernel, broadcast_arrays(arrays), attrs))

    def backward(self, ctx, dy):
        """The backward of the op's Function: one gradient per input, summed to its shape."""
        inputs = ctx.saved_tensor()
        grads = as_tuple(self.grad_function.apply(*inputs, dy, self, ctx.attrs))
        return one_or_tuple([_sum_to(g, x.shape) for g, x in zip(grads, inputs)])

    def jvp(self, ctx, *tangents):
        """The Function's jvp (forward mode), derived: sum_i df/dx_i * t_i, the partial
        derivatives from the grad kernel (as an op whose own derivative is grad2's, so the
        tangent is differentiable to any order). Takes one tangent per forward argument (None for
        the attributes), as the protocol hands them; returns the output's tangent."""
        inputs = ctx.saved_tensor()
        shape = numpy.broadcast_shapes(*(tuple(x.shape) for x in inputs))
        ones = zeros_like(inputs[0]) + 1.0  # a constant: d(df/dx_i)/dx_j comes from grad2
        if tuple(ones.shape) != shape:
            ones = broadcast_to(ones, list(shape))
        partials = as_tuple(self.grad_function.apply(*inputs, ones, self, ctx.attrs))
        terms = [p * t for p, t in zip(partials, tangents[:len(inputs)]) if t is not None]
        if not terms:
            return ones * 0.0
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        return total if tuple(total.shape) == shape else broadcast_to(total, list(shape))

    def _arrays(self, inputs):
        return float_arrays(self.name, self.inputs, inputs)

    def _attrs(self, attrs):
        return float_attrs(self.name, attrs)


def tensor_arrays(op, names, inputs):
    """The arrays of the Tensors ``inputs`` (named ``names``), checked: one per name, each a
    Tensor; a clear error naming ``op`` and the argument otherwise."""
    if len(inputs) != len(names):
        raise OpArgumentError(f"{op}: takes {len(names)} tensor(s) "
                              f"({', '.join(names)}); got: {len(inputs)}")
    for name, t in zip(names, inputs):
        if not isinstance(t, Tensor):
            raise OpArgumentError(f"{op}: argument '{name}' must be a Tensor; expected: "
                                  f"opsdk.Tensor; got: {type(t).__name__}")
    return [array_of(t) for t in inputs]


def float_arrays(op, names, inputs):
    """The arrays of the Tensors ``inputs`` (named ``names``), checked (``tensor_arrays``), floating
    point, one dtype; a clear error naming ``op`` and the argument otherwise."""
    arrays = []
    for name, array in zip(names, tensor_arrays(op, names, inputs)):
        if array.dtype.kind != "f":
            raise DTypeError(f"{op}: argument '{name}' must be a float tensor; expected: "
                             f"float16, float32 or float64; got: {array.dtype}")
        if arrays and array.dtype != arrays[0].dtype:
            raise DTypeError(f"{op}: argument '{name}' must have the dtype of "
                             f"'{names[0]}'; expected: {arrays[0].dtype}; got: {array.dtype}")
        arrays.append(array)
    return arrays


def float_attrs(op, attrs):
    """The attributes as Python floats (a NumPy float64 would turn float32 results into float64)."""
    try:
        return {key: float(value) for key, value in attrs.items()}
    except (TypeError, ValueError):
        bad = next(k for k, v in attrs.items() if not isinstance(v, (int, float, numpy.number)))
        raise OpArgumentError(f"{op}: attribute '{bad}' must be a number; expected: a float; "
                              f"got: {type(attrs[bad]).__name__}") from None


def broadcast_tensors(tensors):
    """(the Tensors' broadcast shape as a list, the Tensors broadcast to it)."""
    shape = list(numpy.broadcast_shapes(*(tuple(t.shape) for t in tensors)))
    return shape, [t if list(t.shape) == shape else broadcast_to(t, shape) for t in tensors]


def kernel_arguments(inputs, stage):
    """The array arguments of a stage's kernel, by name (as errors name them): bodies.array_names'
    arrays read."""
    return array_names(inputs, stage)[0]


def broadcast_arrays(arrays):
    """The arrays broadcast to one shape (views; kernels make them contiguous as they need)."""
    if len(arrays) == 1 or all(a.shape == arrays[0].shape for a in arrays[1:]):
        return arrays
    return list(maths_of(arrays[0]).xp.broadcast_arrays(*arrays))


def run_native(kernel, arrays, attrs):
    """Call a kernel: dispatched for float32/float64, the python kernel for other dtypes."""
    if arrays[0].dtype in _NATIVE:
        return kernel(*arrays, **attrs)
    return kernel.run("python", *arrays, **attrs)


def grad_like(g, like):
    """An incoming gradient's array with ``like``'s dtype and shape."""
    array = array_of(g)
    if array.dtype != like.dtype:
        array = array.astype(like.dtype)
    if array.shape != like.shape:
        array = maths_of(like).xp.broadcast_to(array, like.shape)
    return array


def _reduced_axes(shape, target):
    """The axes to sum over (keeping dims) to bring ``shape`` back to the broadcast input's ``target``."""
    lead = len(shape) - len(target)
    return tuple(range(lead)), tuple(lead + i for i, n in enumerate(target) if n == 1 and shape[lead + i] != 1)


def _sum_to(g, shape):
    """A gradient of the broadcast shape summed to an input's ``shape``, with opsdk ops (differentiable)."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead, kept = _reduced_axes(tuple(g.shape), shape)
    if kept:
        g = sum_(g, axis=list(kept), keepdim=True)
    if lead:
        g = sum_(g, axis=list(lead))
    return reshape(g, list(shape))


def sum_array_to(a, shape):
    """``_sum_to`` on an array (no graph needed)."""
    shape = tuple(shape)
    if a.shape == shape:
        return a
    lead, kept = _reduced_axes(a.shape, shape)
    if kept:
        a = a.sum(axis=kept, keepdims=True)
    if lead:
        a = a.sum(axis=lead)
    return a.reshape(shape)


class _GradFunction(PyLayer):
    """dx_i = dy * df/dx_i, as an op of its own, so the gradient has a gradient too."""

    @staticmethod
    def forward(ctx, *args):
        *tensors, op, attrs = args
        xs, dy = tensors[:-1], tensors[-1]
        arrays = broadcast_arrays([array_of(x) for x in xs])
        ctx.save_for_backward(*xs, dy)
        ctx.op, ctx.attrs = op, attrs
        grads = as_tuple(run_native(op.grad_kernel, [*arrays, grad_like(dy, arrays[0])], attrs))
        return one_or_tuple([tensor_of(g) for g in grads])

    @staticmethod
    def backward(ctx, *gs):
        *xs, dy = ctx.saved_tensor()
        op, attrs = ctx.op, ctx.attrs
        if is_grad_enabled():  # create_graph=True: the result must be differentiable again
            return _grad2_tensors(op, xs, dy, gs, attrs)
        arrays = broadcast_arrays([array_of(x) for x in xs])
        like = [grad_like(g, arrays[0]) for g in (dy, *gs)]
        out = run_native(op.grad2_kernel, [*arrays, *like], attrs)
        *gx, gdy = out
        return (*(tensor_of(sum_array_to(g, x.shape)) for g, x in zip(gx, xs)), tensor_of(gdy))


def _grad2_tensors(op, xs, dy, gs, attrs):
    """The grad kernel's gradient from ``op.grad2`` on Tensors: recorded, so differentiable."""
    shape = list(dy.shape)
    full = [x if list(x.shape) == shape else broadcast_to(x, shape) for x in xs]
    slopes, curvatures = op.grad2(maths_of(dy), *full, **attrs)
    slopes, curvatures = as_tuple(slopes), tuple(as_tuple(row) for row in as_tuple(curvatures))
    gx = [_sum_to(dy * sum(g * curvatures[i][j] for i, g in enumerate(gs)), x.shape) for j, x in enumerate(xs)]
    gdy = sum(g * slope for g, slope in zip(gs, slopes))
    return (*gx, gdy)
