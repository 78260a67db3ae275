"""An op's Function run through its protocol with no opsdk graph: forward(ctx, ...) now,
backward(ctx, ...) later. A framework's own autograd keeps the graph; opsdk keeps only the ctx.

This is what the engine does for one PyLayer node (same context, same checks on what backward
returns), minus the recording, so a framework call pays for the op's kernels and little else.
"""
from ..autograd import grad_mode
from ..autograd.function import PyLayerContext
from ..autograd.pylayer_apply import op_name
from ..autograd.pylayer_backward import BackwardRule, InputMeta
from ..errors import InteropError
from ..tensor import Tensor, _wrap

_state = grad_mode._state


class _Rule(BackwardRule):
    """BackwardRule whose argument labels (inspect.signature, some 20 us) are worked out once
    per op and argument, not on every backward."""

    __slots__ = ()
    _labels = {}

    def arg_label(self, pos):
        key = (self.cls, pos)
        label = self._labels.get(key)
        if label is None:
            label = self._labels[key] = BackwardRule.arg_label(self, pos)
        return label


class Forward:
    """What one forward left for its backward: the Function, its ctx, arguments and outputs."""

    __slots__ = ("function", "ctx", "args", "inputs", "outputs", "single")

    def __init__(self, function, ctx, args, inputs, outputs, single):
        self.function = function
        self.ctx = ctx
        self.args = args
        self.inputs = inputs
        self.outputs = outputs
        self.single = single  # forward returned one Tensor, not a tuple


def wrap_inputs(arrays, needs_grad):
    """opsdk Tensors over the arrays (no copy); the float ones in ``needs_grad`` marked so."""
    tensors = []
    for a, need in zip(arrays, needs_grad):
        if a is None:
            tensors.append(None)
            continue
        t = _wrap(a)
        t._req = bool(need) and a.dtype.kind == "f"
        tensors.append(t)
    return tensors


def outputs_of(result, qualname):
    """forward's result as a tuple of Tensors, or an InteropError naming the op."""
    outs = (result,) if isinstance(result, Tensor) else result
    if not isinstance(outs, (tuple, list)) or not outs or \
            not all(isinstance(o, Tensor) for o in outs):
        raise InteropError(f"op '{qualname}' cannot be exported: its forward must return a "
                           "Tensor or a tuple of Tensors (frameworks need tensors only); got: "
                           f"{type(result).__name__}")
    return tuple(outs)


def forward(function, qualname, args, kwargs):
    """Run ``function.forward`` on opsdk Tensors, unrecorded; returns a Forward."""
    ctx = PyLayerContext()
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._req for a in args)
    enabled = _state.enabled
    _state.enabled = False
    try:
        result = function.forward(ctx, *args, **kwargs)
    finally:
        _state.enabled = enabled
    inputs = [a for a in args if isinstance(a, Tensor)]
    return Forward(function, ctx, args, inputs, outputs_of(result, qualname),
                   isinstance(result, Tensor))


def backward(state, grads):
    """Run the Function's backward for one Forward: a checked gradient (or None) per Tensor
    input; ``grads`` holds one Tensor (or None) per output."""
    rule = _Rule(state.function, state.ctx, op_name(state.function), state.args,
                        [InputMeta(t) for t in state.inputs],
                        [(o._data.shape, o._data.dtype, type(o._data)) for o in state.outputs])
    enabled = _state.enabled
    _state.enabled = False
    try:
        return rule(*grads)
    finally:
        _state.enabled = enabled
