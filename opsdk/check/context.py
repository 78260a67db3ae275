"""What a check gets: the op, backend, dtype and sample under test, and helpers to call the op."""
from dataclasses import dataclass

import numpy as np

from .backends import backend_scope, place_of


@dataclass
class Call:
    """One call of the op: its arguments, every output, and the parts gradients are checked on."""

    args: tuple
    kwargs: dict
    outputs: tuple
    diff_outputs: list
    positions: list

    @property
    def inputs(self):
        """The Tensor arguments that need a gradient, in ``positions`` order."""
        return [self.args[i] for i in self.positions]


def outputs_of(result):
    """The op's outputs as a tuple of Tensors."""
    from ..tensor import Tensor

    return (result,) if isinstance(result, Tensor) else tuple(result)


class CheckContext:
    """The op x backend x dtype x sample a check runs on, with the op's tolerances for the dtype."""

    def __init__(self, op, backend, dtype, sample, mode="fast", seed=0):
        self.op = op
        self.backend = backend
        self.dtype = dtype
        self.sample = sample
        self.mode = mode
        self.seed = seed
        self.atol, self.rtol = op.tolerance(dtype)
        self.place = place_of(backend)

    @property
    def name(self):
        """The op's qualified name."""
        return self.op.qualname

    def scope(self, backend=None):
        """Context manager running the op on ``backend`` (default: the backend under test)."""
        return backend_scope(self.op, backend or self.backend)

    def call(self, requires=None, backend=None, function=None):
        """Call the op on fresh tensors (``requires``: positions that need grad; default all).

        ``function`` replaces the op's Function (checks pass an instrumented subclass).
        """
        args, kwargs = self.sample.make(self.place, requires)
        apply = self.op if function is None else function.apply
        with self.scope(backend):
            outputs = outputs_of(apply(*args, **kwargs))
        positions = [i for i in self.sample.diff_positions if not args[i].stop_gradient]
        diff = [o for o in outputs if o.dtype.kind == "f" and not o.stop_gradient]
        return Call(args, kwargs, outputs, diff, positions)

    def grad_outputs(self, outputs):
        """Seeded random gradients, one per output (the same for every backend of a sample)."""
        import opsdk

        rng = np.random.default_rng(self.sample.seed)
        return [opsdk.to_tensor(rng.standard_normal(tuple(o.shape)).astype(o.dtype), place=o.place)
                for o in outputs]

    def gradients(self, call, grad_outputs=None, inputs=None, backend=None):
        """``opsdk.grad`` of the call's differentiable outputs (None for an input that got none)."""
        import opsdk

        if grad_outputs is None:
            grad_outputs = self.grad_outputs(call.diff_outputs)
        with self.scope(backend):
            return opsdk.grad(call.diff_outputs, call.inputs if inputs is None else inputs,
                              grad_outputs=grad_outputs, allow_unused=True)

    def gradient_problem(self):
        """Why gradient checks do not apply to this sample (no differentiable input), or None."""
        if not self.sample.diff_positions:
            return "the sample has no differentiable tensor input"
        return None

    def backward_call(self, function=None):
        """(call, None) for a check that runs backward, or (None, the n/a Outcome saying why not)."""
        from .result import Outcome
        problem = self.gradient_problem()
        if problem:
            return None, Outcome.not_applicable(problem)
        call = self.call(function=function)
        if not call.diff_outputs:
            return None, Outcome.not_applicable("the op has no differentiable output")
        return call, None
