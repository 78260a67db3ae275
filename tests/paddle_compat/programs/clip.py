"""Gradient clipping (item 11: ClipGradByGlobalNorm leaves the clipped values in .grad)."""
import numpy as np

from ..harness import attempt
from . import program


def _two_params(paddle, wv=3.0, bv=1.0):
    init = paddle.nn.initializer.Constant
    w = paddle.create_parameter([2], "float32", default_initializer=init(wv))
    b = paddle.create_parameter([1], "float32", default_initializer=init(bv))
    return w, b


def _step(paddle, opt_cls, clip, **kw):
    w, b = _two_params(paddle)
    opt = opt_cls(learning_rate=0.1, parameters=[w, b], grad_clip=clip, **kw)
    ((w * w * 5).sum() + (b * 4).sum()).backward()
    raw = w.grad.numpy()
    opt.step()
    return {"raw": raw, "w_grad": w.grad, "b_grad": b.grad, "w": w, "b": b}


@program(item="11")
def global_norm_clip_leaves_clipped_grad_sgd(paddle):
    return _step(paddle, paddle.optimizer.SGD, paddle.nn.ClipGradByGlobalNorm(1.0))


@program(item="11")
def global_norm_clip_leaves_clipped_grad_adam(paddle):
    return _step(paddle, paddle.optimizer.Adam, paddle.nn.ClipGradByGlobalNorm(1.0))


@program(item="11")
def global_norm_clip_leaves_clipped_grad_momentum(paddle):
    return _step(paddle, paddle.optimizer.Momentum, paddle.nn.ClipGradByGlobalNorm(1.0))


@program(item="11")
def global_norm_clip_below_threshold_unchanged(paddle):
    return _step(paddle, paddle.optimizer.SGD, paddle.nn.ClipGradByGlobalNorm(1000.0))


@program(item="11")
def norm_clip_leaves_raw_grad(paddle):
    return _step(paddle, paddle.optimizer.SGD, paddle.nn.ClipGradByNorm(1.0))


@program(item="11")
def value_clip_leaves_raw_grad(paddle):
    return _step(paddle, paddle.optimizer.SGD, paddle.nn.ClipGradByValue(0.5))


@program(item="11")
def value_clip_with_min(paddle):
    return _step(paddle, paddle.optimizer.Adam, paddle.nn.ClipGradByValue(max=2.0, min=-1.0))


@program(item="11")
def global_norm_clip_skips_need_clip_false(paddle):
    w = paddle.create_parameter([2], "float32",
                                attr=paddle.ParamAttr(need_clip=False),
                                default_initializer=paddle.nn.initializer.Constant(3.0))
    b = paddle.create_parameter([1], "float32",
                                default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w, b],
                               grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    ((w * w * 5).sum() + (b * 40).sum()).backward()
    opt.step()
    return {"w_grad": w.grad, "b_grad": b.grad, "w": w, "b": b}


@program(item="11")
def global_norm_clip_two_steps(paddle):
    w, b = _two_params(paddle)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w, b],
                                grad_clip=paddle.nn.ClipGradByGlobalNorm(2.0))
    grads = []
    for _ in range(2):
        ((w * w * 5).sum() + (b * 4).sum()).backward()
        opt.step()
        grads.append(w.grad.numpy())
        opt.clear_grad()
    return {"grads": grads, "w": w, "b": b}


@program(item="11")
def clip_called_directly(paddle):
    w, b = _two_params(paddle)
    ((w * w * 5).sum() + (b * 4).sum()).backward()
    out = {}
    for name, clip in (("global", paddle.nn.ClipGradByGlobalNorm(1.0)),
                       ("norm", paddle.nn.ClipGradByNorm(1.0)),
                       ("value", paddle.nn.ClipGradByValue(0.5))):
        pairs = clip([(w, w.grad), (b, b.grad)])
        out[name] = [g.numpy() for _, g in pairs]
    out["after"] = [w.grad.numpy(), b.grad.numpy()]
    return out


@program(item="11")
def clip_grad_norm_in_place(paddle):
    w, b = _two_params(paddle)
    ((w * w * 5).sum() + (b * 4).sum()).backward()
    total = paddle.nn.utils.clip_grad_norm_([w, b], max_norm=1.0)
    return {"total": total, "w_grad": w.grad, "b_grad": b.grad}


@program(item="11")
def clip_grad_norm_inf_and_errors(paddle):
    w, b = _two_params(paddle)
    ((w * w * 5).sum() + (b * 4).sum()).backward()
    total = paddle.nn.utils.clip_grad_norm_([w, b], max_norm=2.0, norm_type=float("inf"))
    x = paddle.to_tensor(np.ones([1, 2], dtype="float32"))
    x.grad = paddle.full([1, 2], float("inf"))
    err = attempt(lambda: paddle.nn.utils.clip_grad_norm_(x, max_norm=2, norm_type=2,
                                                          error_if_nonfinite=True))
    neg = attempt(lambda: paddle.nn.utils.clip_grad_norm_(w, max_norm=2,
                                                          norm_type=float("-inf")))
    return {"total": total, "w_grad": w.grad, "err": err, "neg": neg}


@program(item="11")
def clip_grad_value_in_place(paddle):
    w, b = _two_params(paddle)
    ((w * w * 5).sum() + (b * 4).sum()).backward()
    paddle.nn.utils.clip_grad_value_([w, b], clip_value=2.5)
    return {"w_grad": w.grad, "b_grad": b.grad}


@program(item="11", differs=(["zero"], "opsdk refuses clip_norm <= 0 (it would zero every "
                                       "gradient, or give nan); Paddle accepts it"))
def global_norm_clip_nonpositive_raises(paddle):
    return {"zero": attempt(lambda: paddle.nn.ClipGradByGlobalNorm(0.0) and None)}
