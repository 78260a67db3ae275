"""torch.autograd.Functions as public projects write them (the maths ported, the code our own),
each verified by a declaration of a few lines.

- MemoryEfficientSwish: the swish of EfficientNet-PyTorch (lukemelas) and mmdetection, which
  saves only x and recomputes sigmoid in backward: d/dx = s * (1 + x * (1 - s)).
- Sparsemax (Martins & Astudillo 2016) as OpenNMT-py and entmax write it: the threshold tau
  from the sorted row, output max(x - tau, 0); backward zeroes the gradient off the support
  and subtracts its mean over the support.
- SortWithIndices: the example of PyTorch's own ``mark_non_differentiable`` docs, two outputs
  (the sorted values, their int64 indices), backward scattering the gradient back by index
  (``once_differentiable``); its ``index_add_`` along axis 0 holds for 1-d inputs only.

BUGS: each with a bug of a class its projects' issue trackers report, planted in backward (or
in what forward saves for it), with the check that must catch it and the words of its report;
tests/foreign/ported_ops.py plants the same ones in the same maths ported to opsdk.
"""
import torch

import opsdk
from opsdk import TensorSpec


class MemoryEfficientSwish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad * s * (1 + x * (1 - s))


def _threshold(z, dim):
    """tau (the row's threshold) and the support size k along ``dim``."""
    ranked, _ = torch.sort(z, dim=dim, descending=True)
    cumulative = ranked.cumsum(dim) - 1
    shape = [1] * z.dim()
    shape[dim] = -1
    rho = torch.arange(1, z.size(dim) + 1, dtype=z.dtype).view(shape)
    k = (rho * ranked > cumulative).sum(dim=dim, keepdim=True)
    return cumulative.gather(dim, k - 1) / k.to(z.dtype), k


class Sparsemax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z, dim=-1):
        tau, k = _threshold(z, dim)
        out = torch.clamp(z - tau, min=0)
        ctx.dim = dim
        ctx.save_for_backward(k, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensors
        g = torch.where(out != 0, grad, torch.zeros_like(grad))
        mean = g.sum(dim=ctx.dim, keepdim=True) / k.to(g.dtype)
        return torch.where(out != 0, g - mean, g), None


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, index = x.sort()
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x, index)
        return values, index

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, dvalues, dindex):
        x, index = ctx.saved_tensors
        return torch.zeros_like(x).index_add_(0, index, dvalues)


class SwishWrongTerm(MemoryEfficientSwish):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad * s * (1 + x * s)                  # BUG: (1 - s) written s


class SwishSavedSigmoid(MemoryEfficientSwish):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)                    # BUG: s a constant to double backward
        return x * s

    @staticmethod
    def backward(ctx, grad):
        x, s = ctx.saved_tensors
        return grad * s * (1 + x * (1 - s))


class SparsemaxRowMean(Sparsemax):
    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensors
        g = torch.where(out != 0, grad, torch.zeros_like(grad))
        mean = g.mean(dim=ctx.dim, keepdim=True)       # BUG: over the row, not the support
        return torch.where(out != 0, g - mean, g), None


class SparsemaxGradInPlace(Sparsemax):
    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensors
        grad[out == 0] = 0                             # BUG: no clone: the caller's gradient
        mean = grad.sum(dim=ctx.dim, keepdim=True) / k.to(grad.dtype)
        return torch.where(out != 0, grad - mean, grad), None


class SortGathered(SortWithIndices):
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, dvalues, dindex):
        x, index = ctx.saved_tensors
        return dvalues[index]                          # BUG: gathered, not scattered back


# the declarations: what a user of these projects writes to verify them
def declare_swish(function, name="swish"):
    return opsdk.foreign_op(function.apply, framework="torch", name=f"real.{name}",
                            inputs=[TensorSpec(shape=(3, 4), domain=(-4.0, 4.0))],
                            double_backward=True,
                            reference=lambda x: torch.nn.functional.silu(x))


def declare_sparsemax(function, name="sparsemax"):
    return opsdk.foreign_op(function.apply, framework="torch", name=f"real.{name}",
                            inputs=[TensorSpec(shape=(3, 5))], attrs={"dim": -1},
                            double_backward=True)


def declare_sort(function, name="sort"):
    return opsdk.foreign_op(function.apply, framework="torch", name=f"real.{name}",
                            inputs=[TensorSpec(shape=(6,))])


swish = declare_swish(MemoryEfficientSwish)
sparsemax = declare_sparsemax(Sparsemax)
sort = declare_sort(SortWithIndices)

OPS = [swish, sparsemax, sort]

# (op, the check that must catch the bug, words its report must hold: the cause named)
BUGS = [
    (declare_swish(SwishWrongTerm, "swish_wrong_term"), "gradcheck", "w.r.t. x"),
    (declare_swish(SwishSavedSigmoid, "swish_saved_sigmoid"), "gradgradcheck", "w.r.t. x"),
    (declare_sparsemax(SparsemaxRowMean, "sparsemax_row_mean"), "gradcheck", "w.r.t. z"),
    (declare_sparsemax(SparsemaxGradInPlace, "sparsemax_grad_in_place"), "isolation",
     "incoming gradient"),
    (declare_sort(SortGathered, "sort_gathered"), "gradcheck", "w.r.t. x"),
]
