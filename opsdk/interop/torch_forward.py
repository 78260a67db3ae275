"""Forward mode of an exported torch op: ``torch.ops.<pack>.<op>_jvp<k>``, the tangents of
gradient level k (level 0: the op) as a custom op with fake and vmap registrations, which
``_Transformable.jvp`` calls, so ``torch.func.jvp``, ``jacfwd`` and ``hessian`` (jacfwd over
jacrev) work, also under ``vmap``. The tangents come from opsdk's forward mode
(interop.forward_levels): the op's own jvp, or its double backward.
"""
import warnings

import torch
from torch._functorch.pyfunctorch import TransformType
from torch._functorch.utils import enable_single_level_autograd_function
from torch._library.autograd import make_autograd_impl
from torch.autograd import forward_ad

from . import direct
from .forward_levels import level_jvp
from .torch_arrays import fresh, to_array, to_torch
from .torch_ops import _level_inputs, _loop_vmap, is_float_tensor
from .torch_schema import _attrs, _join, _tensors


def jvp_op(export, k):
    """The custom op of level k's forward mode for ``export`` (a TorchExport), made once."""
    ops = export.__dict__.setdefault("_jvp_ops", {})
    if k not in ops:
        ops[k] = _define(export, k)
    return ops[k]


def _define(export, k):
    sig, exported = export.signature, export.exported
    names = sig.tensor_names
    schema = _join(["Tensor[] cotangents", "Tensor[] tangents"] + _tensors(sig, defaults=False),
                   _attrs(sig)) + " -> Tensor[]"

    def kernel(cotangents, tangents, *tensors, **attrs):
        tensors, attrs = sig.complete(tensors, attrs)
        arrays = [None if t is None else to_array(t, export.qualname, n)
                  for t, n in zip(tensors, names)]
        cots = [to_array(c, export.qualname, "cotangent") for c in cotangents]
        tans = [to_array(t, export.qualname, "tangent") for t in tangents]
        ins = direct.wrap_inputs(arrays, [False] * len(arrays))
        out = level_jvp(exported.levels(attrs), k, ins, direct.wrap_inputs(cots, [False] * len(cots)),
                        direct.wrap_inputs(tans, [False] * len(tans)))
        return [to_torch(a) for a in fresh([o._data for o in out], [*arrays, *cots, *tans])]

    op = torch.library.custom_op(f"{export.namespace}::{export.name}_jvp{k}", kernel,
                                 mutates_args=(), schema=schema)

    @op.register_fake
    def _(cotangents, tangents, *tensors, **attrs):
        if k == 0:
            from .torch_fake import fake_outputs
            outs = fake_outputs(exported, *sig.complete(tensors, attrs))
            return [o for o in outs if o.is_floating_point()]
        return [torch.empty_like(t) for t in _level_inputs(k, tensors, cotangents)]

    op.register_vmap(_loop_vmap(op))

    def refusing(cotangents, tangents, *tensors, **attrs):
        # the tangent op called from a dispatcher kernel: a transform above it refuses too
        return apply_here(_Tangent, export, k, attrs, len(cotangents), len(tangents),
                          *cotangents, *tangents, *tensors)

    route_transforms(export, op, refusing)
    return op


def tangents_of(export, k, attrs, n_cotangents, args, arg_tangents, outputs):
    """``_Transformable.jvp``'s answer: the tangents of level k's outputs (``outputs``, as
    forward returned them) for the tangents of its arguments (None where an argument has none)."""
    cotangents, tensors = list(args[:n_cotangents]), args[n_cotangents:]
    t_cots, t_tensors = arg_tangents[:n_cotangents], arg_tangents[n_cotangents:]
    floats = [(t, d) for t, d in zip(tensors, t_tensors) if is_float_tensor(t)]
    tangents = [torch.zeros_like(t) if d is None else d for t, d in floats]
    tangents += [torch.zeros_like(c) if d is None else d for c, d in zip(cotangents, t_cots)]
    got = iter(apply_here(_Tangent, export, k, attrs, len(cotangents), len(tangents), *cotangents,
                              *tangents, *tensors))
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    result = tuple(next(got) if o.is_floating_point() else None for o in outs)
    return result if isinstance(outputs, tuple) else result[0]


