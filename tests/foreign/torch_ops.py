"""A pack of torch ops declared with opsdk.foreign_op: correct ones, and the same maths with the
bugs torch extension authors report (each bug op says which check must catch it).

Bug classes, as real projects met them:
- a wrong term in backward (a factor of the chain rule dropped);
- backward that ignores an attribute (the default value hard-coded instead of ctx.beta);
- forward writing its input in place without mark_dirty (``x.sub_(m)`` to save memory);
- backward writing the incoming gradient in place (``grad_output.mul_(...)``);
- forward returning its input (or a view of it) instead of a new tensor;
- an intermediate computed in forward saved for backward: first order right, the second
  derivative misses its dependence on x (double backward claimed);
- a kernel that reads memory in C order, ignoring strides (an extension skipping .contiguous());
- an integer-output op (max with its index) whose backward routes the gradient to the wrong place.
"""
import torch

import opsdk
from opsdk import TensorSpec

SPEC = TensorSpec(shape=(3, 4), domain=(-3.0, 3.0))


def _sigmoid_swish(x, beta):
    return x * torch.sigmoid(beta * x)


class Swish(torch.autograd.Function):
    """x * sigmoid(beta * x)."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return _sigmoid_swish(x, beta)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return dy * (s + ctx.beta * x * s * (1 - s)), None


class SwishDroppedTerm(Swish):
    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return dy * (s + x * s * (1 - s)), None      # BUG: the chain rule's beta dropped


class SwishIgnoresBeta(Swish):
    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)                           # BUG: beta = 1 hard-coded
        return dy * (s + x * s * (1 - s)), None


class SwishSavedIntermediate(torch.autograd.Function):
    """Saves sigmoid(beta x) computed in forward: backward right, its derivative in x lost."""

    @staticmethod
    def forward(ctx, x, beta=1.0):
        s = torch.sigmoid(beta * x)
        ctx.save_for_backward(x, s)                    # BUG: s is a constant to double backward
        ctx.beta = beta
        return x * s

    @staticmethod
    def backward(ctx, dy):
        x, s = ctx.saved_tensors
        return dy * (s + ctx.beta * x * s * (1 - s)), None


class CenterRows(torch.autograd.Function):
    """x minus its row mean."""

    @staticmethod
    def forward(ctx, x):
        return x - x.mean(dim=-1, keepdim=True)

    @staticmethod
    def backward(ctx, dy):
        return dy - dy.mean(dim=-1, keepdim=True)


class CenterRowsInPlace(CenterRows):
    @staticmethod
    def forward(ctx, x):
        return x.sub_(x.mean(dim=-1, keepdim=True))    # BUG: the caller's x overwritten


class CenterRowsGradInPlace(CenterRows):
    @staticmethod
    def backward(ctx, dy):
        return dy.sub_(dy.mean(dim=-1, keepdim=True))  # BUG: the incoming gradient overwritten


class Scale(torch.autograd.Function):
    """alpha * x."""

    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.alpha = alpha
        return x * alpha

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.alpha, None


class ScaleAliasing(Scale):
    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.alpha = alpha
        return x.mul_(alpha) if alpha != 1 else x      # BUG: returns (and writes) its input


def _c_order(t):
    """The tensor's memory read in C order, whatever its strides (what a kernel indexing the
    data pointer as a dense array does)."""
    return torch.as_strided(t, t.shape, torch.empty(t.shape).stride())


class RowSoftmax(torch.autograd.Function):
    """softmax over the last axis."""

    @staticmethod
    def forward(ctx, x):
        y = torch.softmax(x, dim=-1)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return y * (dy - (dy * y).sum(dim=-1, keepdim=True))


class RowSoftmaxStrides(RowSoftmax):
    @staticmethod
    def forward(ctx, x):
        y = torch.softmax(_c_order(x), dim=-1)         # BUG: strides ignored (no .contiguous())
        ctx.save_for_backward(y)
        return y


class MaxWithIndex(torch.autograd.Function):
    """The maximum of each row and where it is (an int64 output)."""

    @staticmethod
    def forward(ctx, x):
        values, index = x.max(dim=-1)
        ctx.save_for_backward(index)
        ctx.shape = x.shape
        ctx.mark_non_differentiable(index)
        return values, index

    @staticmethod
    def backward(ctx, dvalues, dindex):
        (index,) = ctx.saved_tensors
        dx = torch.zeros(ctx.shape, dtype=dvalues.dtype)
        return dx.scatter_(-1, index.unsqueeze(-1), dvalues.unsqueeze(-1))


class MaxWithIndexWrongPlace(MaxWithIndex):
    @staticmethod
    def backward(ctx, dvalues, dindex):
        (index,) = ctx.saved_tensors
        dx = torch.zeros(ctx.shape, dtype=dvalues.dtype)
        # BUG: the index of the last row used for every row
        return dx.scatter_(-1, index[-1:].expand_as(index).unsqueeze(-1), dvalues.unsqueeze(-1))


@torch.library.custom_op("opsdk_foreign_tests::sincos", mutates_args=())
def sincos(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(sin x, cos x): a torch.library custom op with two outputs."""
    return torch.sin(x), torch.cos(x)


