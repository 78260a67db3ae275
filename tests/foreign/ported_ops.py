"""The real ops of tests/foreign (real_torch_ops.py, the LLTM C++ extension) ported to opsdk: the
same maths as opsdk PyLayers over opsdk's ops, with the same bugs planted at the same places.
What `opsdk check` catches here is what the foreign route must catch at least as often.
"""
import opsdk
import opsdk.nn.functional as F
from opsdk import TensorSpec

from . import lltm_ops, real_torch_ops
from .ported_jax_paddle_ops import port_as_declared as _port


class Swish(opsdk.PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * opsdk.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(x)
        return grad * s * (1 + x * (1 - s))


class SwishWrongTerm(Swish):
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensor()
        s = opsdk.sigmoid(x)
        return grad * s * (1 + x * s)                  # BUG: (1 - s) written s


class SwishSavedSigmoid(Swish):
    @staticmethod
    def forward(ctx, x):
        s = opsdk.sigmoid(x)
        ctx.save_for_backward(x, s)                    # BUG: s a constant to double backward
        return x * s

    @staticmethod
    def backward(ctx, grad):
        x, s = ctx.saved_tensor()
        return grad * s * (1 + x * (1 - s))


def _threshold(z, axis):
    ranked = opsdk.sort(z, axis=axis, descending=True)
    cumulative = opsdk.cumsum(ranked, axis=axis) - 1
    shape = [1] * z.ndim
    shape[axis] = -1
    rho = opsdk.arange(1, z.shape[axis] + 1, dtype=z.dtype).reshape(shape)
    k = opsdk.sum(opsdk.cast(rho * ranked > cumulative, "int64"), axis=axis, keepdim=True)
    return opsdk.take_along_axis(cumulative, k - 1, axis=axis) / opsdk.cast(k, z.dtype), k


class Sparsemax(opsdk.PyLayer):
    @staticmethod
    def forward(ctx, z, dim=-1):
        tau, k = _threshold(z, dim)
        out = opsdk.clip(z - tau, min=0)
        ctx.dim = dim
        ctx.save_for_backward(k, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensor()
        g = opsdk.where(out != 0, grad, opsdk.zeros_like(grad))
        mean = g.sum(axis=ctx.dim, keepdim=True) / opsdk.cast(k, g.dtype)
        return opsdk.where(out != 0, g - mean, g)


class SparsemaxRowMean(Sparsemax):
    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensor()
        g = opsdk.where(out != 0, grad, opsdk.zeros_like(grad))
        mean = g.mean(axis=ctx.dim, keepdim=True)      # BUG: over the row, not the support
        return opsdk.where(out != 0, g - mean, g)


class SparsemaxGradInPlace(Sparsemax):
    @staticmethod
    def backward(ctx, grad):
        k, out = ctx.saved_tensor()
        grad[out == 0] = 0                             # BUG: no clone: the caller's gradient
        mean = grad.sum(axis=ctx.dim, keepdim=True) / opsdk.cast(k, grad.dtype)
        return opsdk.where(out != 0, grad - mean, grad)


class SortWithIndices(opsdk.PyLayer):
    @staticmethod
    def forward(ctx, x):
        values, index = opsdk.sort(x), opsdk.argsort(x)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(x, index)
        return values, index

    @staticmethod
    def backward(ctx, dvalues, dindex):
        x, index = ctx.saved_tensor()
        return opsdk.scatter(opsdk.zeros_like(x), index, dvalues)


class SortGathered(SortWithIndices):
    @staticmethod
    def backward(ctx, dvalues, dindex):
        x, index = ctx.saved_tensor()
        return dvalues[index]                          # BUG: gathered, not scattered back


def _lltm_layer(bug=None):
    """LLTM as an opsdk PyLayer, backward with ``bug`` planted as in lltm_cpp's C++ template."""

    def forward(ctx, input, weights, bias, old_h, old_cell):
        X = opsdk.concat([old_h, input], axis=1)
        gate_weights = opsdk.matmul(X, weights, transpose_y=True) + bias
        gates = opsdk.chunk(gate_weights, 3, axis=1)
        input_gate, output_gate = opsdk.sigmoid(gates[0]), opsdk.sigmoid(gates[1])
        candidate = F.elu(gates[2])
        new_cell = old_cell + candidate * input_gate
        ctx.save_for_backward(new_cell, input_gate, output_gate, candidate, X, gate_weights,
                              weights)
        return opsdk.tanh(new_cell) * output_gate, new_cell

    def backward(ctx, grad_h, grad_cell):
        new_cell, input_gate, output_gate, candidate, X, gate_weights, weights = \
            ctx.saved_tensor()
        tanh_cell = new_cell.tanh_() if bug == "saved_written" else opsdk.tanh(new_cell)
        tanh_grad = 1 - tanh_cell if bug == "tanh_term" else 1 - tanh_cell * tanh_cell
        d_new_cell = tanh_grad * output_gate * grad_h
        if bug != "grad_cell_dropped":
            d_new_cell = d_new_cell + grad_cell
        gates = opsdk.chunk(gate_weights, 3, axis=1)
        sig_in, sig_out = opsdk.sigmoid(gates[0]), opsdk.sigmoid(gates[1])
        elu_grad = opsdk.where(gates[2] > 0, opsdk.ones_like(gates[2]), opsdk.exp(gates[2]))
        d_gates = opsdk.concat([candidate * d_new_cell * sig_in * (1 - sig_in),
                                tanh_cell * grad_h * sig_out * (1 - sig_out),
                                input_gate * d_new_cell * elu_grad], axis=1)
        d_weights = opsdk.matmul(d_gates, X, transpose_x=True)
        d_bias = d_gates.mean(axis=0, keepdim=True) if bug == "bias_mean" else \
            d_gates.sum(axis=0, keepdim=True)
        d_X = opsdk.matmul(d_gates, weights)
        state = grad_h.shape[1]
        return d_X[:, state:], d_weights, d_bias, d_X[:, :state], d_new_cell

    return type("LLTM" if bug is None else f"LLTM_{bug}", (opsdk.PyLayer,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        "once_differentiable": True, "__module__": __name__})  # as the extension: no 2nd order


def _lltm_reference(input, weights, bias, old_h, old_cell):
    gates = opsdk.chunk(opsdk.matmul(opsdk.concat([old_h, input], axis=1), weights,
                                     transpose_y=True) + bias, 3, axis=1)
    new_cell = old_cell + F.elu(gates[2]) * opsdk.sigmoid(gates[0])
    return opsdk.tanh(new_cell) * opsdk.sigmoid(gates[1]), new_cell


_SWISH = {"reference": lambda x: x * opsdk.sigmoid(x)}
_LAYERS = {  # the foreign op's name: (the ported layer, register options)
    "swish": (Swish, _SWISH), "swish_wrong_term": (SwishWrongTerm, _SWISH),
    "swish_saved_sigmoid": (SwishSavedSigmoid, _SWISH),
    "sparsemax": (Sparsemax, {}), "sparsemax_row_mean": (SparsemaxRowMean, {}),
    "sparsemax_grad_in_place": (SparsemaxGradInPlace, {}),
    "sort": (SortWithIndices, {}), "sort_gathered": (SortGathered, {}),
}


def ported(foreign):
    """The opsdk port of the foreign op of tests/foreign (real_torch_ops or lltm_ops)."""
    if foreign.name.startswith("lltm"):
        bug = foreign.name[len("lltm_"):] or None
        return _port(foreign, _lltm_layer(bug), reference=_lltm_reference)
    layer, options = _LAYERS[foreign.name]
    return _port(foreign, layer, **options)


# (foreign op, the bug's name) for every planted bug of the real ops, and their correct versions
PAIRS = [(op, op.name) for op, _, _ in real_torch_ops.BUGS + lltm_ops.BUGS]
CORRECT = real_torch_ops.OPS + [lltm_ops.lltm]
