"""opsdk ops as PaddlePaddle ops: ``opsdk.interop.paddle.op(name)``.

Each call is a ``paddle.autograd.PyLayer`` on real ``paddle.Tensor``s. Its backward runs the
op's own backward on the context its forward left (kernels only); with
``paddle.grad(..., create_graph=True)`` it calls the op's gradient level 1 instead, itself a
PyLayer whose backward is level 2, and so on (``opsdk.interop.levels``), so higher orders work
where the op's backward is differentiable (``double_backward=True``). Data crosses by DLPack
without copies (NumPy on the CPU, CuPy on a GPU).

Every PyLayer here takes its tensors as one list, which Paddle keeps as a single input slot.
``paddle.grad(outputs, inputs)`` prunes the backward graph: a node with several input slots
loses the ones whose gradient cannot reach ``inputs`` (a weight when only ``x`` is asked for,
the implicit all-ones seed of ``y.sum()`` in a second ``paddle.grad``), and a PyLayer must then
return None there, which it has no way to know. A single slot is never pruned. Paddle checks
that slot's first tensor only (None is required when it does not need a gradient), so the list
starts with one that does (``_lead``).
"""
from ._require import require

paddle = require("paddle")

import numpy as np  # noqa: E402

from ..errors import InteropError  # noqa: E402
from . import direct  # noqa: E402
from .arrays import fresh  # noqa: E402
from .exported import Exported  # noqa: E402
from .levels import is_float  # noqa: E402

_OPS = {}


def _is_tensor(value):
    return isinstance(value, paddle.Tensor)


def _is_float_tensor(t):
    return t is not None and t.is_floating_point()


def _to_array(t, op):
    if not t.is_contiguous():
        t = t.contiguous()
    t = t.detach()
    if t.place.is_gpu_place():
        import cupy  # only reached for GPU tensors

        return cupy.from_dlpack(t)
    try:
        return np.from_dlpack(t)
    except (TypeError, BufferError, RuntimeError) as error:
        raise InteropError(f"{op}: a tensor of dtype {t.dtype} cannot cross to NumPy by DLPack "
                           f"({error}); expected: float16/32/64, int or bool") from None


def _to_paddle(arrays, inputs):
    return [paddle.utils.dlpack.from_dlpack(a) for a in fresh(arrays, inputs)]


class _Plan:
    """One call's op, layout (which tensor parameters are present) and attributes."""

    def __init__(self, exported, layout, attrs):
        self.exported = exported
        self.layout = layout
        self.attrs = attrs

    def tensors(self, present):
        """The op's tensors with None where absent."""
        it = iter(present)
        return [next(it) if here else None for here in self.layout]


def _lead(tensors):
    """(the tensors with the first that needs a gradient moved to the front, its index)."""
    lead = next((i for i, t in enumerate(tensors) if not t.stop_gradient), 0)
    if lead == 0:
        return list(tensors), 0
    return [tensors[lead], *tensors[:lead], *tensors[lead + 1:]], lead


def _unlead(values, lead):
    """``values`` (in ``_lead``'s order) back in the original order."""
    if lead == 0:
        return list(values)
    return [*values[1:lead + 1], values[0], *values[lead + 1:]]


def _apply(layer, plan, *head, tensors):
    """``layer.apply`` with the tensors as one list, led by one that needs a gradient."""
    ordered, lead = _lead(tensors)
    return layer.apply(plan, *head, lead, ordered)


def _grads_for(tensors, grads):
    """One paddle gradient (or None) per tensor, from opsdk gradients of the float ones."""
    return [None if g is None or not _is_float_tensor(t) else _to_paddle([g.array], [])[0]
            for t, g in zip(tensors, grads)]


class _Op(paddle.autograd.PyLayer):
    """Level 0: the op itself."""

    @staticmethod
    def forward(ctx, plan, lead, ordered):
        present = _unlead(ordered, lead)
        exported = plan.exported
        arrays = [_to_array(t, exported.qualname) for t in present]
        inputs = direct.wrap_inputs(arrays, [not t.stop_gradient for t in present])
        args, kwargs = exported.signature.call(plan.tensors(inputs), plan.attrs)
        state = direct.forward(exported.info.function, exported.qualname, args, kwargs)
        exported.check_outputs(len(state.outputs))
        outs = _to_paddle([o.array for o in state.outputs], arrays)
        ctx.save_for_backward(*present)
        ctx.stops = [t.stop_gradient for t in present]
        ctx.plan, ctx.state, ctx.lead = plan, state, lead
        ctx.float_outputs = [i for i, o in enumerate(state.outputs) if is_float(o.array)]
        non_float = [p for p, o in zip(outs, state.outputs) if not is_float(o.array)]
        if non_float:
            ctx.mark_non_differentiable(*non_float)
        return outs[0] if exported.single else tuple(outs)

    @staticmethod
    def backward(ctx, *grads):
        present = ctx.saved_tensor()
        if not paddle.is_grad_enabled():
            seeds = [None] * len(ctx.state.outputs)
            for i in ctx.float_outputs:
                if grads[i] is not None:
                    seeds[i] = direct.wrap_inputs([_to_array(grads[i], ctx.plan.exported.qualname)],
                                                  [False])[0]
            result = _grads_for(present, direct.backward(ctx.state, seeds))
        else:
            cotangents = [grads[i] for i in ctx.float_outputs]
            result = _level_grads(ctx.plan, 1, cotangents, present)[1]
        return _returned(result, ctx.stops, ctx.lead)


