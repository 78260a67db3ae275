"""Run one computation in opsdk and in PyTorch; compare values and first/second-order gradients.

Imported only by modules that did ``pytest.importorskip("torch")`` first.
"""
import numpy as np
import torch

import opsdk
from helpers.samples import signed


def _listify(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


class Engine:
    """How to make leaves, differentiate and read back arrays in one framework."""

    def __init__(self, leaf, const, grad, needs_grad, to_numpy):
        self.leaf, self.const, self.grad = leaf, const, grad
        self.needs_grad, self.to_numpy = needs_grad, to_numpy


OPSDK = Engine(
    leaf=lambda a, dt: opsdk.to_tensor(a, dtype=dt, stop_gradient=False),
    const=lambda a, dt: opsdk.to_tensor(a, dtype=dt),
    grad=lambda ys, xs, gs, create: opsdk.grad(ys, xs, grad_outputs=gs, create_graph=create,
                                               allow_unused=True),
    needs_grad=lambda t: not t.stop_gradient,
    to_numpy=lambda t: t.numpy(),
)

TORCH = Engine(
    leaf=lambda a, dt: torch.tensor(a, dtype=getattr(torch, dt), requires_grad=True),
    const=lambda a, dt: torch.tensor(a, dtype=getattr(torch, dt)),
    grad=lambda ys, xs, gs, create: torch.autograd.grad(ys, xs, grad_outputs=gs,
                                                        create_graph=create, allow_unused=True),
    needs_grad=lambda t: t.requires_grad,
    to_numpy=lambda t: t.detach().numpy(),
)


def evaluate(engine, fn, arrays, seed, dtype, second_order):
    """Values, first-order and (optionally) second-order gradients of fn, as NumPy arrays.

    The cotangents and tangents are drawn from ``seed``, so both frameworks get the same ones.
    """
    rng = np.random.default_rng(seed)
    xs = [engine.leaf(a, dtype) for a in arrays]
    ys = _listify(fn(*xs))
    vs = [signed(*y.shape, seed=rng) for y in ys]
    us = [signed(*np.shape(a), seed=rng) for a in arrays]
    firsts = engine.grad(ys, xs, [engine.const(v, dtype) for v in vs], second_order)
    result = {"values": [engine.to_numpy(y) for y in ys],
              "first": [None if g is None else engine.to_numpy(g) for g in firsts]}
    if second_order:
        # folded into one scalar, so this compares the ops, not multi-output backward
        live = [(g * engine.const(u, dtype)).sum() for g, u in zip(firsts, us)
                if g is not None and engine.needs_grad(g)]
        seconds = (engine.grad([sum(live[1:], live[0])], xs, None, False)
                   if live else [None] * len(xs))
        result["second"] = [None if g is None else engine.to_numpy(g) for g in seconds]
    return result


def _dense(arrays, shapes, dtype):
    return [np.zeros(s, dtype) if a is None else a for a, s in zip(arrays, shapes)]


def assert_matches_torch(opsdk_fn, torch_fn, arrays, seed=0, dtype="float64",
                         second_order=True, rtol=1e-9, atol=1e-11, label=""):
    """opsdk and PyTorch agree on values and gradients (None and zeros count as equal)."""
    ours = evaluate(OPSDK, opsdk_fn, arrays, seed, dtype, second_order)
    theirs = evaluate(TORCH, torch_fn, arrays, seed, dtype, second_order)
    shapes = [np.shape(a) for a in arrays]
    for key in ours:
        got, want = ours[key], theirs[key]
        if key != "values":
            got, want = _dense(got, shapes, dtype), _dense(want, shapes, dtype)
        assert len(got) == len(want), (label, key)
        for i, (g, w) in enumerate(zip(got, want)):
            assert tuple(np.shape(g)) == tuple(np.shape(w)), (label, key, i)
            if key != "values":
                assert g.dtype == np.dtype(dtype), (label, key, i, g.dtype)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol,
                                       err_msg=f"{label}: {key} #{i}")
