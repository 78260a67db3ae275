"""Calls of an op the isolation check controls one by one: forward now, backward later, inputs
snapshotted before each."""
import copy

import numpy as np

from ....autograd import grad
from ..backends import dtype_availability
from ..compare import bitwise, compare
from ..context import host, outputs_of
from ..samples import argument_names


def shares_memory(a, b):
    """Whether two arrays (NumPy or CuPy) overlap in memory."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        try:
            return bool(np.shares_memory(a, b, max_work=1 << 20))
        except np.exceptions.TooHardError:
            return bool(np.may_share_memory(a, b))
    module = __import__(type(a).__module__.split(".")[0])
    return bool(module.shares_memory(a, b))


def mutable_arguments(args, kwargs, names):
    """``(name, value, copy)`` for every list, dict, set or array argument that is no Tensor."""
    from ..samples import MUTABLE

    found = [(names[i], a) for i, a in enumerate(args) if isinstance(a, MUTABLE)]
    found += [(k, v) for k, v in kwargs.items() if isinstance(v, MUTABLE)]
    return [(name, value, copy.deepcopy(value)) for name, value in found]


def changed_arguments(where, mutables):
    """Problem lines for the mutable arguments that differ from their copies."""
    problems = []
    for name, value, saved in mutables:
        same = np.array_equal(value, saved, equal_nan=True) if isinstance(value, np.ndarray) \
            else value == saved
        if not same:
            problems.append(f"{where} changed its argument '{name}' in place (was {saved!r:.60}, "
                            f"now {value!r:.60}): the caller's next call gets the changed value; "
                            "work on a copy")
    return problems


class TrackedCall:
    """One forward of the op, and later its backward, with what it was given."""

    def __init__(self, sample, args, kwargs, outputs, names):
        from ....tensor import Tensor

        self.sample = sample
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.names = names
        self.positions = [i for i in sample.diff_positions if not args[i].stop_gradient]
        self.diff_index = [k for k, o in enumerate(outputs)
                           if isinstance(o, Tensor) and o.dtype.kind == "f" and not o.stop_gradient]
        self.seeds = []
        self.grads = [None] * len(self.positions)
        self.before = []

    @property
    def diff_outputs(self):
        return [self.outputs[k] for k in self.diff_index]

    def result(self):
        """Host copies of the outputs and gradients, for comparing runs."""
        return {"outputs": [host(o) for o in self.outputs],
                "gradients": [None if g is None else host(g) for g in self.grads]}


class Sequence:
    """Makes TrackedCalls of the context's op on its backend."""

    def __init__(self, ctx):
        self.ctx = ctx
        # every call's tensors stay alive until the check ends: CPython reuses a dead object's
        # id, so a cache keyed by id(tensor) would find the entry of a freed tensor of B under
        # a new tensor of A and give B's results to A's call, passing by chance
        self.made = []

    def call(self, sample, dtype_label=None):
        args, kwargs = sample.make(self.ctx.place)
        return self.call_with(sample, args, kwargs)

    def call_with(self, sample, args, kwargs):
        """A TrackedCall of the op on these very tensors (``sample`` gives the seeds)."""
        from ....tensor import Tensor

        ctx = self.ctx
        names = argument_names(ctx.op, len(args))
        tensors = [a for a in args if isinstance(a, Tensor)]
        tensors += [v for v in kwargs.values() if isinstance(v, Tensor)]
        before = [host(t) for t in tensors]
        mutables = mutable_arguments(args, kwargs, names)
        with ctx.scope(), np.errstate(all="ignore"):
            outputs = outputs_of(ctx.op(*args, **kwargs))
        call = TrackedCall(sample, args, kwargs, outputs, names)
        self.made.append(call)
        call.before = before
        call.mutables = mutables
        if call.diff_index and call.positions:
            call.seeds = ctx.grad_outputs(call.diff_outputs, sample)
        return call

    def backward(self, call, create_graph=False):
        """The call's gradients (``create_graph=True``: the engine hands back the very arrays
        the op's backward returned, as double backward and optimizers see them)."""
        if not call.seeds:
            return
        with self.ctx.scope(), np.errstate(all="ignore"):
            grads = grad(call.diff_outputs, [call.args[p] for p in call.positions],
                               grad_outputs=call.seeds, allow_unused=True,
                               create_graph=create_graph)
        call.grads = list(grads)

    def foreign(self):
        """``(sample, dtype)``: the op's first sample in another dtype it runs here, or None."""
        from ..drawing import draw

        ctx = self.ctx
        for dtype in ctx.op.dtypes:
            if dtype == ctx.dtype or not dtype_availability(ctx.op, ctx.backend, dtype)[0]:
                continue
            own = [s for s in draw(ctx.op, dtype, ctx.seed, ctx.mode).samples if s.kind == "own"]
            if own:
                return own[0], dtype
        return None


