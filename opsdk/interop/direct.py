"""An op's Function run through its protocol with no opsdk graph: forward(ctx, ...) now,
backward(ctx, ...) later. A framework's own autograd keeps the graph; opsdk keeps only the ctx.

This is what the engine does for one PyLayer node (same context, same checks on what backward
returns), minus the recording, so a framework call pays for the op's kernels and little else.
"""
from ..autograd import grad_mode
from ..autograd.function import PyLayerContext
from ..autograd.pylayer_apply import op_name
from ..autograd.pylayer_backward import BackwardRule, InputMeta
from ..autograd.pylayer_grads import check_grads
from ..errors import DoubleBackwardError, InteropError, OpBackwardError
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


def wrap(array, needs_grad):
    """An opsdk Tensor over the array (no copy), marked as needing a gradient where it is a
    float array and ``needs_grad``."""
    t = _wrap(array)
    t._req = bool(needs_grad) and array.dtype.kind == "f"
    return t


def wrap_inputs(arrays, needs_grad):
    """opsdk Tensors over the arrays (None stays None); see ``wrap``."""
    return [None if a is None else wrap(a, need) for a, need in zip(arrays, needs_grad)]


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
    inputs = [a for a in args if isinstance(a, Tensor)]
    ctx.needs_input_grad = tuple([isinstance(a, Tensor) and a._req for a in args])
    enabled = _state.enabled
    _state.enabled = False
    try:
        result = function.forward(ctx, *args, **kwargs)
    finally:
        _state.enabled = enabled
    if type(result) is Tensor:
        return Forward(function, ctx, args, inputs, (result,), True)
    return Forward(function, ctx, args, inputs, outputs_of(result, qualname),
                   isinstance(result, Tensor))  # a Tensor subclass (a Parameter) is one output too


def _rule(state):
    return _Rule(state.function, state.ctx, op_name(state.function), state.args,
                 [InputMeta(t) for t in state.inputs],
                 [(o.array.shape, o.array.dtype, type(o.array)) for o in state.outputs])


def _plain_grads(state, grads):
    """Whether the incoming grads need none of the engine's preparation: each present, or
    allowed absent (no materialize), and of its output's dtype."""
    materialize = state.ctx._materialize
    for g, o in zip(grads, state.outputs):
        if g is None:
            if materialize:
                return False
        elif g.array.dtype != o.array.dtype:
            return False
    return True


def _accepted(inputs, result):
    """backward's result as one gradient (or None) per Tensor input, where every gradient is
    one the engine's check_grads would take as it is (a Tensor of its input's array type,
    dtype and shape, for an input that needs one); None where any is not (check_grads then
    says why, or sums a broadcast gradient back)."""
    grads = (result,) if isinstance(result, Tensor) else result
    if type(grads) not in (tuple, list) or len(grads) != len(inputs):
        return None
    out = []
    for t, g in zip(inputs, grads):
        if g is None or not t._req:
            out.append(None)
            continue
        if type(g) is not Tensor:
            return None
        data, ref = g.array, t.array
        if type(data) is not type(ref) or data.dtype != ref.dtype or data.shape != ref.shape:
            return None
        out.append(g)
    return tuple(out)


def backward(state, grads):
    """Run the Function's backward for one Forward: a checked gradient (or None) per Tensor
    input; ``grads`` holds one Tensor (or None) per output.

    The engine's BackwardRule prepares the grads, runs backward and checks what it returns
    (some 3 us a call); where the grads need no preparation and the result passes a quick
    check (``_accepted``), its work would change nothing, so it is only built for the calls
    that need it."""
    enabled = _state.enabled
    _state.enabled = False
    try:
        if not _plain_grads(state, grads):
            return _rule(state).input_grads(tuple(grads), False)
        try:
            result = state.function.backward(state.ctx, *grads)
        except DoubleBackwardError:
            raise
        except Exception as e:
            raise OpBackwardError(f"Error message in backward of '{op_name(state.function)}': "
                                  f"{type(e).__name__}: {e}") from e
    finally:
        _state.enabled = enabled
    accepted = _accepted(state.inputs, result)
    return accepted if accepted is not None else check_grads(_rule(state), result)
