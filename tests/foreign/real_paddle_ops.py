"""A Paddle PyLayer as a public project writes it (the maths ported, the code our own), verified
by a declaration of a few lines.

- LayerNorm2D: the channel layer norm of NAFNet as PaddleGAN ships it (PaddlePaddle/PaddleGAN,
  ppgan/models/generators/nafnet.py: ``LayerNormFunction``, used by ``LayerNorm2D`` in training).
  x [N, C, H, W] is normalised over the channel axis at every pixel, y = (x - mu) / sqrt(var +
  eps), then scaled and shifted per channel. Forward keeps y, var and the weight; backward is
  written by hand: with g = dy * weight, dx = (g - mean_C(g) - y * mean_C(g * y)) / sqrt(var +
  eps), dweight = sum over N, H, W of dy * y, dbias = sum over N, H, W of dy. Its backward reads
  what forward saved, not the graph, so it is first-order only (as declared). One change from
  the original: backward returns None for the inputs that need no gradient, as Paddle 3.x
  requires (PaddlePaddle/Paddle issue 72601 asks the same); the original returns all three, and
  `opsdk check` finds it fails once weight or bias is frozen (LayerNorm2DAsShipped).

BUGS: each with a bug of a class custom-backward authors report, planted in backward (or in
what forward keeps for it), with the check that must catch it and the words of its report;
tests/foreign/ported_jax_paddle_ops.py plants the same ones in the same maths ported to opsdk.
"""
from paddle.autograd import PyLayer

import opsdk
from opsdk import TensorSpec


def _per_channel(v, c):
    return v.reshape([1, c, 1, 1])


def layer_norm_2d_plain(x, weight, bias, eps=1e-6):
    """The forward, and the reference: Paddle's own autograd through it is the truth."""
    c = x.shape[1]
    mu = x.mean(axis=1, keepdim=True)
    var = (x - mu).pow(2).mean(axis=1, keepdim=True)
    y = (x - mu) / (var + eps).sqrt()
    return _per_channel(weight, c) * y + _per_channel(bias, c)


def _over_n_h_w(t):
    return t.sum(axis=[0, 2, 3])


def _needing(ctx, *grads):
    """None for the inputs that need no gradient: Paddle 3.x refuses a gradient for an input whose
    stop_gradient is True (PaddleGAN's backward returns all three: it breaks on a frozen weight
    or bias; see LayerNorm2DAsShipped)."""
    return tuple(g if need else None for g, need in zip(grads, ctx.needs))


class LayerNorm2D(PyLayer):
    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-6):
        c = x.shape[1]
        mu = x.mean(axis=1, keepdim=True)
        var = (x - mu).pow(2).mean(axis=1, keepdim=True)
        y = (x - mu) / (var + eps).sqrt()
        ctx.eps, ctx.needs = eps, [not t.stop_gradient for t in (x, weight, bias)]
        ctx.save_for_backward(y, var, weight)
        return _per_channel(weight, c) * y + _per_channel(bias, c)

    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return _needing(ctx, dx, _over_n_h_w(dy * y), _over_n_h_w(dy))


class LayerNorm2DAsShipped(LayerNorm2D):
    """The backward's return as PaddleGAN ships it: three gradients whatever needs them."""

    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return dx, _over_n_h_w(dy * y), _over_n_h_w(dy)


