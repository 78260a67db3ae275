"""An opsdk op as torch custom ops: ``torch.ops.<pack>.<op>`` and its gradient levels
``torch.ops.<pack>.<op>_grad<k>``, each a ``torch.library.custom_op`` with fake, autograd and
vmap registrations.

First-order backward of an eager call runs the op's own backward on the context its forward
left (kernels only, nothing recomputed). Where that context cannot exist (compile and export
trace the backward on fake tensors) or the backward itself is differentiated
(``create_graph=True``), backward calls the level-1 op, which recomputes from the inputs; its
own backward calls level 2, and so on (see ``opsdk.interop.levels``).
"""
import threading

import torch

from ..tensor import _wrap
from . import direct
from .levels import Levels, float_outputs
from .torch_arrays import fresh, to_array, to_torch
from .torch_fake import fake_outputs
from .torch_schema import level_schema, op_schema

_pending = threading.local()  # the Forward of the last eager kernel call, for setup_context
_PLAIN = (torch.Tensor, torch.nn.Parameter)


def is_float_tensor(t):
    """Whether a (possibly absent) torch tensor can carry a gradient."""
    return t is not None and t.is_floating_point()


def _arrays(tensors, op, names):
    return [None if t is None else to_array(t, op, n) for t, n in zip(tensors, names)]


class TorchExport:
    """The torch side of one exported op: its custom ops and how they run."""

    def __init__(self, exported):
        self.exported = exported
        self.signature = exported.signature
        self.qualname = exported.qualname
        self.namespace, self.name = exported.info.pack, exported.info.name
        self._levels = {}
        sig = self.signature
        self._n_tensors = len(sig.tensor_names)
        # plain_attrs serves ops whose attributes all have defaults (every call may omit any)
        self._defaults = dict(sig.attr_defaults) if len(sig.attr_defaults) == len(sig.attr_names) \
            else None
        self._lists = any(t.startswith(("int[]", "float[]")) for t in sig.attr_types.values())
        self.op = self._define_op()

    def plain_attrs(self, args, kwargs):
        """The attributes of the most common call, every tensor a plain ``torch.Tensor`` (or
        Parameter) given positionally and attributes as keywords; None for any other call
        (which the full binding then handles, errors included)."""
        if len(args) != self._n_tensors or self._defaults is None:
            return None
        for a in args:
            if type(a) not in _PLAIN:
                return None
        attrs = {**self._defaults, **kwargs}
        if len(attrs) != len(self._defaults):
            return None  # an unknown keyword (or a tensor by name)
        for value in kwargs.values():
            if isinstance(value, torch.Tensor):
                return None
        return self.signature.declared(attrs) if self._lists else attrs

    # -- the op --------------------------------------------------------------------------------
    def forward(self, tensors, attrs):
        """Run the op on torch tensors: (outputs as torch tensors, the Forward)."""
        qualname = self.qualname
        arrays, inputs = [], []
        for t, name in zip(tensors, self.signature.tensor_names):
            a = None if t is None else to_array(t, qualname, name)
            arrays.append(a)
            inputs.append(None if a is None else direct.wrap(a, t.requires_grad))
        args, kwargs = self.signature.call(inputs, attrs)
        state = direct.forward(self.exported.info.function, qualname, args, kwargs)
        outputs = state.outputs
        if len(outputs) != self.exported.n_outputs:
            self.exported.check_outputs(len(outputs))
        return tuple([to_torch(a) for a in fresh([o.array for o in outputs], arrays)]), state

    def _define_op(self):
        sig, exported = self.signature, self.exported
        schema = op_schema(sig, exported.n_outputs)

        def kernel(*tensors, **attrs):
            tensors, attrs = sig.complete(tensors, attrs)
            outs, state = self.forward(tensors, attrs)
            _pending.value = (outs, state) if any(
                t is not None and t.requires_grad for t in tensors) else None
            return outs[0] if exported.single else outs

        op = torch.library.custom_op(f"{self.namespace}::{self.name}", kernel, mutates_args=(),
                                     schema=schema)

        @op.register_fake
        def _(*tensors, **attrs):
            outs = fake_outputs(exported, *sig.complete(tensors, attrs))
            return outs[0] if exported.single else tuple(outs)

        def setup_context(ctx, inputs, output, keyword_only_inputs=None):
            pending, _pending.value = getattr(_pending, "value", None), None
            outs = output if isinstance(output, tuple) else (output,)
            same = pending is not None and all(a is b for a, b in zip(pending[0], outs))
            self.save(ctx, inputs, dict(keyword_only_inputs or {}), outs,
                      pending[1] if same else None)

        op.register_autograd(lambda ctx, *grads: self.backward(ctx, grads, ctx.needs_input_grad),
                            setup_context=setup_context)
        op.register_vmap(_loop_vmap(op))
        return op

    def save(self, ctx, tensors, attrs, outputs, state):
        """What backward needs: the inputs, the attributes (a dict of the ctx's own), which
        outputs are float, and (eager) the Forward."""
        ctx.save_for_backward(*tensors)
        ctx.opsdk_attrs = attrs
        ctx.opsdk_forward = state
        if state is None:  # else backward reads them from the Forward, when it needs them
            ctx.opsdk_float_outputs = [i for i, o in enumerate(outputs) if o.is_floating_point()]

    def backward(self, ctx, grads, needs):
        """One gradient per tensor argument (None for integer, absent or unneeded ones)."""
        tensors = ctx.saved_tensors  # unpacking checks that no input was modified in place
        state = ctx.opsdk_forward
        if state is None or torch.is_grad_enabled():
            return self._level_backward(ctx, state, grads, tensors, needs)
        # first order of an eager call: the op's own backward on the Forward's ctx (kernels only)
        qualname = self.qualname
        seeds = [None if g is None or o.array.dtype.kind != "f" else _wrap(to_array(g, qualname, "grad"))
                 for g, o in zip(grads, state.outputs)]
        got = direct.backward(state, seeds)  # one per present tensor; None where not needed
        if len(got) != len(tensors):
            got = iter(got)
            got = [None if t is None else next(got) for t in tensors]
        return tuple([None if g is None or not need else to_torch(g.array)
                      for g, need in zip(got, needs)])

    def _level_backward(self, ctx, state, grads, tensors, needs):
        """Backward through gradient level 1: differentiable (create_graph) and traceable."""
        floats = ctx.opsdk_float_outputs if state is None else float_outputs(
            [o.array for o in state.outputs])
        result = iter(self.level(1)([grads[i] for i in floats], *tensors, **ctx.opsdk_attrs))
        result = [next(result) if is_float_tensor(t) else None for t in tensors]
        return tuple(g if need else None for g, need in zip(result, needs))

    # -- gradient levels -----------------------------------------------------------------------
    def level(self, k):
        """The custom op of gradient level k (defined on first use)."""
        if k not in self._levels:
            self._levels[k] = self._define_level(k)
        return self._levels[k]

    def _define_level(self, k):
        sig, exported = self.signature, self.exported
        names = sig.tensor_names

        def kernel(cotangents, *tensors, **attrs):
            tensors, attrs = sig.complete(tensors, attrs)
            arrays = _arrays(tensors, self.qualname, names)
            cots = [to_array(c, self.qualname, "cotangent") for c in cotangents]
            ins = direct.wrap_inputs(arrays, [False] * len(arrays))
            outs = exported.levels(attrs).level(k, ins, direct.wrap_inputs(cots, [False] * len(cots)))
            return [to_torch(a) for a in fresh([o.array for o in outs], [*arrays, *cots])]

        op = torch.library.custom_op(f"{self.namespace}::{self.name}_grad{k}", kernel,
                                     mutates_args=(), schema=level_schema(sig))

        @op.register_fake
        def _(cotangents, *tensors, **attrs):
            return [torch.empty_like(t) for t in _level_inputs(k, tensors, cotangents)]

        def setup_context(ctx, inputs, output, keyword_only_inputs=None):
            cotangents, tensors = inputs[0], inputs[1:]
            ctx.save_for_backward(*cotangents, *tensors)
            ctx.opsdk_n_cotangents = len(cotangents)
            ctx.opsdk_attrs = dict(keyword_only_inputs or {})

        def backward(ctx, grads):
            saved = ctx.saved_tensors
            n = ctx.opsdk_n_cotangents
            cotangents, tensors = list(saved[:n]), saved[n:]
            grads = [g if g is not None else torch.zeros_like(t)
                     for g, t in zip(grads, _level_inputs(k, tensors, cotangents))]
            result = self.level(k + 1)(cotangents + grads, *tensors, **ctx.opsdk_attrs)
            n_floats = sum(1 for t in tensors if is_float_tensor(t))
            floats = iter(result[:n_floats])
            by_tensor = [next(floats) if is_float_tensor(t) else None for t in tensors]
            return (list(result[n_floats:]), *by_tensor)

        op.register_autograd(backward, setup_context=setup_context)
        op.register_vmap(_loop_vmap(op))
        return op


