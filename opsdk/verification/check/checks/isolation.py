"""isolation: the op keeps to its arguments and ``ctx``, and its calls do not interfere.

- forward and backward leave their inputs, incoming gradients and list, dict or array
  arguments as they found them (each write is reported by the argument's name);
- no output shares memory with an input, nor with an output of an earlier call (a module-level
  buffer handed out twice), and an earlier call's outputs and gradients stay as they were,
  also the gradients as ``create_graph=True`` hands them back (the arrays backward returned);
- forward(A), forward(B), backward(B), backward(A) - after a call in the other dtype - give
  what separate runs from fresh op state give, bit for bit on deterministic backends (state on
  the Function class, a cache keyed by shape instead of values, a module-level mask);
- a call that differs from A in one part only (an attribute, the values of one input, the
  dtype), made after A, gives what it gives from fresh state (a cache keyed on part of the
  call: a plan keyed without a flag, counts keyed by an index's shape, a table built in the
  first call's dtype; isolation_keys.py);
- the tensors of A given B's values in place, as an optimizer step does, give B's results (a
  cache keyed by a tensor's identity or address);
- two calls in one graph and one backward through both give each call's gradients as separate
  runs do (a backward returning a module-level workspace: the next node's backward overwrites
  it before the engine consumed it).
"""
import copy

import numpy as np

from ..compare import bitwise
from ..context import host
from ..samples import argument_names, gradient_names
from ..result import Outcome
from .isolation_calls import (Sequence, changed_arguments, differences, partner, partner_words,
                               shares_memory, update_in_place)
from .isolation_keys import keyed

NAME = "isolation"
SUMMARY = ("forward and backward write into no input or incoming gradient, share no memory with "
           "inputs or earlier calls, and interleaved calls equal separate ones (fresh state)")
KINDS = ("own",)


def applies(op, backend):
    return True


def _tensors(call):
    """``(name, Tensor)`` for every tensor argument of a call."""
    from ....tensor import Tensor

    found = [(call.names[i], a) for i, a in enumerate(call.args) if isinstance(a, Tensor)]
    return found + [(k, v) for k, v in call.kwargs.items() if isinstance(v, Tensor)]


def _in_place(where, before, tensors):
    problems = []
    for (name, tensor), old in zip(tensors, before):
        result = bitwise(host(tensor), old)
        if not result.ok:
            n = int(np.sum(~_equal(host(tensor), old)))
            problems.append(f"{where} wrote into its input '{name}' in place ({n} of {old.size} "
                            f"elements changed; at {list(result.index)}: was "
                            f"{result.expected:.8g}, now {result.actual:.8g}); work on a copy")
    return problems


def _equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    same = a == b
    if a.dtype.kind == "f":
        same |= np.isnan(a) & np.isnan(b)
    return same


def _single_call(ctx, seq):
    """In-place writes and aliasing within one call of the op on the sample."""
    call = seq.call(ctx.sample)
    tensors = _tensors(call)
    problems = _in_place("forward", call.before, tensors)
    problems += changed_arguments("forward", call.mutables)
    after_forward_args = [(n, v, copy.deepcopy(v)) for n, v, _ in call.mutables]
    for k, out in enumerate(call.outputs):
        for name, tensor in tensors:
            if shares_memory(out.array, tensor.array):
                problems.append(f"output {k} shares memory with input '{name}' (forward returns a "
                                "view of its input, or writes its result into it); return a new "
                                "tensor")
        for j in range(k):
            if shares_memory(out.array, call.outputs[j].array):
                problems.append(f"output {k} shares memory with output {j} (one buffer returned "
                                "twice); return separate tensors")
    if not call.seeds:
        return problems, call
    seeds_before = [host(s) for s in call.seeds]
    after_forward = [host(t) for _, t in tensors]
    outputs_before = [host(o) for o in call.outputs]
    seq.backward(call, create_graph=True)
    grad_names = gradient_names(ctx.op, len(call.outputs))
    for k, (seed, old) in enumerate(zip(call.seeds, seeds_before)):
        result = bitwise(host(seed), old)
        if not result.ok:
            name = grad_names[call.diff_index[k]]
            problems.append(f"backward wrote into its incoming gradient '{name}' (the gradient of "
                            f"output {call.diff_index[k]}) in place; at {list(result.index)}: was "
                            f"{result.expected:.8g}, now {result.actual:.8g}; work on a copy")
    problems += _in_place("backward", after_forward, tensors)
    problems += changed_arguments("backward", after_forward_args)
    # the caller still holds the outputs: a backward that works in place on an output it saved
    # (tanh_() on the saved result) changes what the caller reads, and a second backward's input
    for k, (out, old) in enumerate(zip(call.outputs, outputs_before)):
        result = bitwise(host(out), old)
        if not result.ok:
            problems.append(f"backward changed output {k} in place (an output saved for backward "
                            f"and written there?); at {list(result.index)}: was "
                            f"{result.expected:.8g}, now {result.actual:.8g}; work on a copy")
    return problems, call