@sincos.register_fake
def _(x):
    return torch.empty_like(x), torch.empty_like(x)


def _sincos_setup(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def _sincos_backward(ctx, dsin, dcos):
    (x,) = ctx.saved_tensors
    return dsin * torch.cos(x) - dcos * torch.sin(x)


sincos.register_autograd(_sincos_backward, setup_context=_sincos_setup)


def gather_rows(table, index, scale=1.0):
    """scale * table[index] (an integer input), plain torch autograd."""
    return scale * table[index]


def mul_add(x, w, b):
    """x * w + b: three differentiable inputs, written with torch ops (torch.library-free)."""
    return x * w + b


def swish_op(function, name, double_backward=True, beta=1.5):
    return opsdk.foreign_op(function.apply, framework="torch", name=f"torchpack.{name}",
                            inputs=[SPEC], attrs={"beta": beta}, attr_ranges={"beta": (0.5, 3.0)},
                            double_backward=double_backward,
                            reference=lambda x, beta=1.0: _sigmoid_swish(x, beta))


CORRECT = [
    swish_op(Swish, "swish"),
    opsdk.foreign_op(CenterRows.apply, framework="torch", name="torchpack.center_rows",
                     inputs=[SPEC], double_backward=True),
    opsdk.foreign_op(Scale.apply, framework="torch", name="torchpack.scale", inputs=[SPEC],
                     attrs={"alpha": 2.0}, double_backward=True),
    opsdk.foreign_op(RowSoftmax.apply, framework="torch", name="torchpack.row_softmax",
                     inputs=[SPEC], double_backward=True),
    opsdk.foreign_op(MaxWithIndex.apply, framework="torch", name="torchpack.max_with_index",
                     inputs=[TensorSpec(shape=(3, 5))]),
    opsdk.foreign_op(gather_rows, framework="torch", name="torchpack.gather_rows",
                     inputs=[TensorSpec(shape=(5, 3)),
                             TensorSpec(shape=(4,), integer=True, high=5)],
                     attrs={"scale": 0.5}, double_backward=True),
    opsdk.foreign_op(sincos, framework="torch", name="torchpack.sincos", inputs=[SPEC],
                     double_backward=True),
    opsdk.foreign_op(mul_add, framework="torch", name="torchpack.mul_add",
                     inputs=[SPEC, SPEC, SPEC], double_backward=True),
]

# (op, the check that must fail, words its report must hold: the cause named)
BUGS = [
    (swish_op(SwishDroppedTerm, "swish_dropped_term"), "gradcheck",
     "output (shape [3, 4], float64) w.r.t. x"),
    # declared at beta = 1, the one value where the bug is silent: the verifier moves it
    (swish_op(SwishIgnoresBeta, "swish_ignores_beta", beta=1.0), "gradcheck", "beta="),
    (swish_op(SwishSavedIntermediate, "swish_saved_intermediate"), "gradgradcheck",
     "grad_x (shape [3, 4], float64) w.r.t. x"),
    (opsdk.foreign_op(CenterRowsInPlace.apply, framework="torch",
                      name="torchpack.center_rows_in_place", inputs=[SPEC]),
     "isolation", "in place"),
    (opsdk.foreign_op(CenterRowsGradInPlace.apply, framework="torch",
                      name="torchpack.center_rows_grad_in_place", inputs=[SPEC]),
     "isolation", "incoming gradient"),
    (opsdk.foreign_op(ScaleAliasing.apply, framework="torch", name="torchpack.scale_aliasing",
                      inputs=[SPEC], attrs={"alpha": 2.0}),
     "isolation", "shares memory"),
    (opsdk.foreign_op(RowSoftmaxStrides.apply, framework="torch",
                      name="torchpack.row_softmax_strides", inputs=[SPEC]),
     "layout", "transposed"),
    (opsdk.foreign_op(MaxWithIndexWrongPlace.apply, framework="torch",
                      name="torchpack.max_with_index_wrong_place",
                      inputs=[TensorSpec(shape=(3, 5))]),
     "gradcheck", "output (shape [3], float64) w.r.t. x"),
]

# every op of the pack: opsdk check --op foreign.torch_ops:OPS (from tests/)
OPS = CORRECT + [op for op, _, _ in BUGS]
