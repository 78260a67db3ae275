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


# the declarations: what a user of these projects writes to verify them
swish = opsdk.foreign_op(MemoryEfficientSwish.apply, framework="torch", name="real.swish",
                         inputs=[TensorSpec(shape=(3, 4), domain=(-4.0, 4.0))],
                         double_backward=True,
                         reference=lambda x: torch.nn.functional.silu(x))

sparsemax = opsdk.foreign_op(Sparsemax.apply, framework="torch", name="real.sparsemax",
                             inputs=[TensorSpec(shape=(3, 5))], attrs={"dim": -1},
                             double_backward=True)

sort = opsdk.foreign_op(SortWithIndices.apply, framework="torch", name="real.sort",
                        inputs=[TensorSpec(shape=(6,))])

OPS = [swish, sparsemax, sort]