def _second_call(ctx, seq, first, other):
    """An earlier call's outputs and gradients stay put when the op is called again."""
    saved_out = [host(o) for o in first.outputs]
    saved_grads = [None if g is None else host(g) for g in first.grads]
    second = seq.call(other)
    problems = []
    for k, (out, old) in enumerate(zip(first.outputs, saved_out)):
        for j, new in enumerate(second.outputs):
            if shares_memory(new.array, out.array):
                problems.append(f"output {j} of a second call shares memory with output {k} of "
                                "the first (a buffer kept between calls, e.g. at module level, "
                                "is handed out again); allocate each output afresh")
                break
        else:
            if not bitwise(host(out), old).ok:
                problems.append(f"output {k} of an earlier call changed when the op was called "
                                "again (the op writes into memory it returned before)")
    if second.seeds:
        # create_graph=True: the engine hands back the arrays backward returned, as double
        # backward and a caller keeping gradients get them
        seq.backward(second, create_graph=True)
        names = argument_names(ctx.op, len(ctx.sample.args))
        for p, g1, g2, old in zip(first.positions, first.grads, second.grads, saved_grads):
            if g1 is None or g2 is None:
                continue
            if not bitwise(host(g1), old).ok or shares_memory(g1.array, g2.array):
                problems.append(f"the gradient of '{names[p]}' an earlier call returned changed "
                                "when backward ran again, or is the very memory the second call "
                                "returned: backward returns memory a later call overwrites (a "
                                "buffer kept between calls, e.g. at module level); allocate each "
                                "gradient afresh")
    return problems


def _interleaved(ctx, seq, other, foreign):
    """Interleaved calls from fresh state against separate runs from fresh state: ``(problems,
    the op's state those calls changed)``."""
    state = ctx.state
    alone = {}
    for label, sample in (("A", ctx.sample), ("B", other)):
        if sample is None:
            continue
        state.restore()
        call = seq.call(sample)
        seq.backward(call)
        alone[label] = call.result()
    state.restore()
    before = state.changes()
    order = []
    x = None
    if foreign is not None:
        try:
            x = seq.call(*foreign)
            order.append(f"forward(X in {foreign[1]})")
        except Exception:  # the other dtype's own cases report what is wrong there
            foreign = None
    try:
        a, b = _interleave(seq, ctx.sample, other, x, order)
    except Exception as error:  # the separate runs above did not raise: the calls interfere
        changes = [c for c in state.changes() if c not in before]
        where = f"; state changed meanwhile: {', '.join(changes)}" if changes else ""
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return [f"calls interfere: {', '.join(order)} raised {type(error).__name__}: {first} "
                f"(separate runs from fresh op state do not){where} (state kept outside ctx: on "
                "the Function class, at module level, or a cache keyed by something other than "
                "the values)"], changes
    changes = [c for c in state.changes() if c not in before]
    exact = ctx.backend in ("python", "c")
    problems = []
    for label, call in (("A", a), ("B", b)):
        if call is None:
            continue
        for what, message in differences(alone[label], call.result(), exact, ctx):
            problems.append(f"{what} of {label}: {message}")
    if not problems:
        return [], changes
    where = f"; state changed meanwhile: {', '.join(changes)}" if changes else ""
    return [f"calls interfere: {', '.join(order)} ({partner_words(other)}"
            f"{'' if foreign is None else '; X: the sample in the other dtype'}) differ from "
            f"separate runs from fresh op state{' bit for bit' if exact else ''}: "
            + "; ".join(problems[:2]) + (f" (and {len(problems) - 2} more)"
                                         if len(problems) > 2 else "") + where
            + " (state kept outside ctx: on the Function class, at module level, or a cache "
              "keyed by something other than the values)"], changes


