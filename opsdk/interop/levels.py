"""Gradients of any order of an op, recomputed from its inputs, for frameworks whose backward
must itself be an op (torch's compile and double backward, JAX's custom_vjp, Paddle's
create_graph).

Level 0 is the op. Level k (k >= 1) is the vector-Jacobian product of level k-1: it takes level
k-1's arguments plus one cotangent per float output of level k-1, and returns one gradient per
float argument of level k-1. So level k's arguments are always the op's tensors followed by the
cotangents of levels 1..k, and every level after the first returns float tensors only.

Level 1 runs forward then backward through the op's protocol (its kernels, no graph); higher
levels replay the lower ones on opsdk's engine with ``create_graph=True`` and differentiate
that, so they work exactly where the op's backward is differentiable (``double_backward=True``)
and raise opsdk's DoubleBackwardError, naming the op, where it is not.
"""
from ..autograd.grad_api import grad
from ..autograd.grad_mode import enable_grad
from ..device import array_module
from ..tensor import _wrap
from . import direct


def is_float(t):
    """Whether a (possibly absent) tensor or array can carry a gradient."""
    return t is not None and t.dtype.kind == "f"


def float_outputs(outputs):
    """Indices of the float outputs: the ones that get cotangents."""
    return [i for i, o in enumerate(outputs) if is_float(o)]


def _zeros_like(t):
    return _wrap(array_module(t.array).zeros_like(t.array))


def _vjp(outputs, cotangents, wrt, create_graph):
    """d(outputs)/d(wrt) against the cotangents; zeros where an input is unused."""
    live = [(o, c) for o, c in zip(outputs, cotangents) if o._req]
    grads = [None] * len(wrt)
    needs = [w for w in wrt if w._req]
    if live and needs:
        got = iter(grad([o for o, _ in live], needs, [c for _, c in live], retain_graph=True,
                        create_graph=create_graph, allow_unused=True))
        grads = [next(got) if w._req else None for w in wrt]
    return [g if g is not None else _zeros_like(w) for g, w in zip(grads, wrt)]


class Levels:
    """The levels of one op call: its Function, how to call it, and its tensors' layout."""

    def __init__(self, function, qualname, call):
        self.function = function
        self.qualname = qualname
        self.call = call  # tensors (one per tensor parameter, None if absent) -> (args, kwargs)

    def forward(self, tensors, record):
        """Level 0 as opsdk Tensors: the op's outputs, recorded when ``record``."""
        args, kwargs = self.call(tensors)
        if record:
            from ..autograd.pylayer_apply import apply

            with enable_grad():
                return direct.outputs_of(apply(self.function, args, kwargs), self.qualname)
        return direct.forward(self.function, self.qualname, args, kwargs).outputs

    def first(self, tensors, cotangents):
        """Level 1 through the protocol (kernels only, no graph): one grad per float tensor."""
        for t in tensors:
            if t is not None:
                t._req = is_float(t)
        args, kwargs = self.call(tensors)
        state = direct.forward(self.function, self.qualname, args, kwargs)
        floats = float_outputs(state.outputs)
        seeds = [None] * len(state.outputs)
        for i, c in zip(floats, cotangents):
            seeds[i] = c
        grads = direct.backward(state, seeds)
        present = [t for t in tensors if t is not None]
        return [g if g is not None else _zeros_like(t)
                for g, t in zip(grads, present) if is_float(t)]

    def level(self, k, tensors, cotangents):
        """Level k's outputs as opsdk Tensors; ``tensors`` are the op's (None where absent),
        ``cotangents`` those of levels 1..k in order."""
        if k == 1:
            return self.first(tensors, cotangents)
        for t in [*tensors, *cotangents]:
            if t is not None:
                t._req = is_float(t)
        with enable_grad():
            outputs = self.forward(tensors, record=True)
            args = [t for t in tensors if t is not None]
            outs = [outputs[i] for i in float_outputs(outputs)]
            used = 0
            for j in range(1, k + 1):
                cots = list(cotangents[used:used + len(outs)])
                used += len(outs)
                grads = _vjp(outs, cots, [a for a in args if is_float(a)], create_graph=j < k)
                args, outs = args + cots, grads
        return outs

    @staticmethod
    def cotangent_counts(k, n_float_tensors, n_float_outputs):
        """How many cotangents each of levels 1..k takes: level j takes one per output of
        level j-1, and level j >= 1 has one output per float argument of level j-1."""
        counts = []
        for j in range(1, k + 1):
            # level j-1's outputs: the op's float outputs (j = 1), else the float arguments of
            # level j-2, which are the op's float tensors and the cotangents of levels < j-1
            counts.append(n_float_outputs if j == 1 else n_float_tensors + sum(counts[:j - 2]))
        return counts
