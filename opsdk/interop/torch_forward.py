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
from .forward_levels import derived, derived_likes
from .torch_arrays import fresh, to_array, to_torch
from .torch_ops import _level_inputs, _loop_vmap, is_float_tensor
from .torch_schema import _attrs, _join, _tensors


def jvp_op(export, k):
    """The custom op of level k's forward mode for ``export`` (a TorchExport), made once."""
    return derived_op(export, k, "j")


def derived_op(export, k, path):
    """The custom op of level k's derivative along ``path`` (forward_levels.derived: "j" its
    tangents, "jj" those of the tangents, "jv" their vjp, ...), made once."""
    ops = export.__dict__.setdefault("_derived_ops", {})
    if (k, path) not in ops:
        ops[k, path] = _define(export, k, path)
    return ops[k, path]


def _define(export, k, path):
    sig, exported = export.signature, export.exported
    names = sig.tensor_names
    schema = _join(["Tensor[] cotangents", "Tensor[] rest"] + _tensors(sig, defaults=False),
                   _attrs(sig)) + " -> Tensor[]"

    def kernel(cotangents, rest, *tensors, **attrs):
        tensors, attrs = sig.complete(tensors, attrs)
        arrays = [None if t is None else to_array(t, export.qualname, n)
                  for t, n in zip(tensors, names)]
        cots = [to_array(c, export.qualname, "cotangent") for c in cotangents]
        more = [to_array(t, export.qualname, "tangent") for t in rest]
        ins = direct.wrap_inputs(arrays, [False] * len(arrays))
        out = derived(exported.levels(attrs), k, path, ins,
                      direct.wrap_inputs(cots, [False] * len(cots)),
                      direct.wrap_inputs(more, [False] * len(more)))
        return [to_torch(a) for a in fresh([o._data for o in out], [*arrays, *cots, *more])]

    name = f"{export.name}_jvp{k}" if path == "j" else f"{export.name}_d{k}{path}"
    op = torch.library.custom_op(f"{export.namespace}::{name}", kernel, mutates_args=(),
                                 schema=schema)

    @op.register_fake
    def _(cotangents, rest, *tensors, **attrs):
        if k == 0:
            from .torch_fake import fake_outputs
            outs = fake_outputs(exported, *sig.complete(tensors, attrs))
            outs = [o for o in outs if o.is_floating_point()]
        else:
            outs = _level_inputs(k, tensors, cotangents)
        floats = [t for t in tensors if is_float_tensor(t)] + list(cotangents)
        likes = derived_likes(path, len(floats), floats + list(rest), outs)
        return [torch.empty_like(t) for t in likes]

    op.register_vmap(_loop_vmap(op))

    def transformable(cotangents, rest, *tensors, **attrs):
        # called from a dispatcher kernel under a transform: the Function carries its rules
        return apply_here(_Derived, export, k, attrs, path, len(cotangents), len(rest),
                          *cotangents, *rest, *tensors)

    route_transforms(export, op, transformable)
    return op


def tangents_of(export, k, attrs, n_cotangents, args, arg_tangents, outputs):
    """``_Transformable.jvp``'s answer: the tangents of level k's outputs (``outputs``, as
    forward returned them) for the tangents of its arguments (None where an argument has none)."""
    cotangents, tensors = list(args[:n_cotangents]), args[n_cotangents:]
    t_cots, t_tensors = arg_tangents[:n_cotangents], arg_tangents[n_cotangents:]
    floats = [(t, d) for t, d in zip(tensors, t_tensors) if is_float_tensor(t)]
    tangents = [torch.zeros_like(t) if d is None else d for t, d in floats]
    tangents += [torch.zeros_like(c) if d is None else d for c, d in zip(cotangents, t_cots)]
    got = iter(apply_here(_Derived, export, k, attrs, "j", len(cotangents), len(tangents),
                          *cotangents, *tangents, *tensors))
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
        f"{what} through torch.ops.{export.namespace}.{export.name} (opsdk op "
        f"'{export.qualname}') called directly: torch's dispatcher has already unwrapped the "
        "innermost transform when the op's kernel runs, so its tangent could not carry the outer "
        "derivative (torch would take it as zero); expected: the op as opsdk.interop.torch.op("
        f"'{export.qualname}') returns it (its jacfwd(jacfwd(f)), jacrev(jacfwd(f)) compute "
        "where the op's rules allow), or forward over reverse (torch.func.hessian) on the "
        "dispatcher op; got: a derivative of a tangent (jacfwd(jacfwd(f)) or jacrev(jacfwd(f)))")


class _Derived(torch.autograd.Function):
    """Level k's derivative along a path (derived_op) under torch.func: its own tangent is the
    path's next "j" step and its backward the next "v" step, so a transform above it (forward
    over forward, reverse over forward) computes, to any order the op's rules allow."""

    generate_vmap_rule = True

    @staticmethod
    def forward(export, k, attrs, path, n_cotangents, n_rest, *args):
        # tensors flat (a list would be one non-tensor argument to functorch's pytrees)
        cotangents = list(args[:n_cotangents])
        rest = list(args[n_cotangents:n_cotangents + n_rest])
        tensors = args[n_cotangents + n_rest:]
        return tuple(derived_op(export, k, path)(cotangents, rest, *tensors, **attrs))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.opsdk = inputs[:6]
        ctx.save_for_backward(*inputs[6:])
        ctx.save_for_forward(*inputs[6:])  # jvp reads them as saved_tensors (batched under vmap)

    @staticmethod
    def _ins(ctx, values):
        """f_path's arguments (the op's float tensors, the cotangents, the rest) from one value
        per argument of forward (cotangents, rest, tensors), zeros for a missing one."""
        export, k, attrs, path, n_cots, n_rest = ctx.opsdk
        args = ctx.saved_tensors
        pairs = list(zip(args, values))
        tensors = pairs[n_cots + n_rest:]
        ordered = [p for p in tensors if is_float_tensor(p[0])] + pairs[:n_cots + n_rest]
        return [torch.zeros_like(a) if v is None else v for a, v in ordered]

    @staticmethod
    def jvp(ctx, *tangents):
        export, k, attrs, path, n_cots, n_rest = ctx.opsdk
        args = ctx.saved_tensors
        cots, rest, tensors = args[:n_cots], args[n_cots:n_cots + n_rest], args[n_cots + n_rest:]
        more = list(rest) + _Derived._ins(ctx, tangents[6:])
        return apply_here(_Derived, export, k, attrs, path + "j", n_cots, len(more), *cots,
                          *more, *tensors)

    @staticmethod
    def backward(ctx, *grads):
        export, k, attrs, path, n_cots, n_rest = ctx.opsdk
        args = ctx.saved_tensors
        cots, rest, tensors = args[:n_cots], args[n_cots:n_cots + n_rest], args[n_cots + n_rest:]
        more = list(rest) + list(grads)
        got = apply_here(_Derived, export, k, attrs, path + "v", n_cots, len(more), *cots, *more,
                         *tensors)
        n_floats = sum(1 for t in tensors if is_float_tensor(t))
        floats = iter(got[:n_floats])
        by_tensor = [next(floats) if is_float_tensor(t) else None for t in tensors]
        return (None,) * 6 + tuple(got[n_floats:]) + tuple(by_tensor)
