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

from . import direct
from .levels import Levels, is_float
from .torch_arrays import fresh, to_array, to_torch
from .torch_fake import fake_outputs
from .torch_schema import level_schema, op_schema

_pending = threading.local()  # the Forward of the last eager kernel call, for setup_context


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
        self.op = self._define_op()

    # -- the op --------------------------------------------------------------------------------
    def forward(self, tensors, attrs):
        """Run the op on torch tensors: (outputs as torch tensors, the Forward)."""
        names = self.signature.tensor_names
        arrays = _arrays(tensors, self.qualname, names)
        needs = [t is not None and t.requires_grad for t in tensors]
        inputs = direct.wrap_inputs(arrays, needs)
        args, kwargs = self.signature.call(inputs, attrs)
        state = direct.forward(self.exported.info.function, self.qualname, args, kwargs)
        self.exported.check_outputs(len(state.outputs))
        outs = fresh([o._data for o in state.outputs], arrays)
        return tuple(to_torch(a) for a in outs), state

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
            self.save(ctx, inputs, keyword_only_inputs or {}, outs, pending[1] if same else None)

        op.register_autograd(lambda ctx, *grads: self.backward(ctx, grads, ctx.needs_input_grad),
                            setup_context=setup_context)
        op.register_vmap(_loop_vmap(op))
        return op

    def save(self, ctx, tensors, attrs, outputs, state):
        """What backward needs: the inputs, attributes, float outputs and (eager) the Forward."""
        ctx.save_for_backward(*tensors)
        ctx.opsdk_attrs = dict(attrs)
        ctx.opsdk_forward = state
        ctx.opsdk_float_outputs = [i for i, o in enumerate(outputs) if o.is_floating_point()]

    def backward(self, ctx, grads, needs):
        """One gradient per tensor argument (None for integer, absent or unneeded ones)."""
        tensors = ctx.saved_tensors
        state = ctx.opsdk_forward
        if state is not None and not torch.is_grad_enabled():
            result = self._direct_backward(state, grads, tensors)
        else:
            cotangents = [grads[i] for i in ctx.opsdk_float_outputs]
            result = iter(self.level(1)(cotangents, *tensors, **ctx.opsdk_attrs))
            result = [next(result) if is_float_tensor(t) else None for t in tensors]
        return tuple(g if need else None for g, need in zip(result, needs))

    def _direct_backward(self, state, grads, tensors):
        seeds = []
        for g, o in zip(grads, state.outputs):
            seeds.append(None if g is None or not is_float(o._data)
                         else direct.wrap_inputs([to_array(g, self.qualname, "grad")], [False])[0])
        got = iter(direct.backward(state, seeds))
        out = []
        for t in tensors:
            g = next(got) if t is not None else None
            out.append(None if g is None or not is_float_tensor(t) else to_torch(g._data))
        return out

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
            return [to_torch(a) for a in fresh([o._data for o in outs], [*arrays, *cots])]

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