def _updated(ctx, seq, other):
    """The same tensors, given B's values in place between calls (as an optimizer step updates
    weights), must give B's results: a cache keyed by the tensors' identity, address or shape
    gives A's."""
    state = ctx.state
    state.restore()
    alone = seq.call(other)
    seq.backward(alone)
    want = alone.result()
    state.restore()
    before = state.changes()
    first = seq.call(ctx.sample)
    seq.backward(first)
    update_in_place(first, other)
    again = seq.call_with(other, first.args, first.kwargs)
    seq.backward(again)
    exact = ctx.backend in ("python", "c")
    problems = [f"{what}: {message}" for what, message in differences(want, again.result(),
                                                                       exact, ctx)]
    if not problems:
        return []
    changes = [c for c in state.changes() if c not in before]
    where = f"; state kept meanwhile: {', '.join(changes)}" if changes else ""
    return ["after its input tensors were given B's values in place (as an optimizer step "
            f"updates weights between calls; {partner_words(other)}), the op's results differ "
            "from a call on B: " + "; ".join(problems[:2])
            + (f" (and {len(problems) - 2} more)" if len(problems) > 2 else "") + where
            + " (a cache keyed by the tensors' identity, address or shape rather than their "
              "values)"]


def _one_graph(ctx, seq, other):
    """Two calls in one graph and one backward through both, as a model applying the op twice
    gets, give each call's gradients as separate runs do: a backward that returns a buffer it
    keeps (a module-level workspace) has the second node's backward overwrite the first's
    gradient before the engine consumed it. The second call is on B, else on A again with other
    incoming gradients (gradients are linear in them, so they differ)."""
    from ....autograd.grad_api import grad

    second = other if other is not None else ctx.sample
    state = ctx.state

    def calls():
        first = seq.call(ctx.sample)
        then = seq.call(second)
        if other is None:
            then.seeds = [s * -0.75 for s in then.seeds]
        return first, then

    alone = []
    for label in (0, 1):
        state.restore()
        call = calls()[label]
        if not call.seeds:
            return []
        seq.backward(call)
        alone.append(call.result())
    state.restore()
    first, then = calls()
    inputs = [c.args[p] for c in (first, then) for p in c.positions]
    with ctx.scope(), np.errstate(all="ignore"):
        grads = grad(first.diff_outputs + then.diff_outputs, inputs,
                     grad_outputs=first.seeds + then.seeds, allow_unused=True)
    first.grads, then.grads = list(grads[:len(first.positions)]), list(grads[len(first.positions):])
    exact = ctx.backend in ("python", "c")
    problems = []
    for label, call, want in (("first", first, alone[0]), ("second", then, alone[1])):
        found = [(what, message) for what, message in differences(want, call.result(), exact, ctx)
                 if what.startswith("the gradient")]
        problems += [f"{what} of the {label} call: {message}" for what, message in found]
    if not problems:
        return []
    return ["two calls in one graph, one backward through both (as a model applying the op "
            f"twice gets; the second call on {'B' if other is not None else 'A with other incoming gradients'}"
            ") differ from separate runs: " + "; ".join(problems[:2])
            + (f" (and {len(problems) - 2} more)" if len(problems) > 2 else "")
            + ": backward returns memory a later call overwrites (a buffer kept between calls, "
              "e.g. at module level, written by the next node's backward before the engine used "
              "it); allocate each gradient afresh"]


def _interleave(seq, sample, other, x, order):
    """forward(A), forward(B), backward(B), backward(A) (then X's backward), naming each step in
    ``order`` before it runs; returns the calls of A and B."""
    order.append("forward(A)")
    a = seq.call(sample)
    b = None
    if other is not None:
        order.append("forward(B)")
        b = seq.call(other)
        order.append("backward(B)")
        seq.backward(b)
    order.append("backward(A)")
    seq.backward(a)
    if x is not None:
        try:
            seq.backward(x)
        except Exception:  # reported by the other dtype's own cases
            pass
    return a, b


def run(ctx):
    """In-place writes, memory shared with inputs or earlier calls, and interleaving."""
    seq = Sequence(ctx)
    problems, first = _single_call(ctx, seq)
    other = partner(ctx)
    foreign = seq.foreign()
    if other is not None:
        problems += _second_call(ctx, seq, first, other)
    if ctx.sample.lead:
        # state kept between calls shows on the op's first sample; its other samples (other
        # attributes) are checked for writes and shared memory above
        found, kept = _interleaved(ctx, seq, other, foreign)
        problems += found
        if kept:
            # the calls left state behind: a cache keyed on part of the call, named as such
            # (also where interleaving saw it); an op keeping no state pays nothing here
            problems += keyed(ctx, seq, other, kept)
        if not problems:
            problems += _one_graph(ctx, seq, other)
        if other is not None and not problems:
            problems += _updated(ctx, seq, other)
    ctx.state.restore()
    if problems:
        return Outcome.failed(f"{ctx.name}: " + "; ".join(problems))
    if other is None:
        return Outcome.passed(detail="interleaving checked with the other dtype only: neither "
                                     "drawing the sample again nor reversing its values gives "
                                     "another input the op accepts")
    return Outcome.passed()

