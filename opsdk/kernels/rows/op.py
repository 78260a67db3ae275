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
implementations these are, over ``[rows, K]`` (``features`` are ``[K]``; ``per_row`` inputs and
outputs and the saved values ``[rows]``, seen by the maths as ``[rows, 1]``; ``integers`` are
int64 inputs, such as class labels, and integer attributes);
``.c_bodies(forward=..., backward=...)`` adds C and CUDA ones written from statements (see
``statements``). A Function's forward and backward call ``OP.forward(ctx, x, weight, eps=eps)``
and ``OP.backward(ctx, dy)``: the inputs are checked and reshaped to rows, the saved values kept
on ``ctx``. Under ``create_graph`` the backward differentiates ``forward`` on Tensors (opsdk ops),
so every order works; ``OP.reference`` is that same forward for ``opsdk check``.
"""
import inspect
import math

import numpy

from opsdk.autograd.grad_mode import is_grad_enabled
from opsdk.errors import DTypeError, OpArgumentError, ShapeError
from opsdk.kernels.elementwise import DTYPES
from opsdk.kernels.elementwise.op import as_tuple, float_attrs, one_or_tuple, run_native, tensor_arrays
from opsdk.kernels.rows.code import BLOCK, GROUP, Stage, c_code, cuda_code, parts
from opsdk.kernels.rows.maths import RowMaths
from opsdk.kernels.rows.statements import Program, check_names
from opsdk.functional.shape import broadcast_to, reshape
from opsdk.kernels.tensors import array_of, tensor_of
from opsdk.kernels.two_kernels import TwoKernelOp
from opsdk.tensor import Tensor


def _inner(a):
    """The inner size of [rows, K, inner] (1 for [rows, K])."""
    return a.shape[2] if a.ndim == 3 else 1


def _reader(name, fn):
    """``fn`` of one array, as a function whose parameter is named ``name`` (the adapters read
    inputs by their parameters' names)."""
    def read(**arrays):
        return fn(arrays[name])

    read.__signature__ = inspect.Signature([inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    return read


class Rows(TwoKernelOp):
    """A rows op: its python maths, its two kernels, and the forward and backward of its Function.

    Args:
        name: the op's qualified name, ``"pack.op"``.
        forward: ``forward(m, *inputs, **attrs)`` -> the outputs (``[..., K]``), then the saved per-row values.
        backward: ``backward(m, *reads, **attrs)`` -> ``d<input>`` for every input.
        features: the inputs of shape ``[K]`` (one value per feature, like a norm's weight); the
            others are ``[..., K]``, all of one shape.
        outputs: the outputs' names (each of the inputs' shape).
        saved: the per-row values forward returns after the outputs, for backward.
        per_row: inputs and outputs of one value per row (``[rows]``, the maths see ``[rows, 1]``).
        integers: inputs (int64) and attributes that hold integers; an integer input has no gradient.
        axis: the kernels also take ``[outer, K, inner]`` arrays, a row along the middle axis (a
            reduction along any axis, in place); not with features.
        dtypes: what the compiled kernels take.
    """

    def __init__(self, name, forward, backward, *, features=(), per_row=(), integers=(), outputs=("y",), saved=(),
                 axis=False, dtypes=DTYPES):
        super().__init__(name, forward, backward)
        self.features, self.outputs, self.saved = tuple(features), tuple(outputs), tuple(saved)
        self.per_row, self.integers, self.axis = tuple(per_row), tuple(integers), bool(axis)
        if self.axis and self.features:
            raise OpArgumentError(f"{name}: axis=True (rows along the middle axis of [outer, K, inner]) takes no "
                                  f"features (their gradients sum over rows); expected: features=(); "
                                  f"got: {', '.join(self.features)}")
        for kind, names in (("input", self.inputs), ("attribute", self.attrs), ("output", self.outputs),
                            ("saved", self.saved)):
            check_names(name, kind, names)
        unknown = [f for f in self.features if f not in self.inputs]
        if unknown or not [x for x in self.inputs if x not in (*self.features, *self.per_row, *self.integers)]:
            raise OpArgumentError(f"{name}: features must name inputs of forward, leaving one [..., K] input; "
                                  f"expected: some of {', '.join(self.inputs)}; got: {', '.join(self.features)}")
        for what, given, known in (("per_row", self.per_row, (*self.inputs, *self.outputs)),
                                   ("integers", self.integers, (*self.inputs, *self.attrs))):
            bad = [n for n in given if n not in known or n in self.features]
            if bad:
                raise OpArgumentError(f"{name}: {what} must name {'inputs or outputs' if what == 'per_row' else 'inputs or attributes'}"
                                      f" of forward (not features); expected: some of {', '.join(known)}; got: {', '.join(bad)}")
        names = [*self.inputs, *self.outputs, *self.saved]
        self.floats = tuple(x for x in self.inputs if x not in self.integers)  # the inputs with a gradient
        self.grads = tuple(f"d{x}" for x in self.floats)
        self.douts = tuple(f"d{y}" for y in self.outputs)
        clash = sorted({n for n in names if names.count(n) > 1} | (set(names) & {*self.grads, *self.douts}))
        if clash:
            raise OpArgumentError(f"{name}: inputs, outputs, saved values and their gradients (d<name>) need "
                                  f"names of their own; expected: distinct names; got: {', '.join(clash)} twice")

        def kind(x):
            return "feature" if x in self.features else "row" if x in self.per_row else "element"
        self.kind = {**{x: kind(x) for x in (*self.inputs, *self.outputs)},
                     **{f"d{y}": kind(y) for y in self.outputs}, **{s: "row" for s in self.saved}}
        bad, extra = self._backward_parameters(self.kind)
        if bad:
            raise OpArgumentError(f"{name}: backward reads arrays by name; expected: some of "
                                  f"{', '.join(self.kind)}; got: {', '.join(bad)}")
        if extra:
            raise OpArgumentError(f"{name}: backward's keyword-only parameters must be attributes of forward; "
                                  f"expected: some of {', '.join(self.attrs) or 'none'}; got: {', '.join(extra)}")
        self.stages = None  # the C and CUDA stages, where c_bodies wrote them
        labels = {x: ("int64",) for x in self.inputs if x in self.integers}
        self._make_kernels(dtypes, labels or None, {r: d for r, d in labels.items() if r in self.reads} or None)

    def __repr__(self):
        return f"Rows({self.name!r}, inputs={self.inputs}, features={self.features})"

    @property
    def reference(self):
        """``forward`` on Tensors, its outputs only: for ``register(..., reference=op.reference)``."""
        def reference(*inputs, **attrs):
            return one_or_tuple(self._forward_tensors(inputs, self._attrs(attrs)))

        return self._reference_named(reference)

    def _forward_tensors(self, inputs, attrs):
        """The outputs of ``forward`` on Tensors, shaped as the Function's (per-row inputs seen as
        ``[..., 1]``, per-row outputs given back as ``[...]``)."""
        lead = inputs[self.inputs.index(self._lead)]
        rows_shape = list(lead.shape[:-1])
        args = [reshape(t, [*rows_shape, 1]) if self.kind[x] == "row" else t for x, t in zip(self.inputs, inputs)]
        outs = as_tuple(self.forward_fn(RowMaths(lead), *args, **attrs))[:len(self.outputs)]
        return [reshape(broadcast_to(o, [*rows_shape, 1]), rows_shape) if self.kind[y] == "row" else o
                for y, o in zip(self.outputs, outs)]

    # -- compiled implementations -----------------------------------------------------------

    def c_bodies(self, forward, backward, *, c=True, cuda=True):
        """Add C and CUDA kernels written by the SDK from the statements of one row.

        Args:
            forward: statements writing every output (per element or per row) and saved value
                (per row).
            backward: statements writing ``d<input>`` for every float input: per element, per
                row, or summed over rows for a feature input.
            c: write the C kernels; cuda: write the CUDA kernels.

        Returns:
            self.
        """
        writes = {**{y: self.kind[y] for y in self.outputs}, **{s: "row" for s in self.saved}}
        reads = {x: self.kind[x] for x in self.inputs}
        grads = {f"d{x}": self.kind[x] for x in self.floats}
        back_reads = {r: self.kind[r] for r in self.reads}
        integers = [n for n in self.integers if n in self.inputs or n in self.attrs]
        stages = [
            Stage(self.short_name, "forward", Program(self.name, "forward", forward, reads, self.attrs, writes),
                  reads, writes, self.attrs, integers, self.axis),
            Stage(self.short_name, "backward",
                  Program(self.name, "backward", backward, back_reads, self.backward_attrs, grads),
                  back_reads, grads, self.backward_attrs, integers, self.axis)]
        c_source, cuda_source = self._sources(lambda: c_code(stages), lambda: cuda_code(self.short_name, stages),
                                              c=c, cuda=cuda)
        for kernel, stage in zip(self.kernels, stages):
            layout = self._layout(stage)
            if c:
                kernel.c(c_source, stage.function, **layout)
            if cuda:
                kernel.cuda(cuda_source, stage.function, **self._cuda_layout(stage, layout))
        self.stages = stages
        return self

    @staticmethod
    def _lead_of(stage):
        return next(a for a, kind in stage.reads.items() if kind == "element" and a not in stage.integers)

    def _layout(self, stage):
        """The declared adapter's sizes (rows, K; with ``axis``, arrays may be [rows, K, inner] too) and
        output shapes, read from the stage's first float element array."""
        lead = self._lead_of(stage)
        shape = {"element": lambda a: a.shape, "row": lambda a: a.shape[:1] + a.shape[2:],
                 "feature": lambda a: a.shape[1:]}
        sizes = {"rows": _reader(lead, lambda a: a.shape[0]), "K": _reader(lead, lambda a: a.shape[1])}
        if self.axis:
            sizes["opsdk_inner"] = _reader(lead, _inner)
        return {"sizes": sizes, "outputs": {name: _reader(lead, shape[kind]) for name, kind in stage.writes.items()}}

    def _cuda_layout(self, stage, layout):
        """The CUDA adapter's: a block per row (with ``axis``, a thread per row along the middle
        axis); with per-feature outputs, the feature blocks (GROUP features x a part of the rows),
        their partials and counts as work arrays."""
        lead, F = self._lead_of(stage), len(stage.columns)
        if not F:
            return {**layout, "threads": _reader(lead, lambda a: a.shape[0] * (BLOCK if _inner(a) == 1 else _inner(a)))}

        def count(a):
            return a.shape[0] + -(-a.shape[1] // GROUP) * parts(a.shape[0], a.shape[1], F)

        return {"sizes": {**layout["sizes"], "opsdk_parts": _reader(lead, lambda a: parts(a.shape[0], a.shape[1], F))},
                "outputs": {**layout["outputs"],
                            "opsdk_part": _reader(lead, lambda a: (parts(a.shape[0], a.shape[1], F) * F * a.shape[1],)),
                            "opsdk_count": _reader(lead, lambda a: (-(-a.shape[1] // GROUP),))},
                "zeroed": ("opsdk_count",), "scratch": {"opsdk_part": "float64", "opsdk_count": "uint32"},
                "threads": _reader(lead, lambda a: count(a) * BLOCK)}

    def c_code(self):
        """The written C source (after c_bodies)."""
        return c_code(self.stages)

    def cuda_code(self):
        """The written CUDA source (after c_bodies)."""
        return cuda_code(self.short_name, self.stages)

    # -- python kernels -----------------------------------------------------------------------

    def _python_arrays(self, names, arrays):
        """The arrays as the maths see them: per-row ones as [rows, 1], float16 computed in float32."""
        out = []
        for name, a in zip(names, arrays):
            if a.dtype.kind == "f" and a.dtype.itemsize < 4:
                a = a.astype("float32")
            out.append(a.reshape(-1, 1) if self.kind[name] == "row" else a)
        return out

    @staticmethod
    def _shaped(xp, value, kind, lead, dtype):
        """A result of the maths as a contiguous array of ``kind``'s shape for ``lead`` [rows, K]."""
        rows, K = lead.shape
        value = xp.asarray(value, dtype=dtype)
        if kind == "row":
            value = value.reshape(rows) if value.size == rows else xp.broadcast_to(value, (rows, 1))[:, 0]
        target = {"row": (rows,), "element": lead.shape, "feature": (K,)}[kind]
        if value.shape != target:  # a broadcast view (read-only): copied below
            value = xp.broadcast_to(value, target)
        return xp.ascontiguousarray(value) if getattr(value.flags, "writeable", True) else value.copy()

    def _on_rows(self, names, arrays, kinds, fn, **attrs):
        """``fn`` (a python kernel over [rows, K]) on arrays of [outer, K, inner] (``axis``): each row
        along the middle axis made a row (a moved view, copied by the reshape), the results moved back."""
        lead = next(a for n, a in zip(names, arrays) if self.kind[n] == "element" and n not in self.integers)
        if lead.ndim != 3:
            return fn(*arrays, **attrs)
        xp = RowMaths(lead).xp
        outer, K, inner = lead.shape
        flat = [xp.moveaxis(a, 1, -1).reshape(-1, K) if self.kind[n] == "element" else
                a.reshape(-1) if self.kind[n] == "row" else a for n, a in zip(names, arrays)]
        results = as_tuple(fn(*flat, **attrs))
        back = [xp.ascontiguousarray(xp.moveaxis(r.reshape(outer, inner, K), -1, 1)) if k == "element" else
                r.reshape(outer, inner) for r, k in zip(results, kinds)]
        return one_or_tuple(back)

    def _forward_python(self, /, *arrays, **attrs):
        kinds = [self.kind[y] for y in self.outputs] + ["row"] * len(self.saved)
        return self._on_rows(self.inputs, arrays, kinds, self._forward_rows, **attrs)

    def _backward_python(self, /, *arrays, **attrs):
        kinds = [self.kind[x] for x in self.floats]
        return self._on_rows(self.reads, arrays, kinds, self._backward_rows, **attrs)

    def _forward_rows(self, /, *arrays, **attrs):
        lead = arrays[self.inputs.index(self._lead)]
        given = self._python_arrays(self.inputs, arrays)
        results = as_tuple(self.forward_fn(RowMaths(lead), *given, **attrs))
        xp = RowMaths(lead).xp
        n = len(self.outputs)
        out = [self._shaped(xp, a, self.kind[y], lead, lead.dtype) for a, y in zip(results, self.outputs)]
        # saved values keep the precision computed in (float32 for float16): backward reads them
        out += [self._shaped(xp, a, "row", lead, given[self.inputs.index(self._lead)].dtype) for a in results[n:]]
        out = [o.copy() if any(o is a for a in arrays) else o for o in out]
        return one_or_tuple(out)

    def _backward_rows(self, /, *arrays, **attrs):
        lead = next(a for r, a in zip(self.reads, arrays) if self.kind[r] == "element" and r not in self.integers)
        grads = as_tuple(self.backward_fn(RowMaths(lead), *self._python_arrays(self.reads, arrays), **attrs))
        xp = RowMaths(lead).xp
        out = [self._shaped(xp, g, self.kind[x], lead, lead.dtype) for g, x in zip(grads, self.floats)]
        return one_or_tuple(out)

    @property
    def _lead(self):
        return next(x for x in self.inputs if self.kind[x] == "element" and x not in self.integers)

    # -- the Function's forward and backward --------------------------------------------------

    def forward(self, ctx, /, *inputs, **attrs):
        """The forward of the op's Function: checks, the rows view, the forward kernel.

        Returns:
            The output Tensor (a tuple for several outputs): per-element ones of the ``[..., K]``
            inputs' shape, per-row ones of that shape without its last axis.
        """
        arrays = self._arrays(inputs)
        attrs = self._attrs(attrs)
        shape = arrays[self._lead].shape
        K = shape[-1]
        rows = math.prod(shape[:-1])
        flat = [self._flat(x, a, rows, K) for x, a in arrays.items()]
        results = as_tuple(run_native(self.forward_kernel, flat, attrs))
        outs = [tensor_of(a.reshape(shape if self.kind[y] == "element" else shape[:-1]))
                for y, a in zip(self.outputs, results)]
        ctx.rows_saved = dict(zip(self.saved, results[len(self.outputs):]))
        ctx.rows_attrs, ctx.rows_shape = attrs, shape
        self._keep(ctx, inputs, outs)
        return one_or_tuple(outs)

    def _flat(self, name, array, rows, K):
        """An array as the kernels take it: [rows, K] per element, [rows] per row, [K] per feature."""
        return {"element": lambda: array.reshape(rows, K), "row": lambda: array.reshape(rows),
                "feature": lambda: array}[self.kind[name]]()

    def backward(self, ctx, *douts):
        """The backward of the op's Function: ``d<input>`` for every input, None for an integer one
        (the backward kernel, or ``forward`` differentiated on Tensors when the gradient must itself
        be differentiable)."""
        inputs, read_outputs = self._kept(ctx)
        if is_grad_enabled():
            return self._backward_tensors(inputs, douts, ctx.rows_attrs)
        shape = ctx.rows_shape
        rows, K = math.prod(shape[:-1]), shape[-1]
        lead = array_of(inputs[self.inputs.index(self._lead)])
        xp = RowMaths(lead).xp
        named = {**dict(zip(self.inputs, map(array_of, inputs))), **read_outputs, **ctx.rows_saved}
        for y, d in zip(self.outputs, douts):
            want = shape if self.kind[y] == "element" else shape[:-1]
            named[f"d{y}"] = xp.zeros(want, lead.dtype) if d is None else \
                xp.broadcast_to(array_of(d).astype(lead.dtype, copy=False), want)
        flat = [self._flat(r, named[r], rows, K) for r in self.reads]
        grads = iter(as_tuple(run_native(self.backward_kernel, flat,
                                         {a: ctx.rows_attrs[a] for a in self.backward_attrs})))
        out = []
        for x in self.inputs:
            if x in self.integers:
                out.append(None)
                continue
            g = next(grads)
            out.append(tensor_of(g.reshape({"element": shape, "row": shape[:-1]}.get(self.kind[x], g.shape))))
        return one_or_tuple(out)

    def _backward_tensors(self, inputs, douts, attrs):
        """The gradients as opsdk ops (recorded, so differentiable again): forward on Tensors, differentiated."""
        wanted = [i for i, (x, t) in enumerate(zip(self.inputs, inputs))
                  if x not in self.integers and not t.stop_gradient]
        found = self._differentiated(self._forward_tensors(inputs, attrs), douts, [inputs[i] for i in wanted])
        grads = [None] * len(inputs)
        for i, g in zip(wanted, found):
            grads[i] = g if g is not None else inputs[i] * 0.0
        return one_or_tuple(grads)

    def _arrays(self, inputs):
        """The inputs' arrays by name, checked: Tensors, floating point (integer ones int64), one
        dtype, ``[..., K]``, ``[K]`` per feature and ``[...]`` per row."""
        arrays = dict(zip(self.inputs, tensor_arrays(self.name, self.inputs, inputs)))
        for name, array in arrays.items():
            if name in self.integers:
                if array.dtype.kind not in "iu":
                    raise DTypeError(f"{self.name}: argument '{name}' must be an integer tensor; expected: "
                                     f"int64 or int32; got: {array.dtype}")
                arrays[name] = array.astype("int64", copy=False)
            elif array.dtype.kind != "f":
                raise DTypeError(f"{self.name}: argument '{name}' must be a float tensor; expected: "
                                 f"float16, float32 or float64; got: {array.dtype}")
        lead = arrays[self._lead]
        if lead.ndim < 1:
            raise ShapeError(f"{self.name}: argument '{self._lead}' must have a last axis to reduce; "
                             f"expected: shape [..., K]; got: shape {list(lead.shape)}")
        what = {"feature": ("one value per feature", list(lead.shape[-1:])),
                "row": (f"one value per row of '{self._lead}'", list(lead.shape[:-1])),
                "element": (f"the shape of '{self._lead}'", list(lead.shape))}
        for name, array in arrays.items():
            says, want = what[self.kind[name]]
            if name not in self.integers and array.dtype != lead.dtype:
                raise DTypeError(f"{self.name}: argument '{name}' must have the dtype of '{self._lead}'; "
                                 f"expected: {lead.dtype}; got: {array.dtype}")
            if list(array.shape) != want:
                raise ShapeError(f"{self.name}: argument '{name}' must have {says}; expected: shape {want}; "
                                 f"got: shape {list(array.shape)}")
        return arrays

    def _attrs(self, attrs):
        """The attributes as Python floats (integer ones as ints)."""
        unknown = sorted(set(attrs) - set(self.attrs))
        if unknown:
            raise OpArgumentError(f"{self.name}: unknown attribute(s); expected: {', '.join(self.attrs) or 'none'}; "
                                  f"got: {', '.join(unknown)}")
        out = float_attrs(self.name, {k: v for k, v in attrs.items() if k not in self.integers})
        for key in [k for k in attrs if k in self.integers]:
            value = attrs[key]
            if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)):
                raise OpArgumentError(f"{self.name}: attribute '{key}' must be an integer; expected: an int; "
                                      f"got: {type(value).__name__}")
            out[key] = int(value)
        return {k: out[k] for k in attrs}