_BELOW_TRANSFORMS = torch._C.DispatchKey.FuncTorchDynamicLayerFrontMode


def apply_here(function, *args):
    """``function.apply(*args)``, also from inside a dispatcher kernel that a functorch transform
    has already unwrapped for (the dispatcher op's Autograd kernel): there the transform's own
    routing of autograd.Function has no kernel, and the Function applies at the current level,
    as functorch's own single-level Functions do."""
    if not torch._C._dispatch_tls_local_exclude_set().has(_BELOW_TRANSFORMS):
        return function.apply(*args)
    with enable_single_level_autograd_function():
        return super(torch.autograd.Function, function).apply(*args)


def route_transforms(export, custom_op, function_call):
    """Replace ``custom_op``'s Autograd kernel: under a functorch transform or a forward-AD dual
    level it runs ``function_call(*args, **kwargs)`` (an autograd.Function with a jvp, through
    apply_here); otherwise torch's own kernel for custom ops, which has no forward-mode rule
    (it would give zero tangents, silently) but keeps an eager backward's context."""
    torch_kernel = make_autograd_impl(custom_op._opoverload, custom_op)
    C = torch._C

    def autograd_kernel(keyset, *args, **kwargs):
        if (C._are_functorch_transforms_active() or forward_ad._current_level >= 0) and (
                C.is_grad_enabled() or C._is_fwd_grad_enabled()):
            if C._are_functorch_transforms_active() and _forward_under_a_derivative():
                _refuse(export, "a derivative of forward mode")
            return function_call(*args, **kwargs)
        return torch_kernel(keyset, *args, **kwargs)

    with warnings.catch_warnings():
        # torch says once that a kernel is replaced: this one, on purpose
        warnings.filterwarnings("ignore", "Warning only once for all operators")
        custom_op._lib.impl(custom_op._name, autograd_kernel, "Autograd", with_keyset=True)


def _forward_under_a_derivative():
    """Whether a forward-mode transform sits inside another derivative transform (jvp of jvp,
    jacrev of jacfwd): called from the dispatcher, the op's tangent cannot carry the outer
    derivative, which torch would then take as zero."""
    keys = [interpreter.key() for interpreter in torch._C._functorch.get_interpreter_stack()]
    derivatives = (TransformType.Jvp, TransformType.Grad)
    for i, key in enumerate(keys):  # outermost first
        if key == TransformType.Jvp and any(outer in derivatives for outer in keys[:i]):
            return True
    return False


def _refuse(export, what):
    from ..errors import InteropError
    raise InteropError(
        f"{what} through '{export.qualname}': the op's tangent (torch.ops.{export.namespace}."
        f"{export.name}_jvp<k>) is computed by opsdk on the host and has no derivative of its "
        "own in torch; expected: forward mode over reverse (torch.func.hessian, "
        "jacfwd(jacrev(f))); got: a derivative of a tangent (jacfwd(jacfwd(f)) or jacrev(jacfwd(f)))")


class _Tangent(torch.autograd.Function):
    """The tangent op under torch.func: a transform above it (forward over forward, reverse over
    forward) gets a clear error, never torch's silent zero for a custom op without a formula."""

    generate_vmap_rule = True

    @staticmethod
    def forward(export, k, attrs, n_cotangents, n_tangents, *args):
        # tensors flat (a list would be one non-tensor argument to functorch's pytrees)
        cotangents = list(args[:n_cotangents])
        tangents = list(args[n_cotangents:n_cotangents + n_tangents])
        tensors = args[n_cotangents + n_tangents:]
        return tuple(jvp_op(export, k)(cotangents, tangents, *tensors, **attrs))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.opsdk_export = inputs[0]

    @staticmethod
    def jvp(ctx, *tangents):
        _refuse(ctx.opsdk_export, "forward mode over forward mode")

    @staticmethod
    def backward(ctx, *grads):
        _refuse(ctx.opsdk_export, "reverse mode over forward mode")
