"""Rows: an op over the last axis (norms, softmax) from its python maths and, for C and CUDA, statements.

Write the forward and backward once with ``m`` (see ``maths``: the elementwise functions and
``row_sum``/``row_mean``/``row_max``/``row_min``/``col_sum``); the forward's positional parameters
are the inputs, its keyword-only ones the attributes; the backward's positional parameters name
what it reads (inputs, outputs, ``saved`` per-row values, ``d<output>``) and it returns
``d<input>`` for every input::

    def forward(m, x, weight, *, eps):
        rstd = 1 / m.sqrt(m.row_mean(x * x) + eps)
        return x * rstd * weight, rstd                     # the outputs, then the saved

    def backward(m, x, weight, rstd, dy, *, eps):
        xhat, g = x * rstd, dy * weight
        return rstd * (g - xhat * m.row_mean(g * xhat)), m.col_sum(dy * xhat)

    OP = Rows("pack.rms_norm", forward, backward, features=("weight",), saved=("rstd",))

``Rows`` makes two Kernels (``<name>_forward``, ``<name>_backward``) whose python
implementations these are, over ``[rows, K]`` (``features`` are ``[K]``, saved values ``[rows]``);
``.c_bodies(forward=..., backward=...)`` adds C and CUDA ones written from statements (see
``statements``). A Function's forward and backward call ``OP.forward(ctx, x, weight, eps=eps)``
and ``OP.backward(ctx, dy)``: the inputs are checked and reshaped to rows, the saved values kept
on ``ctx``. Under ``create_graph`` the backward differentiates ``forward`` on Tensors (opsdk ops),
so every order works; ``OP.reference`` is that same forward for ``opsdk check``.
"""
import inspect
import math

from opsdk.autograd.grad_api import grad as grad_of
from opsdk.autograd.grad_mode import is_grad_enabled
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from opsdk.kernels.elementwise import C_FLAGS, DTYPES
from opsdk.kernels.elementwise.op import float_attrs, run_native
from opsdk.kernels.kernel import Kernel
from opsdk.kernels.rows.code import BLOCK, Stage, c_code, cuda_code
from opsdk.kernels.rows.maths import RowMaths
from opsdk.kernels.rows.statements import Program, check_names
from opsdk.kernels.sources import SDK_INCLUDE_DIR, CSource, CudaSource
from opsdk.kernels.tensors import array_of, tensor_of
from opsdk.tensor import Tensor

