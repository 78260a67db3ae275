"""torch's own checks on an exported op: opcheck, gradcheck, gradgradcheck, forward agreement,
forward mode (jacfwd against jacrev)."""
import numpy as np

from .outcome import Recorder, attribute_cases, float64_cases, opsdk_reference

OPCHECK_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor",
                 "test_aot_dispatch_dynamic")


def _tensors(torch, arrays):
    return [None if a is None else torch.from_numpy(a.copy()).requires_grad_(a.dtype.kind == "f")
            for a in arrays]


def verify_torch(info):
    """Every torch check on every float64 sample of the op: a list of Outcome."""
    import torch

    from ...interop.torch import op as torch_op

    fn = torch_op(info.qualname)
    exported = fn._opsdk_export.exported
    packet = getattr(getattr(torch.ops, info.pack), info.name)
    record = Recorder(info.qualname, "torch")

    cases = float64_cases(exported)
    # forward mode also on the first sample at the moved attributes (only there: whole Jacobians)
    moved = attribute_cases(exported) if forward_mode(info) else []
    for index, arrays, attrs in cases + moved:
        attrs = exported.signature.declared(attrs)
        tensors = _tensors(torch, arrays)
        floats = [i for i, t in enumerate(tensors) if t is not None and t.is_floating_point()]

        def of_floats(call):
            def run(*values):
                full = list(tensors)
                for i, v in zip(floats, values):
                    full[i] = v
                return call(*full, **attrs)
            return run

        def forward():
            got = fn(*tensors, **attrs)
            got = got if isinstance(got, tuple) else (got,)
            want, _ = opsdk_reference(exported, arrays, attrs)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g.detach().numpy(), w, rtol=1e-12, atol=1e-12)

        inputs = tuple(tensors[i] for i in floats)
        if not isinstance(index, int):  # a moved attribute: forward mode alone
            record("jacfwd", index, lambda: _jacfwd_is_jacrev(torch, of_floats(fn), inputs))
            continue
        record("forward", index, forward)
        for util in OPCHECK_UTILS:
            record(f"opcheck:{util}", index,
                   lambda util=util: torch.library.opcheck(fn, tuple(tensors), attrs,
                                                           test_utils=util) and None)
        for label, call in (("", fn), ("[torch.ops]", packet)):
            record(f"gradcheck{label}", index,
                   lambda call=call: torch.autograd.gradcheck(of_floats(call), inputs) and None)
            if info.double_backward:
                record(f"gradgradcheck{label}", index,
                       lambda call=call: torch.autograd.gradgradcheck(of_floats(call), inputs)
                       and None)
        if index == 0 and forward_mode(info):  # one sample: a whole Jacobian each way
            record("jacfwd", index, lambda: _jacfwd_is_jacrev(torch, of_floats(fn), inputs))
    return record.outcomes


def forward_mode(info):
    """Whether the op has forward mode: its own jvp, or a differentiable backward."""
    from ...autograd.forward import has_jvp

    return has_jvp(info.function) or bool(info.double_backward)


def _jacfwd_is_jacrev(torch, run, inputs):
    """torch.func.jacfwd (the op's forward mode) equals jacrev (its backward, gradcheck's)."""
    def float_outputs(*values):
        out = run(*values)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(o for o in outs if o.is_floating_point())

    xs = tuple(x.detach() for x in inputs)
    argnums = tuple(range(len(xs)))
    fwd = torch.func.jacfwd(float_outputs, argnums=argnums)(*xs)
    rev = torch.func.jacrev(float_outputs, argnums=argnums)(*xs)
    for a, b in zip(torch.utils._pytree.tree_leaves(fwd), torch.utils._pytree.tree_leaves(rev)):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)
