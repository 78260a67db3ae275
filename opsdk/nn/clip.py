"""Gradient clipping for optimizers (``grad_clip=``): by global norm, by norm, by value.

As Paddle: ClipGradByGlobalNorm scales the gradients in place, so after ``step()`` the
clipped values are what ``param.grad`` holds; ClipGradByNorm and ClipGradByValue return new
gradients for the update and leave ``param.grad`` as backward left it. Parameters created
with ``ParamAttr(need_clip=False)`` are left out.
"""
import abc
import math

import numpy as np

from ..errors import OpArgumentError
from ..tensor import Tensor, _wrap, bump_version
from .sparse_grad import SparseRowGrad


def _sq_sum(g):
    """Sum of squares of a gradient (a sparse one is coalesced first: repeats add up)."""
    if isinstance(g, SparseRowGrad):
        g = g.coalesce().values
    flat = g.reshape(-1)
    if flat.dtype == np.float16:
        flat = flat.astype(np.float32)
    return float(np.dot(flat, flat))


def _scaled(g, scale):
    if isinstance(g, SparseRowGrad):
        c = g.coalesce()
        return SparseRowGrad(c.rows, c.values * np.asarray(scale, dtype=c.dtype), c.shape)
    return g * np.asarray(scale, dtype=g.dtype)


def _scale_in_place(g, scale):
    """Multiply a gradient array (or a row-sparse one, coalesced first) by scale in place."""
    if isinstance(g, SparseRowGrad):
        c = g.coalesce()
        g.rows, g.values = c.rows, c.values
        g.values *= np.asarray(scale, dtype=g.values.dtype)
    else:
        g *= np.asarray(scale, dtype=g.dtype)


def _clippable(p, g):
    return g is not None and getattr(p, "need_clip", True)


class ClipGradBase(abc.ABC):
    """Base class: ``clip(params_grads)`` maps a list of (param, grad Tensor) to clipped pairs."""

    def __call__(self, params_grads):
        pairs = [(p, None if g is None else g.array) for p, g in params_grads]
        out = []
        for (p, g), (_, orig) in zip(self._clip_arrays(pairs), params_grads):
            if g is None or (isinstance(orig, Tensor) and g is orig.array):
                out.append((p, orig))
            elif isinstance(g, SparseRowGrad):
                from .sparse_grad import _sparse_grad_tensor
                out.append((p, _sparse_grad_tensor(g.rows, g.values, g.shape)))
            else:
                out.append((p, _wrap(g)))
        return out

    @abc.abstractmethod
    def _clip_arrays(self, pairs):
        """Each subclass defines this."""


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients by clip_norm / max(global_norm, clip_norm), in place (as Paddle).

    global_norm = sqrt(sum of every gradient's squared L2 norm). The scaling writes into the
    gradient arrays, so ``param.grad`` holds the clipped values after an optimizer step.

    Args:
        clip_norm: the largest global norm allowed.

    Example:
        >>> clip = opsdk.nn.ClipGradByGlobalNorm(clip_norm=5.0)
        >>> opt = opsdk.optimizer.Adam(parameters=model.parameters(), grad_clip=clip)
    """

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if not clip_norm > 0:
            raise OpArgumentError(f"ClipGradByGlobalNorm: clip_norm must be positive; got: "
                                  f"{clip_norm}")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name

    def global_norm(self, pairs):
        """The global L2 norm of the clippable gradients among (param, array) pairs."""
        return math.sqrt(sum(_sq_sum(g) for p, g in pairs if _clippable(p, g)))

    def _clip_arrays(self, pairs):
        norm = self.global_norm(pairs)
        if norm <= self.clip_norm:
            return pairs
        scale = self.clip_norm / norm
        for p, g in pairs:
            if _clippable(p, g):
                _scale_in_place(g, scale)
                if p.grad is not None and p.grad.array is g:
                    bump_version(p.grad)
        return pairs

    def __repr__(self):
        return f"ClipGradByGlobalNorm(global_clip_norm={self.clip_norm})"


class ClipGradByNorm(ClipGradBase):
    """Scale each gradient whose L2 norm exceeds clip_norm down to norm clip_norm."""

    def __init__(self, clip_norm):
        if not clip_norm > 0:
            raise OpArgumentError(f"ClipGradByNorm: clip_norm must be positive; got: {clip_norm}")
        self.clip_norm = float(clip_norm)

    def _clip_arrays(self, pairs):
        out = []
        for p, g in pairs:
            if _clippable(p, g):
                norm = math.sqrt(_sq_sum(g))
                if norm > self.clip_norm:
                    g = _scaled(g, self.clip_norm / norm)
            out.append((p, g))
        return out

    def __repr__(self):
        return f"ClipGradByNorm(clip_norm={self.clip_norm})"


class ClipGradByValue(ClipGradBase):
    """Clamp every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        min = -max if min is None else min
        if not min <= max:
            raise OpArgumentError(f"ClipGradByValue: expected: min <= max; got: min={min}, "
                                  f"max={max}")
        self.max = float(max)
        self.min = float(min)

    def _clip_arrays(self, pairs):
        out = []
        for p, g in pairs:
            if _clippable(p, g):
                if isinstance(g, SparseRowGrad):
                    c = g.coalesce()
                    g = SparseRowGrad(c.rows, np.clip(c.values, self.min, self.max), c.shape)
                else:
                    g = np.clip(g, self.min, self.max)
            out.append((p, g))
        return out

    def __repr__(self):
        return f"ClipGradByValue(min={self.min}, max={self.max})"