def _returned(grads, stops, lead):
    """What a PyLayer backward returns for its one list of tensors: a gradient per tensor, in
    the list's order, None wherever the tensor had stop_gradient=True at the forward."""
    return _lead_order([None if stop else g for g, stop in zip(grads, stops)], lead)


def _lead_order(values, lead):
    """``values`` (in the original order) in ``_lead``'s order."""
    if lead == 0:
        return list(values)
    return [values[lead], *values[:lead], *values[lead + 1:]]


def _level_grads(plan, k, cotangents, present):
    """Call level k: (grads of the cotangents of levels < k, grads of the op's tensors)."""
    out = _apply(_Level, plan, k, len(cotangents), tensors=[*cotangents, *present])
    out = [out] if isinstance(out, paddle.Tensor) else list(out)
    n_floats = sum(1 for t in present if _is_float_tensor(t))
    floats = iter(out[:n_floats])
    return out[n_floats:], [next(floats) if _is_float_tensor(t) else None for t in present]


class _Level(paddle.autograd.PyLayer):
    """Gradient level k >= 1 of the op, recomputed from its inputs."""

    @staticmethod
    def forward(ctx, plan, k, n_cotangents, lead, ordered):
        args = _unlead(ordered, lead)
        exported = plan.exported
        arrays = [_to_array(a, exported.qualname) for a in args]
        cotangents = direct.wrap_inputs(arrays[:n_cotangents], [False] * n_cotangents)
        present = direct.wrap_inputs(arrays[n_cotangents:], [False] * (len(args) - n_cotangents))
        outs = exported.levels(plan.attrs).level(k, plan.tensors(present), cotangents)
        ctx.save_for_backward(*args)
        ctx.stops = [a.stop_gradient for a in args]
        ctx.plan, ctx.k, ctx.n_cotangents, ctx.lead = plan, k, n_cotangents, lead
        result = _to_paddle([o.array for o in outs], arrays)
        return tuple(result) if len(result) != 1 else result[0]

    @staticmethod
    def backward(ctx, *grads):
        args = ctx.saved_tensor()
        n = ctx.n_cotangents
        cotangents, present = list(args[:n]), list(args[n:])
        old, by_tensor = _level_grads(ctx.plan, ctx.k + 1, cotangents + list(grads), present)
        return _returned([*old, *by_tensor], ctx.stops, ctx.lead)


class PaddleOp:
    """One opsdk op as a Paddle function: ``f(*tensors, **attrs)`` on ``paddle.Tensor``s."""

    def __init__(self, exported):
        self.exported = exported
        self.opsdk_op = exported.info
        self.__name__ = exported.info.name
        self.__doc__ = exported.info.doc

    def __call__(self, *args, **kwargs):
        tensors, attrs = self.exported.signature.bind(args, kwargs, _is_tensor)
        plan = _Plan(self.exported, tuple(t is not None for t in tensors), attrs)
        return _apply(_Op, plan, tensors=[t for t in tensors if t is not None])

    def __repr__(self):
        return f"<opsdk.interop.paddle op {self.exported.qualname}>"


def op(name):
    """The registered opsdk op ``name`` as a Paddle function (a ``paddle.autograd.PyLayer``).

    Args:
        name: ``'pack.op'`` (or a short name one pack registers), e.g. ``'example.swish'``.

    Returns:
        A callable on ``paddle.Tensor``s (tensors positional, attributes as keywords; several
        outputs as a tuple); ``paddle.grad(..., create_graph=True)`` works where the op's
        backward is differentiable.

    Raises:
        FrameworkNotInstalledError: Paddle is not installed (``pip install opsdk[paddle]``).
        OpNotFoundError: no such op.

    Example::

        swish = opsdk.interop.paddle.op("example.swish")
        x = paddle.randn([8], dtype="float64")
        x.stop_gradient = False
        swish(x, beta=1.5).sum().backward()
    """
    from ..packs.lookup import get

    info = get(name)
    if info.qualname not in _OPS:
        _OPS[info.qualname] = PaddleOp(Exported(info))
    return _OPS[info.qualname]


__all__ = ["op", "PaddleOp"]