def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _parameters(op, fn, what):
    """(positional names after m, keyword-only names) of ``fn(m, ...)``."""
    params = list(inspect.signature(fn).parameters.values())
    if not params or params[0].kind not in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
        raise OpArgumentError(f"{op}: {what} must take m first; expected: {what}(m, x, ..., *, attrs); "
                              f"got: {what}{inspect.signature(fn)}")
    positional = tuple(p.name for p in params[1:] if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
    return positional, tuple(p.name for p in params if p.kind is p.KEYWORD_ONLY)


def _reader(name, fn):
    """``fn`` of one array, as a function whose parameter is named ``name`` (the adapters read
    inputs by their parameters' names)."""
    def read(**arrays):
        return fn(arrays[name])

    read.__signature__ = inspect.Signature([inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    return read


class Rows:
    """A rows op: its python maths, its two kernels, and the forward and backward of its Function.

    Args:
        name: the op's qualified name, ``"pack.op"``.
        forward: ``forward(m, *inputs, **attrs)`` -> the outputs (``[..., K]``), then the saved per-row values.
        backward: ``backward(m, *reads, **attrs)`` -> ``d<input>`` for every input.
        features: the inputs of shape ``[K]`` (one value per feature, like a norm's weight); the
            others are ``[..., K]``, all of one shape.
        outputs: the outputs' names (each of the inputs' shape).
        saved: the per-row values forward returns after the outputs, for backward.
        dtypes: what the compiled kernels take.
    """

    def __init__(self, name, forward, backward, *, features=(), outputs=("y",), saved=(), dtypes=DTYPES):
        self.name, self.short_name = name, name.rsplit(".", 1)[-1]
        self.forward_fn, self.backward_fn = forward, backward
        self.inputs, self.attrs = _parameters(name, forward, "forward")
        self.features, self.outputs, self.saved = tuple(features), tuple(outputs), tuple(saved)
        for kind, names in (("input", self.inputs), ("attribute", self.attrs), ("output", self.outputs),
                            ("saved", self.saved)):
            check_names(name, kind, names)
        unknown = [f for f in self.features if f not in self.inputs]
        if unknown or len(self.features) == len(self.inputs):
            raise OpArgumentError(f"{name}: features must name inputs of forward, leaving one [..., K] input; "
                                  f"expected: some of {', '.join(self.inputs)}; got: {', '.join(self.features)}")
        names = [*self.inputs, *self.outputs, *self.saved]
        self.grads = tuple(f"d{x}" for x in self.inputs)
        self.douts = tuple(f"d{y}" for y in self.outputs)
        clash = sorted({n for n in names if names.count(n) > 1} | (set(names) & {*self.grads, *self.douts}))
        if clash:
            raise OpArgumentError(f"{name}: inputs, outputs, saved values and their gradients (d<name>) need "
                                  f"names of their own; expected: distinct names; got: {', '.join(clash)} twice")
        self.kind = {**{x: "feature" if x in self.features else "element" for x in self.inputs},
                     **{y: "element" for y in (*self.outputs, *self.douts)}, **{s: "row" for s in self.saved}}
        self.reads, self.backward_attrs = _parameters(name, backward, "backward")
        bad = [r for r in self.reads if r not in self.kind]
        if bad:
            raise OpArgumentError(f"{name}: backward reads arrays by name; expected: some of "
                                  f"{', '.join(self.kind)}; got: {', '.join(bad)}")
        extra = [a for a in self.backward_attrs if a not in self.attrs]
        if extra:
            raise OpArgumentError(f"{name}: backward's keyword-only parameters must be attributes of forward; "
                                  f"expected: some of {', '.join(self.attrs) or 'none'}; got: {', '.join(extra)}")
        self.stages = None  # the C and CUDA stages, where c_bodies wrote them
        self.forward_kernel = Kernel(f"{name}_forward", dtypes=dtypes)
        self.backward_kernel = Kernel(f"{name}_backward", dtypes=dtypes)
        self.forward_kernel.python(self._forward_python, self.inputs)
        self.backward_kernel.python(self._backward_python, self.reads)

    def __repr__(self):
        return f"Rows({self.name!r}, inputs={self.inputs}, features={self.features})"

    @property
    def kernels(self):
        """The two Kernels, for ``register(..., kernels=op.kernels)``."""
        return (self.forward_kernel, self.backward_kernel)

    @property
    def reference(self):
        """``forward`` on Tensors, its outputs only: for ``register(..., reference=op.reference)``."""
        def reference(*inputs, **attrs):
            outs = _as_tuple(self.forward_fn(RowMaths(inputs[0]), *inputs, **self._attrs(attrs)))
            return outs[0] if len(self.outputs) == 1 else outs[:len(self.outputs)]

        reference.__name__ = reference.__qualname__ = f"{self.short_name}_reference"
        return reference

    # -- compiled implementations -----------------------------------------------------------

    def c_bodies(self, forward, backward, *, c=True, cuda=True):
        """Add C and CUDA kernels written by the SDK from the statements of one row.

        Args:
            forward: statements writing every output (per element) and saved value (per row).
            backward: statements writing ``d<input>`` for every input: per element, or summed
                over rows for a feature input.
            c: write the C kernels; cuda: write the CUDA kernels.

        Returns:
            self.
        """
        writes = {**{y: "element" for y in self.outputs}, **{s: "row" for s in self.saved}}
        reads = {x: self.kind[x] for x in self.inputs}
        grads = {f"d{x}": self.kind[x] for x in self.inputs}
        back_reads = {r: self.kind[r] for r in self.reads}
        stages = [
            Stage(self.short_name, "forward", Program(self.name, "forward", forward, reads, self.attrs, writes),
                  reads, writes, self.attrs),
            Stage(self.short_name, "backward",
                  Program(self.name, "backward", backward, back_reads, self.backward_attrs, grads),
                  back_reads, grads, self.backward_attrs)]
        for kernel, stage in zip(self.kernels, stages):
            layout = self._layout(stage)
            if c:
                kernel.c(CSource(code=c_code(stages), openmp=True, extra_compile_args=C_FLAGS, libraries=("m",),
                                 _depth=1), stage.function, **layout)
            if cuda:
                lead, columns = layout["sizes"]["rows"], bool(stage.columns)
                threads = _reader(next(iter(inspect.signature(lead).parameters)),
                                  lambda a: (a.shape[0] + (-(-a.shape[1] // BLOCK) if columns else 0)) * BLOCK)
                kernel.cuda(CudaSource(code=cuda_code(self.short_name, stages), options=(f"-I{SDK_INCLUDE_DIR}",),
                                       _depth=1), stage.function, threads=threads, **layout)
        self.stages = stages
        return self

    def _layout(self, stage):
        """The declared adapter's sizes (rows, K) and output shapes, read from the stage's first element array."""
        lead = next(a for a, kind in stage.reads.items() if kind == "element")
        shape = {"element": lambda a: a.shape, "row": lambda a: a.shape[:1], "feature": lambda a: a.shape[1:]}
        return {"sizes": {"rows": _reader(lead, lambda a: a.shape[0]), "K": _reader(lead, lambda a: a.shape[1])},
                "outputs": {name: _reader(lead, shape[kind]) for name, kind in stage.writes.items()}}

    def c_code(self):
        """The written C source (after c_bodies)."""
        return c_code(self.stages)

    def cuda_code(self):
        """The written CUDA source (after c_bodies)."""
        return cuda_code(self.short_name, self.stages)

    # -- python kernels -----------------------------------------------------------------------

    def _forward_python(self, /, *arrays, **attrs):
        lead = arrays[self.inputs.index(self._lead)]
        results = _as_tuple(self.forward_fn(RowMaths(lead), *arrays, **attrs))
        xp = RowMaths(lead).xp
        outs = [xp.ascontiguousarray(xp.broadcast_to(xp.asarray(a, dtype=lead.dtype), lead.shape))
                for a in results[:len(self.outputs)]]
        saved = [xp.ascontiguousarray(xp.asarray(s, dtype=lead.dtype).reshape(lead.shape[0])) for s in results[len(self.outputs):]]
        outs = [o.copy() if any(o is a for a in arrays) else o for o in outs]
        return tuple(outs + saved) if len(outs) + len(saved) > 1 else outs[0]

    def _backward_python(self, /, *arrays, **attrs):
        given = dict(zip(self.reads, arrays))
        lead = next(a for r, a in given.items() if self.kind[r] == "element")
        given = {r: a.reshape(-1, 1) if self.kind[r] == "row" else a for r, a in given.items()}
        grads = _as_tuple(self.backward_fn(RowMaths(lead), *given.values(), **attrs))
        xp = RowMaths(lead).xp
        shape = {"element": lead.shape, "feature": lead.shape[1:]}
        out = [xp.ascontiguousarray(xp.broadcast_to(xp.asarray(g, dtype=lead.dtype), shape[self.kind[x]]))
               for g, x in zip(grads, self.inputs)]
        return tuple(out) if len(out) > 1 else out[0]

    @property
    def _lead(self):
        return next(x for x in self.inputs if x not in self.features)

    # -- the Function's forward and backward --------------------------------------------------

    def forward(self, ctx, /, *inputs, **attrs):
        """The forward of the op's Function: checks, the rows view, the forward kernel.

        Returns:
            The output Tensor (a tuple for several outputs), of the ``[..., K]`` inputs' shape.
        """
        arrays = self._arrays(inputs)
        attrs = self._attrs(attrs)
        shape = arrays[self._lead].shape
        K = shape[-1]
        rows = math.prod(shape[:-1])
        flat = [a.reshape(rows, K) if self.kind[x] == "element" else a for x, a in arrays.items()]
        results = _as_tuple(run_native(self.forward_kernel, flat, attrs))
        outs = [tensor_of(a.reshape(shape)) for a in results[:len(self.outputs)]]
        ctx.rows_saved = dict(zip(self.saved, results[len(self.outputs):]))
        ctx.rows_attrs, ctx.rows_shape = attrs, shape
        ctx.save_for_backward(*inputs, *(o for y, o in zip(self.outputs, outs) if y in self.reads))
        return outs[0] if len(outs) == 1 else tuple(outs)

    def backward(self, ctx, *douts):
        """The backward of the op's Function: ``d<input>`` for every input (the backward kernel, or
        ``forward`` differentiated on Tensors when the gradient must itself be differentiable)."""
        saved = ctx.saved_tensor()
        inputs = saved[:len(self.inputs)]
        if is_grad_enabled():
            return self._backward_tensors(inputs, douts, ctx.rows_attrs)
        shape = ctx.rows_shape
        rows, K = math.prod(shape[:-1]), shape[-1]
        lead = array_of(inputs[self.inputs.index(self._lead)])
        named = {**dict(zip(self.inputs, map(array_of, inputs))),
                 **dict(zip([y for y in self.outputs if y in self.reads], map(array_of, saved[len(self.inputs):]))),
                 **ctx.rows_saved}
        for dname, d in zip(self.douts, douts):
            named[dname] = (RowMaths(lead).xp.zeros_like(lead) if d is None
                            else array_of(d).astype(lead.dtype, copy=False))
        flat = [named[r].reshape(rows, K) if self.kind[r] == "element" else named[r] for r in self.reads]
        grads = _as_tuple(run_native(self.backward_kernel, flat, {a: ctx.rows_attrs[a] for a in self.backward_attrs}))
        out = [tensor_of(g.reshape(shape) if self.kind[x] == "element" else g) for g, x in zip(grads, self.inputs)]
        return out[0] if len(out) == 1 else tuple(out)

    def _backward_tensors(self, inputs, douts, attrs):
        """The gradients as opsdk ops (recorded, so differentiable again): forward on Tensors, differentiated."""
        wanted = [i for i, t in enumerate(inputs) if not t.stop_gradient]
        outs = _as_tuple(self.forward_fn(RowMaths(inputs[0]), *inputs, **attrs))[:len(self.outputs)]
        terms = [(o * d).sum() for o, d in zip(outs, douts) if d is not None]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        found = grad_of(total, [inputs[i] for i in wanted], create_graph=True, allow_unused=True)
        grads = [None] * len(inputs)
        for i, g in zip(wanted, found):
            grads[i] = g if g is not None else inputs[i] * 0.0
        return grads[0] if len(grads) == 1 else tuple(grads)

    def _arrays(self, inputs):
        """The inputs' arrays by name, checked: Tensors, floating point, one dtype, ``[..., K]`` and ``[K]``."""
        if len(inputs) != len(self.inputs):
            raise OpArgumentError(f"{self.name}: takes {len(self.inputs)} tensor(s) "
                                  f"({', '.join(self.inputs)}); got: {len(inputs)}")
        arrays = {}
        for name, t in zip(self.inputs, inputs):
            if not isinstance(t, Tensor):
                raise OpArgumentError(f"{self.name}: argument '{name}' must be a Tensor; expected: "
                                      f"opsdk.Tensor; got: {type(t).__name__}")
            arrays[name] = array = array_of(t)
            if array.dtype.kind != "f":
                raise DTypeError(f"{self.name}: argument '{name}' must be a float tensor; expected: "
                                 f"float16, float32 or float64; got: {array.dtype}")
        lead = arrays[self._lead]
        if lead.ndim < 1:
            raise ShapeError(f"{self.name}: argument '{self._lead}' must have a last axis to reduce; "
                             f"expected: shape [..., K]; got: shape {list(lead.shape)}")
        for name, array in arrays.items():
            want = list(lead.shape[-1:]) if name in self.features else list(lead.shape)
            if array.dtype != lead.dtype:
                raise DTypeError(f"{self.name}: argument '{name}' must have the dtype of '{self._lead}'; "
                                 f"expected: {lead.dtype}; got: {array.dtype}")
            if list(array.shape) != want:
                what = "one value per feature" if name in self.features else f"the shape of '{self._lead}'"
                raise ShapeError(f"{self.name}: argument '{name}' must have {what}; expected: shape {want}; "
                                 f"got: shape {list(array.shape)}")
        return arrays

    def _attrs(self, attrs):
        """The attributes as Python floats."""
        unknown = sorted(set(attrs) - set(self.attrs))
        if unknown:
            raise OpArgumentError(f"{self.name}: unknown attribute(s); expected: {', '.join(self.attrs) or 'none'}; "
                                  f"got: {', '.join(unknown)}")
        return float_attrs(self.name, attrs)  # floats, a non-number refused by name
