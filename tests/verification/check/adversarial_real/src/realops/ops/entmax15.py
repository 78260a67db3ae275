"""realops.entmax15: 1.5-entmax over the last axis (Peters, Niculae & Martins, 2019).

Ported from deep-spin/entmax, entmax/activations.py (``_entmax_threshold_and_support``,
``Entmax15Function``): the maths and the structure (the sort-based threshold, the partial sort
of the ``k`` largest values with the recursive ``2k`` schedule for unsolved rows, the backward
through ``gppr = sqrt(Y)``), written anew in NumPy. Like the source it returns the
probabilities and the support size of each row (int64, ``[..., 1]``)::

    X = (x - max(x)) / 2;  Xs = the k largest of X, sorted descending (all of them if k is None)
    mean, mean_sq = running means of Xs, Xs**2;  ss = rho (mean_sq - mean**2)
    tau = mean - sqrt(max((1 - ss) / rho, 0));  support = #{tau <= Xs};  tau* = tau[support - 1]
    rows whose support reaches k are solved again with 2k;   Y = max(X - tau*, 0) ** 2
    backward:  g = sqrt(Y);  dX = dY g - g sum(dY g) / sum(g)

Bug variants:

- ``entmax15_bug_topk_unsolved``: the re-solve condition for rows whose support fills the
  partial sort is written ``support > k`` (never true) instead of ``support == k``: the
  threshold is wrong exactly for rows with more than k active elements (selection regime).
- ``entmax15_bug_inplace_grad``: backward scales the incoming gradient in place
  (``dX = dY; dX *= gppr``), a port of ``dX = dY * gppr; dX -= q * gppr`` that lost a copy.
"""
import numpy

import opsdk
from opsdk import TensorSpec
from opsdk.autograd import once_differentiable
from opsdk.errors import OpArgumentError
from opsdk.kernels import Kernel, array_of, tensor_of

from ._checks import check_rows

VARIANTS = {
    "entmax15": (),
    "entmax15_bug_topk_unsolved": ("topk_unsolved",),
    "entmax15_bug_inplace_grad": ("inplace_grad",),
}


def _threshold(X, k, bugs):
    """tau* [rows, 1] and support [rows] of rows X (max 0), from the k largest values."""
    n = X.shape[1]
    partial = k is not None and k < n
    Xs = -numpy.sort(-X, axis=1)
    if partial:
        Xs = Xs[:, :k]
    rho = numpy.arange(1, Xs.shape[1] + 1, dtype=X.dtype)
    mean = numpy.cumsum(Xs, axis=1) / rho
    mean_sq = numpy.cumsum(Xs * Xs, axis=1) / rho
    ss = rho * (mean_sq - mean * mean)
    delta = numpy.maximum((1 - ss) / rho, 0)
    tau = mean - numpy.sqrt(delta)
    support = (tau <= Xs).sum(axis=1)
    tau_star = numpy.take_along_axis(tau, (support - 1)[:, None], axis=1)
    if partial:
        unsolved = support > k if "topk_unsolved" in bugs else support == k
        if unsolved.any():
            tau_star[unsolved], support[unsolved] = _threshold(X[unsolved], 2 * k, bugs)
    return tau_star, support


def _kernels(name, bugs):
    forward = Kernel(f"realops.{name}_forward")
    backward = Kernel(f"realops.{name}_backward")

    @forward.python
    def _(x, *, k):
        X = (x - x.max(axis=1, keepdims=True)) / 2
        tau, support = _threshold(X, k, bugs)
        return numpy.maximum(X - tau, 0) ** 2, support.astype(numpy.int64)

    @backward.python
    def _(y, dy):
        gppr = numpy.sqrt(y)
        if "inplace_grad" in bugs:
            dx = dy
            dx *= gppr                                   # BUG: scales the caller's gradient
        else:
            dx = dy * gppr
        q = dx.sum(axis=1, keepdims=True) / gppr.sum(axis=1, keepdims=True)
        return dx - q * gppr

    return forward, backward


def _function(name, bugs):
    forward, backward = _kernels(name, bugs)

    class Entmax15(opsdk.Function):
        """1.5-entmax over the last axis: (probabilities, support size per row)."""

        _opsdk_qualname = f"realops.{name}"

        @staticmethod
        def forward(ctx, x, k=None):
            check_rows(f"realops.{name}", x)
            if k is not None and (int(k) != k or k < 1):
                raise OpArgumentError(f"realops.{name}: argument 'k' must be None or a positive integer; got: {k!r}")
            a = array_of(x)
            y, support = forward(a.reshape(-1, a.shape[-1]), k=None if k is None else int(k))
            ctx.y = y
            out = tensor_of(support.reshape(a.shape[:-1] + (1,)))
            ctx.mark_non_differentiable(out)
            return tensor_of(y.reshape(a.shape)), out

        @staticmethod
        @once_differentiable
        def backward(ctx, dy, dsupport):
            g = array_of(dy)
            shape = g.shape
            g = g.astype(ctx.y.dtype, copy=False).reshape(ctx.y.shape)
            return tensor_of(backward(ctx.y, g).reshape(shape))

    return Entmax15, (forward, backward)


def reference(x, k=None):
    """1.5-entmax in core opsdk ops (full sort: the result does not depend on k)."""
    X = (x - opsdk.max(x, axis=-1, keepdim=True)) / 2
    Xs = opsdk.sort(X, axis=-1, descending=True)
    rho = opsdk.arange(1, x.shape[-1] + 1, dtype=x.dtype)
    mean = opsdk.cumsum(Xs, axis=-1) / rho
    mean_sq = opsdk.cumsum(Xs * Xs, axis=-1) / rho
    delta = (1 - rho * (mean_sq - mean * mean)) / rho
    positive = delta > 0    # sqrt only where delta > 0: its infinite slope at 0 would turn the zero
    root = opsdk.sqrt(opsdk.where(positive, delta, opsdk.ones_like(delta)))  # gradient into NaN
    tau = mean - opsdk.where(positive, root, opsdk.zeros_like(delta))
    support = opsdk.sum(opsdk.cast(tau <= Xs, "int64"), axis=-1, keepdim=True)
    tau_star = opsdk.take_along_axis(tau, support - 1, axis=-1)
    return opsdk.clip(X - tau_star, min=0.0) ** 2, support


def register_op(register):
    """entmax15 and its bug variants, with the partial sort of the 3 largest values (k=3)."""
    for name, bugs in VARIANTS.items():
        function, kernels = _function(name, bugs)
        register(function, name=name, inputs=[TensorSpec(shape=(4, 7), domain=(-2.0, 2.0))],
                 attrs={"k": 3}, dtypes=("float32", "float64"), kernels=kernels, reference=reference)
