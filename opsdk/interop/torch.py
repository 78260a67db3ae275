"""opsdk ops as native PyTorch ops: ``opsdk.interop.torch.op(name)``.

The result is a real ``torch.library.custom_op`` (``torch.ops.<pack>.<op>``) with fake,
autograd and vmap registrations, so it works in eager mode, under ``torch.compile`` and
``torch.export``, with DistributedDataParallel, with ``torch.library.opcheck``, and with
``torch.autograd.gradcheck``/``gradgradcheck`` (second order where the op's backward is
differentiable, ``double_backward=True``). Tensor arguments are positional, attributes are
keywords, several outputs come back as a tuple.

A plain eager call (no compile, fake tensors, functorch transform or dispatch mode) runs the
same kernels through a lean ``torch.autograd.Function`` instead of torch's dispatcher, which
costs several microseconds less per call; everything else goes through the custom op.
"""
from ._require import require

torch = require("torch")

from torch._functorch import pyfunctorch as _pyfunctorch  # noqa: E402
from torch._library.custom_ops import CustomOpDef  # noqa: E402 (after the clear import error)

from .exported import Exported  # noqa: E402
from .torch_forward import apply_here, route_transforms  # noqa: E402
from .torch_ops import TorchExport, is_float_tensor  # noqa: E402

_EXPORTS = {}
_PLAIN = (torch.Tensor, torch.nn.Parameter)
_C = torch._C
_VMAP = _C._functorch.TransformType.Vmap  # vmap alone runs the op's own vmap rule


class TorchOp(CustomOpDef):
    """``torch.ops.<pack>.<op>`` as returned by ``op(name)``: a CustomOpDef whose call binds
    the op's signature (tensors positional, attributes keywords)."""

    def __call__(self, *args, **kwargs):
        export = self._opsdk_export
        attrs = export.plain_attrs(args, kwargs)
        if attrs is not None and not (torch.compiler.is_compiling()
                                      or _C._are_functorch_transforms_active()
                                      or _C._len_torch_dispatch_stack()
                                      or _C._is_torch_function_mode_enabled()):
            # plain eager: no compile, functorch transform or dispatch mode to route through
            return _eager_apply(export, attrs, *map(_unwrap_if_dead, args))
        tensors, attrs = export.signature.bind(args, kwargs, _is_tensor)
        attrs = export.signature.declared(attrs)
        if torch.compiler.is_compiling():
            if _C._are_functorch_transforms_active() and _transform_key() != _VMAP:
                # inside torch.func's grad, jvp, jacfwd, hessian torch traces the custom op with
                # no forward-mode rule (it has no way to register one: zero tangents) and with an
                # autograd it refuses under transforms: run this call eagerly, where the op's
                # jvp and vjp apply (a graph break; fullgraph=True refuses it, saying so)
                torch._dynamo.graph_break(
                    f"opsdk op {export.qualname}: inside torch.func's grad, jvp, jacfwd or hessian "
                    "it runs eagerly under torch.compile (torch cannot trace its forward-mode "
                    "and transform rules); with fullgraph=True, apply the transform outside the "
                    "compiled function")
            return self._opoverload(*tensors, **attrs)
        transform = _C._functorch.peek_interpreter_stack()
        if transform is not None:
            if transform.key() == _VMAP:
                return self._opoverload(*tensors, **attrs)
            return _Transformable.apply(export, 0, _Attrs(attrs), 0, *tensors)
        if _plain_eager(tensors):
            return _Eager.apply(export, attrs, *tensors)
        return self._opoverload(*tensors, **attrs)

    @property
    def opsdk_op(self):
        """The registered opsdk op (OpInfo) this torch op runs."""
        return self._opsdk_export.exported.info


def _transform_key():
    """The innermost functorch transform (a TransformType); torch.compile traces this query."""
    return _pyfunctorch.retrieve_current_functorch_interpreter().key()


def _is_tensor(value):
    return isinstance(value, torch.Tensor)


def _plain_eager(tensors):
    if _C._len_torch_dispatch_stack() or _C._is_torch_function_mode_enabled():
        return False
    return all(t is None or type(t) in _PLAIN for t in tensors)


class _Eager(torch.autograd.Function):
    """The op's forward and backward for plain eager calls (see the module docstring)."""

    @staticmethod
    def forward(ctx, export, attrs, *tensors):
        outs, state = export.forward(tensors, attrs)
        ctx.save_for_backward(*tensors)  # what export.save does, inlined: this is the hot path
        ctx.opsdk_attrs = attrs
        ctx.opsdk_forward = state
        ctx.opsdk_export = export
        return outs[0] if export.exported.single else outs

    @staticmethod
    def backward(ctx, *grads):
        return (None, None, *ctx.opsdk_export.backward(ctx, grads, ctx.needs_input_grad[2:]))