def _level_inputs(k, tensors, cotangents):
    """Level k's outputs mirror level k-1's float arguments: the op's float tensors, then the
    cotangents of levels 1..k-1."""
    floats = [t for t in tensors if is_float_tensor(t)]
    for n_outputs in range(len(cotangents) + 1):
        counts = Levels.cotangent_counts(k, len(floats), n_outputs)
        if sum(counts) == len(cotangents):
            return floats + list(cotangents[:sum(counts[:-1])])
    raise ValueError(f"gradient level {k}: {len(cotangents)} cotangents fit no output count")


def _loop_vmap(op):
    """A vmap rule that runs the op once per batch element and stacks the results: right for
    every op, whatever its kernels assume about leading dimensions."""

    def select(value, dim, i):
        if dim is None:
            return value
        if isinstance(value, (list, tuple)):
            return [v if d is None else v.select(d, i) for v, d in zip(value, dim)]
        return value.select(dim, i)

    def rule(info, in_dims, *args, **kwargs):
        results = [op._opoverload(*(select(a, d, i) for a, d in zip(args, in_dims)), **kwargs)
                   for i in range(info.batch_size)]
        first = results[0]
        if isinstance(first, torch.Tensor):
            return torch.stack(results), 0
        stacked = [torch.stack([r[j] for r in results]) for j in range(len(first))]
        dims = [0] * len(stacked)
        return (stacked, dims) if isinstance(first, list) else (tuple(stacked), tuple(dims))

    return rule
