"""What a check gets: the op, backend, dtype and sample under test, and helpers to call the op."""
from dataclasses import dataclass

import numpy as np

from ...autograd import grad
from ...functional.creation import to_tensor
from . import runs
from .backends import REFERENCE, backend_scope, place_of


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


@dataclass
class Run:
    """Forward and backward of one call, as host arrays: what agreement checks compare."""

    outputs: list
    grads: list          # one per differentiable position of the sample (None: no gradient)
    grad_outputs: list   # the seeds given to backward, one per differentiable output


def outputs_of(result):
    """The op's outputs as a tuple of Tensors."""
    from ...tensor import Tensor

    return (result,) if isinstance(result, Tensor) else tuple(result)


def _laid_out(tensor, layout):
    """The same gradient values in a non-contiguous array (when the layout applies to the shape)."""
    from ...tensor import _wrap
    from .layouts import applies, arrange

    data = tensor.array
    if not applies(layout, data.shape):
        return tensor
    xp = np if type(data) is np.ndarray else __import__("cupy")
    return _wrap(arrange(data, layout, xp))


def host(tensor):
    """A host NumPy copy of a Tensor's values."""
    return np.array(tensor.numpy(), copy=True)


class CheckContext:
    """The op x backend x dtype x sample a check runs on, with the op's tolerances for the dtype."""

    def __init__(self, op, backend, dtype, sample, mode="full", seed=0):
        self.op = op
        self.backend = backend
        self.dtype = dtype
        self.sample = sample
        self.mode = mode
        self.seed = seed
        self.atol, self.rtol = op.tolerance(dtype)
        self.declared = op.declared_tolerance(dtype)
        self.place = place_of(backend)
        self.notes = []

    @property
    def name(self):
        """The op's qualified name."""
        return self.op.qualname

    @property
    def loosening(self):
        """The op's declared (atol, rtol) for the dtype, or None when it declared neither."""
        return None if self.declared == (None, None) else self.declared

    def scope(self, backend=None):
        """Context manager running the op on ``backend`` (default: the backend under test)."""
        return backend_scope(self.op, backend or self.backend)

    def call(self, requires=None, backend=None, function=None, sample=None, dtype=None, place=None):
        """Call the op on fresh tensors (``requires``: positions that need grad; default all).

        ``function`` replaces the op's Function (checks pass an instrumented subclass);
        ``sample`` another sample; ``dtype`` casts its float tensors (``"float64"``).
        """
        sample = sample or self.sample
        backend = backend or self.backend
        if place is None:
            place = place_of(backend)
        args, kwargs = sample.make(place, requires, dtype)
        apply = self.op if function is None else function.apply
        with self.scope(backend), np.errstate(all="ignore"):
            outputs = outputs_of(apply(*args, **kwargs))
        positions = [i for i in sample.diff_positions if not args[i].stop_gradient]
        diff = [o for o in outputs if o.dtype.kind == "f" and not o.stop_gradient]
        return Call(args, kwargs, outputs, diff, positions)

    def grad_outputs(self, outputs, sample=None):
        """Seeded random gradients, one per output (the same for every backend of a sample)."""
        rng = np.random.default_rng((sample or self.sample).seed)
        return [to_tensor(rng.standard_normal(tuple(o.shape)).astype(o.dtype), place=o.place)
                for o in outputs]

    def gradients(self, call, grad_outputs=None, inputs=None, backend=None):
        """``opsdk.grad`` of the call's differentiable outputs (None for an input that got none)."""
        if grad_outputs is None:
            grad_outputs = self.grad_outputs(call.diff_outputs)
        with self.scope(backend), np.errstate(all="ignore"):
            return grad(call.diff_outputs, call.inputs if inputs is None else inputs,
                              grad_outputs=grad_outputs, allow_unused=True)

    def run(self, sample=None, backend=None, dtype=None, grad_outputs=None, backward=True,
            grad_layout=None):
        """Forward and (when something is differentiable) backward, as a Run of host arrays.

        ``grad_outputs`` are host arrays (cast to each output's dtype); default: seeded ones.
        ``grad_layout`` hands them to backward in that memory layout (see layouts.py). Runs of
        python (the reference) are remembered for the other checks of the run (runs.py).
        """
        sample = sample or self.sample
        if (backend or self.backend) != REFERENCE or grad_layout is not None:
            return self._run(sample, backend, dtype, grad_outputs, backward, grad_layout)
        key = runs.key(self.op, sample, dtype, grad_outputs)
        found = runs.lookup(key, sample, backward)
        if found is None:
            found = self._run(sample, backend, dtype, grad_outputs, backward, grad_layout)
            runs.remember(key, sample, backward, found)
        return found

    def _run(self, sample, backend, dtype, grad_outputs, backward, grad_layout):
        call = self.call(sample=sample, backend=backend, dtype=dtype)
        outputs = [host(o) for o in call.outputs]
        if not backward or not call.diff_outputs or not call.positions:
            return Run(outputs, [None] * len(sample.diff_positions), [])
        if grad_outputs is None:
            seeds = self.grad_outputs(call.diff_outputs, sample)
        else:
            seeds = [to_tensor(np.asarray(g).astype(o.dtype), place=o.place)
                     for g, o in zip(grad_outputs, call.diff_outputs)]
        if grad_layout is not None:
            seeds = [_laid_out(s, grad_layout) for s in seeds]
        grads = self.gradients(call, seeds, backend=backend)
        by_position = dict(zip(call.positions, grads))
        out = [None if by_position.get(p) is None else host(by_position[p])
               for p in sample.diff_positions]
        return Run(outputs, out, [host(s) for s in seeds])

    def reference_run(self, sample=None, grad_outputs=None, backward=True):
        """The python kernel's Run on the same values cast to float64, or None when the op
        takes no float64 (then checks fall back to python in the dtype under test)."""
        try:
            return self.run(sample, REFERENCE, "float64", grad_outputs, backward)
        except MemoryError:
            raise  # the sample's memory budget, reported as the op's failure (memory.py)
        except Exception as error:  # an op or kernel refusing float64
            note = (f"no float64 reference: the op refuses float64 on python "
                    f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''})")
            if note not in self.notes:
                self.notes.append(note)
            return None

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