def update_in_place(call, sample):
    """Write ``sample``'s values into the tensors of ``call``, in place, as an optimizer step does."""
    from ....device import array_module
    from ....tensor import bump_version

    for key, slot in sample.slots():
        tensor = call.args[key] if isinstance(key, int) else call.kwargs[key]
        data = tensor.array
        values = slot.values.astype(data.dtype)
        data[...] = array_module(data).asarray(values)  # a CuPy array takes no NumPy operand
        bump_version(tensor)


def _reversed(slot):
    flat = slot.values.reshape(-1)[::-1]
    return slot.with_values(flat.reshape(slot.values.shape))


REDRAWN = "drawn again"
REVERSED = "values reversed"


def _shapes(sample):
    return [(k, tuple(s.shape), s.values.dtype) for k, s in sample.slots()]


def _redrawn(ctx):
    """A's sample drawn again with another seed (same shapes, the op's own domain), or None."""
    from ..samples import from_sample, sample_seed

    sample = ctx.sample
    words = sample.label.split()
    if sample.kind != "own" or len(words) != 2 or not words[1].isdigit():
        return None
    seeds = sample_seed(ctx.seed, ctx.op.qualname, ctx.dtype) + [7919]
    try:
        drawn = list(ctx.op.samples(ctx.dtype, np.random.default_rng(seeds)))
        other = from_sample(drawn[int(words[1])], f"{sample.label}, {REDRAWN}", seeds)
    except Exception:  # a samples() callable that cannot draw again: fall back to reversing
        return None
    if _shapes(other) != _shapes(sample) or all(
            np.array_equal(a.values, b.values) for (_, a), (_, b) in zip(other.slots(),
                                                                        sample.slots())):
        return None
    return other


def partner_words(other):
    """How reports describe sample B."""
    if other is not None and other.label.endswith(REDRAWN):
        return "B: A's sample drawn again with other values"
    return "B: A's values reversed"


def partner(ctx):
    """Sample B for interleaving: A's sample drawn again (same shapes, the op's domain), else A's
    values reversed, else another of the op's samples of the same shapes; None when the op
    accepts none. A redraw moves permutation-invariant statistics (a norm, a sum) that
    reversing keeps."""
    from ..drawing import draw
    from ..variants import trial

    sample = ctx.sample
    redrawn = _redrawn(ctx)
    if redrawn is not None and trial(ctx.op, redrawn) is not None:
        return redrawn
    changed = {key: _reversed(slot) for key, slot in sample.slots() if slot.values.size > 1}
    if changed:
        candidate = sample.with_slots(f"{sample.label}, {REVERSED}", changed)
        if trial(ctx.op, candidate) is not None:
            return candidate
    shapes = [(k, tuple(s.shape)) for k, s in sample.slots()]
    for other in draw(ctx.op, ctx.dtype, ctx.seed, ctx.mode).samples:
        if other.kind == "own" and other.label != sample.label \
                and [(k, tuple(s.shape)) for k, s in other.slots()] == shapes:
            return other
    return None


def differences(first, second, exact, ctx):
    """``(what, message)`` for each output or gradient that differs between two runs."""
    names = argument_names(ctx.op, len(ctx.sample.args))
    labels = {"outputs": lambda k: f"output {k}",
              "gradients": lambda k: f"the gradient of '{names[ctx.sample.diff_positions[k]]}'"}
    out = []
    for part in ("outputs", "gradients"):
        for k, (x, y) in enumerate(zip(first[part], second[part])):
            if x is None or y is None:
                if (x is None) != (y is None):
                    out.append((labels[part](k), "a gradient in one run only"))
                continue
            result = bitwise(y, x) if exact else compare(y, x, ctx.atol, ctx.rtol)
            if not result.ok:
                out.append((labels[part](k), result.message))
    return out
