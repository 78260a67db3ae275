"""recompute: activation checkpointing (keep a block's inputs, recompute its inside in backward).

The block runs under no_grad, so none of its intermediates are kept; one graph node stands for
it. When backward reaches that node, the block runs again with the graph on (from the same
inputs and, by default, the same random state, so dropout masks match), and a nested backward
through the recomputed graph gives the inputs' gradients and accumulates the gradients of the
parameters used inside into their ``.grad``, as Paddle's recompute does.

Limits: the block's parameters get their gradients through ``.grad`` (``opsdk.grad`` asked
for them directly does not see them), and double backward (create_graph=True) through a
recomputed block raises an error.
"""
import warnings

from ..autograd import grad_mode
from ..autograd.engine import run_backward
from ..autograd.record import record
from ..errors import BackwardError, OpArgumentError, OpsdkWarning
from ..functional import creation
from ..tensor import Tensor, _wrap

_state = grad_mode._state


def _rng_state():
    return creation.get_rng().bit_generator.state


def _run_with_rng(saved, fn):
    """Run fn with the generator rewound to saved, then put the generator's state back."""
    if saved is None:
        return fn()
    gen = creation.get_rng().bit_generator
    now = gen.state
    gen.state = saved
    try:
        return fn()
    finally:
        gen.state = now


def _outputs(result):
    if isinstance(result, Tensor):
        return (result,), True
    if isinstance(result, (tuple, list)) and all(isinstance(o, Tensor) for o in result):
        return tuple(result), False
    raise OpArgumentError(f"recompute: the function must return a Tensor or a tuple of Tensors; "
                          f"got: {type(result).__name__}")


def recompute(function, *args, preserve_rng_state=True, use_reentrant=True, **kwargs):
    """Run ``function(*args, **kwargs)`` without keeping its intermediates; recompute in backward.

    Gradients are the same as without recompute; the peak memory of a deep network split into
    recomputed blocks drops to the blocks' inputs plus one block's intermediates.

    Args:
        function: a Layer or callable returning a Tensor or a tuple of Tensors.
        *args: its inputs; Tensors among them that need gradients get them.
        preserve_rng_state: replay the random state in the recomputation (same dropout masks).
        **kwargs: passed to function (not differentiated).

    Returns:
        What function returns, connected to the graph through one recompute node.

    Example:
        >>> blocks = [opsdk.nn.Sequential(opsdk.nn.Linear(64, 64), opsdk.nn.ReLU())
        ...           for _ in range(8)]
        >>> h = x
        >>> for blk in blocks:
        ...     h = opsdk.recompute(blk, h)
        >>> h.sum().backward()
    """
    tensors = [(i, a) for i, a in enumerate(args) if isinstance(a, Tensor)]
    if not _state.enabled:
        return function(*args, **kwargs)
    if not any(t._req for _, t in tensors):
        warnings.warn("recompute: no input of the block needs a gradient, so it runs normally "
                      "(nothing to save by recomputing); pass an input with "
                      "stop_gradient=False to checkpoint it", OpsdkWarning, stacklevel=2)
        return function(*args, **kwargs)
    rng = _rng_state() if preserve_rng_state else None
    with grad_mode.no_grad():
        outs, single = _outputs(function(*args, **kwargs))
    inputs = tuple(t for _, t in tensors)
    name = f"recompute({getattr(function, '__name__', type(function).__name__)})"

    def rule(grads):
        # one function for every input: the block runs once, and its nested backward gives
        # them all (a recompute node is first-order only: no graph of the block is kept)
        if any(isinstance(g, Tensor) for g in grads):
            raise BackwardError(f"{name}: double backward (create_graph=True) through a "
                                f"recomputed block is not supported; expected: "
                                f"create_graph=False, or call the block without recompute")
        fresh = list(args)
        leaves = []
        for i, t in tensors:
            leaf = _wrap(t.array)
            leaf._req = t._req
            fresh[i] = leaf
            leaves.append(leaf)
        prev = _state.enabled
        _state.enabled = True
        try:
            again, _ = _outputs(_run_with_rng(rng, lambda: function(*fresh, **kwargs)))
        finally:
            _state.enabled = prev
        roots = [(o, g) for o, g in zip(again, grads) if g is not None and o._req]
        if roots:
            run_backward([o for o, _ in roots], [g for _, g in roots], False, False)
        return tuple(None if leaf.grad is None else leaf.grad.array for leaf in leaves)

    if single:
        return record(name, outs[0].array, inputs, lambda g: rule([g]), saved=inputs)
    return tuple(record(name, [o.array for o in outs], inputs, rule, saved=inputs))


def recompute_sequential(ctx, functions, *args, **kwargs):
    """Run a Sequential (or list of layers) in ``ctx['segments']`` recomputed segments.

    The last segment runs normally, as Paddle's recompute_sequential does.

    Args:
        ctx: {'segments': int (1 by default), 'preserve_rng_state': bool (True)}.
        functions: an ``opsdk.nn.Sequential`` or a list of callables.
        *args: the inputs of the first layer.

    Returns:
        The output of the last layer.
    """
    layers = list(functions)
    segments = int(ctx.get("segments", 1))
    preserve = ctx.get("preserve_rng_state", True)
    if not 1 <= segments <= max(len(layers), 1):
        raise OpArgumentError(f"recompute_sequential: segments must lie in [1, {len(layers)}]; "
                              f"got: {segments}")
    size = len(layers) // segments

    def run(lo, hi):
        def block(*xs):
            for layer in layers[lo:hi]:
                xs = layer(*xs)
                xs = xs if isinstance(xs, tuple) else (xs,)
            return xs[0] if len(xs) == 1 else xs
        block.__name__ = f"segment_{lo}_{hi}"
        return block

    end = 0
    for start in range(0, size * (segments - 1), size):
        end = start + size
        args = recompute(run(start, end), *args, preserve_rng_state=preserve, **kwargs)
        args = args if isinstance(args, tuple) else (args,)
    return run(end, len(layers))(*args)