# torch's own apply, under Function.apply's Python wrapper, which adds (for a Function without
# setup_context) only the routing of functorch transforms and the unwrapping of dead functorch
# wrappers: a plain eager call has no transform (checked first) and unwraps its tensors itself.
# About 2.5 us a call, a tenth of what the whole 16-element forward and backward cost.
_eager_apply = super(torch.autograd.Function, _Eager).apply
_unwrap_if_dead = _C._functorch.unwrap_if_dead


class _Attrs(dict):
    """The attributes, one leaf to functorch's pytrees (a dict would be a node, whose structure
    the vmap of a jvp rule cannot match to its None tangent)."""


class _Transformable(torch.autograd.Function):
    """Level k of the op under torch.func transforms (grad, vjp, jacrev, vmap): the same custom
    ops, in an autograd.Function with a separate setup_context, which functorch requires
    (torch's custom_op autograd has none)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(export, k, attrs, n_cotangents, *args):
        cotangents, tensors = list(args[:n_cotangents]), args[n_cotangents:]
        if k == 0:
            return export.op._opoverload(*tensors, **attrs)
        return tuple(export.level(k)._opoverload(cotangents, *tensors, **attrs))

    @staticmethod
    def setup_context(ctx, inputs, output):
        export, k, attrs, n_cotangents, *args = inputs
        ctx.save_for_backward(*args)
        ctx.opsdk = (export, k, attrs, n_cotangents)
        outs = output if isinstance(output, tuple) else (output,)
        ctx.opsdk_float_outputs = [i for i, o in enumerate(outs) if o.is_floating_point()]
        ctx.save_for_forward(*args)  # jvp reads them as saved_tensors (batched under vmap)
        ctx.opsdk_output = output

    @staticmethod
    def jvp(ctx, export_t, k_t, attrs_t, n_t, *tangents):
        # forward mode (torch.func.jvp, jacfwd, hessian): level k's tangents (torch_forward)
        from .torch_forward import tangents_of
        export, k, attrs, n_cotangents = ctx.opsdk
        return tangents_of(export, k, attrs, n_cotangents, ctx.saved_tensors, tangents,
                           ctx.opsdk_output)

    @staticmethod
    def backward(ctx, *grads):
        export, k, attrs, n_cotangents = ctx.opsdk
        saved = ctx.saved_tensors
        cotangents, tensors = list(saved[:n_cotangents]), saved[n_cotangents:]
        if k == 0:
            grads = [grads[i] for i in ctx.opsdk_float_outputs]
        new = cotangents + list(grads)
        result = _Transformable.apply(export, k + 1, attrs, len(new), *new, *tensors)
        result = result if isinstance(result, tuple) else (result,)
        n_floats = sum(1 for t in tensors if is_float_tensor(t))
        floats = iter(result[:n_floats])
        by_tensor = [next(floats) if is_float_tensor(t) else None for t in tensors]
        return (None, None, None, None, *result[n_floats:], *by_tensor)


def _route_forward_mode(export):
    """``torch.ops.<pack>.<op>`` itself gets forward mode: under a functorch transform or a
    forward-AD dual level its Autograd kernel applies ``_Transformable`` (see route_transforms)."""
    signature = export.signature

    def transformable(*args, **kwargs):
        tensors, attrs = signature.complete(args, kwargs)
        return apply_here(_Transformable, export, 0, _Attrs(attrs), 0, *tensors)

    route_transforms(export, export.op, transformable)


def op(name):
    """The registered opsdk op ``name`` as a native torch op.

    Args:
        name: ``'pack.op'`` (or a short name one pack registers), e.g. ``'example.swish'``.

    Returns:
        A ``torch.library.custom_op`` (CustomOpDef), also reachable as
        ``torch.ops.<pack>.<op>``; call it with tensors positional and attributes as keywords.

    Raises:
        FrameworkNotInstalledError: torch is not installed (``pip install opsdk[torch]``).
        OpNotFoundError: no such op.
        InteropError: the op's signature has something torch cannot declare.

    Example::

        swish = opsdk.interop.torch.op("example.swish")
        x = torch.randn(8, dtype=torch.float64, requires_grad=True)
        swish(x, beta=1.5).sum().backward()
        torch.library.opcheck(swish, (x,), {"beta": 1.5})
    """
    from ..packs.lookup import get

    info = get(name)
    export = _EXPORTS.get(info.qualname)
    if export is None:
        export = _EXPORTS[info.qualname] = TorchExport(Exported(info))
        export.op.__class__ = TorchOp
        export.op._opsdk_export = export
        _route_forward_mode(export)
    return export.op


__all__ = ["op", "TorchOp", "is_float_tensor"]