# --- the same op with one bug each -------------------------------------------------------------
class LayerNorm2DNoVarianceTerm(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        # BUG (missing term): y * mean(g * y), the variance's dependence on x, dropped
        dx = (g - g.mean(axis=1, keepdim=True)) / (var + ctx.eps).sqrt()
        return _needing(ctx, dx, _over_n_h_w(dy * y), _over_n_h_w(dy))


class LayerNorm2DEpsForgotten(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / var.sqrt()              # BUG (epsilon): eps left out
        return _needing(ctx, dx, _over_n_h_w(dy * y), _over_n_h_w(dy))


class LayerNorm2DScaledWeightGrad(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return _needing(ctx, dx, _over_n_h_w(g * y), _over_n_h_w(dy))  # BUG: g, not dy


class LayerNorm2DSavedYInPlace(LayerNorm2D):
    @staticmethod
    def backward(ctx, dy):
        y, var, weight = ctx.saved_tensor()
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        # BUG (in place on a saved tensor): the saved y multiplied in place, then read again
        y_term = y.multiply_((g * y).mean(axis=1, keepdim=True))
        dx = (g - y_term - mean_g) / (var + ctx.eps).sqrt()
        return _needing(ctx, dx, _over_n_h_w(dy * y), _over_n_h_w(dy))


class LayerNorm2DStashedVariance(LayerNorm2D):
    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-6):
        c = x.shape[1]
        mu = x.mean(axis=1, keepdim=True)
        var = (x - mu).pow(2).mean(axis=1, keepdim=True)
        y = (x - mu) / (var + eps).sqrt()
        ctx.eps, ctx.needs = eps, [not t.stop_gradient for t in (x, weight, bias)]
        ctx.save_for_backward(y, weight)
        LayerNorm2DStashedVariance.var = var                    # BUG: on the class, not ctx
        return _per_channel(weight, c) * y + _per_channel(bias, c)

    @staticmethod
    def backward(ctx, dy):
        y, weight = ctx.saved_tensor()
        var = LayerNorm2DStashedVariance.var                    # the last forward's, not ours
        g = dy * _per_channel(weight, dy.shape[1])
        mean_g = g.mean(axis=1, keepdim=True)
        mean_gy = (g * y).mean(axis=1, keepdim=True)
        dx = (g - y * mean_gy - mean_g) / (var + ctx.eps).sqrt()
        return _needing(ctx, dx, _over_n_h_w(dy * y), _over_n_h_w(dy))


# the declaration: what a user of PaddleGAN writes to verify it
def declare_layer_norm_2d(function, name="layer_norm_2d"):
    return opsdk.foreign_op(function.apply, framework="paddle", name=f"realpaddle.{name}",
                            inputs=[TensorSpec(shape=(2, 3, 2, 2)),
                                    TensorSpec(shape=(3,), domain=(0.5, 2.0)),
                                    TensorSpec(shape=(3,))],
                            attrs={"eps": 1e-6}, reference=layer_norm_2d_plain)


OP = declare_layer_norm_2d(LayerNorm2D)
CORRECT = [OP]
# (op, the check that must catch the bug, words its report must hold: the cause named)
BUGS = [
    # found, not planted: the backward as PaddleGAN ships it returns a gradient for a frozen
    # input (stop_gradient=True), which Paddle 3.x refuses
    (declare_layer_norm_2d(LayerNorm2DAsShipped, "layer_norm_2d_as_shipped"),
     "stop_gradient", "should return None at"),
    # missing term: dx without y * mean(g * y) (the variance's dependence on x)
    (declare_layer_norm_2d(LayerNorm2DNoVarianceTerm, "layer_norm_2d_no_variance_term"),
     "gradcheck", "w.r.t. x"),
    # epsilon: backward divides by sqrt(var), forward by sqrt(var + eps): inf on a flat pixel
    (declare_layer_norm_2d(LayerNorm2DEpsForgotten, "layer_norm_2d_eps_forgotten"),
     "special_points", "where every output is finite"),
    # wrong tensor: the weight gradient from g = dy * weight, not dy
    (declare_layer_norm_2d(LayerNorm2DScaledWeightGrad, "layer_norm_2d_scaled_weight_grad"),
     "gradcheck", "w.r.t. weight"),
    # in place on a saved tensor: backward multiplies the saved y in place, then reads it again
    (declare_layer_norm_2d(LayerNorm2DSavedYInPlace, "layer_norm_2d_saved_y_in_place"),
     "gradcheck", "backward is not deterministic"),
    # stateful: the variance kept on the class, so the last forward's is used
    (declare_layer_norm_2d(LayerNorm2DStashedVariance, "layer_norm_2d_stashed_variance"),
     "isolation", "calls interfere"),
]

# every op: opsdk check --op foreign.real_paddle_ops:OPS (from tests/)
OPS = CORRECT + [op for op, _, _ in BUGS]
