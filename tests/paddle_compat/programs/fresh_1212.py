"""Fresh differential programs (batch 1212): paddle.nn.functional and the layers as image and
sequence model code uses them, with gradients to the inputs and the weights: convolutions
(stride, padding modes and strings, dilation, groups, NHWC), pools, the normalizations in
train and eval, seeded dropout (shapes and scaling only), interpolate, pad, one_hot,
embedding, linear, normalize, cosine_similarity, losses with their reductions, activations,
label_smooth, gradient clipping and a small CNN; written without looking at opsdk (issue 26)."""
import numpy as np

from ..harness import attempt
from . import program

HIGHER_ORDER = ("docs/paddle.md, Engine: every op differentiates to every order; Paddle 3.3.1 has "
                "no kernel past some order for many ops and raises RuntimeError")
PADDING_MODE = ("docs/paddle.md, nn.functional: Conv2D's padding_mode other than zeros is not "
                "supported (a clear error)")
LAYER_NORM_X = ("docs/paddle.md, paddle.nn: Paddle 3.3.1's layer_norm gives x a gradient as if "
                "the weight were 1 when paddle.grad asks for x alone, and has no second "
                "derivative")
NLL_ABORT = ("docs/paddle.md, Engine: Paddle 3.3.1's nll_loss aborts (heap corruption) with an "
             "ignore_index that is a real class under a mean or sum reduction")


def _a(shape, scale=1.0, phase=0.3):
    """A deterministic array without ties: a sine over the flat index."""
    n = int(np.prod(shape))
    return (scale * np.sin(1.7 * np.arange(n, dtype="float64") + phase)).reshape(shape)


def _t(paddle, values, grad=True, dtype="float64"):
    return paddle.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=not grad)


def _grads(paddle, out, *xs):
    """Backward of a weighted sum (weights that break symmetry) and the grads of xs."""
    w = paddle.to_tensor(_a(out.shape, phase=1.1).astype(out.numpy().dtype))
    (out * w).sum().backward()
    return [x.grad for x in xs]


# ---------------------------------------------------------------- convolutions


@program(item="fresh")
def f12_conv2d_stride_padding_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 6, 6]))
    w = _t(paddle, _a([4, 3, 3, 3], 0.5, 0.7))
    b = _t(paddle, [0.1, -0.2, 0.3, 0.0])
    y = F.conv2d(x, w, b, stride=2, padding=1)
    gx, gw, gb = _grads(paddle, y, x, w, b)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb}


@program(item="fresh")
def f12_conv2d_same_valid_strings(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 7, 5]))
    w = _t(paddle, _a([3, 2, 3, 2], 0.5, 0.2))
    same = F.conv2d(x, w, stride=2, padding="SAME")
    valid = F.conv2d(x, w, stride=2, padding="VALID")
    gx, gw = _grads(paddle, same, x, w)
    return {"same": same, "valid": valid, "gx": gx, "gw": gw,
            "same_s1": F.conv2d(x, w, padding="SAME").shape}


@program(item="fresh")
def f12_conv2d_dilation_groups(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 4, 7, 7]))
    w = _t(paddle, _a([6, 2, 3, 3], 0.3, 0.9))
    y = F.conv2d(x, w, stride=1, padding=2, dilation=2, groups=2)
    gx, gw = _grads(paddle, y, x, w)
    return {"y": y, "gx": gx, "gw": gw}


@program(item="fresh")
def f12_conv2d_nhwc_matches_nchw(paddle):
    F = paddle.nn.functional
    xn = _a([2, 5, 4, 3])
    x = _t(paddle, xn)
    w = _t(paddle, _a([2, 3, 2, 3], 0.4))
    y = F.conv2d(x, w, padding=[1, 0], data_format="NHWC")
    ref = F.conv2d(paddle.to_tensor(xn.transpose(0, 3, 1, 2)), w.detach(), padding=[1, 0])
    gx, gw = _grads(paddle, y, x, w)
    return {"y": y, "same_as_nchw": np.allclose(y.numpy().transpose(0, 3, 1, 2), ref.numpy()),
            "gx": gx, "gw": gw}


@program(item="fresh")
def f12_conv1d_stride_padding_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 9]))
    w = _t(paddle, _a([4, 3, 3], 0.5))
    b = _t(paddle, [1.0, 0.0, -1.0, 0.5])
    y = F.conv1d(x, w, b, stride=2, padding=[1], dilation=1)
    gx, gw, gb = _grads(paddle, y, x, w, b)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb}


@program(item="fresh")
def f12_conv1d_nlc_same_float32(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 8, 2]), dtype="float32")
    w = _t(paddle, _a([3, 2, 4], 0.5), dtype="float32")
    y = F.conv1d(x, w, padding="same", data_format="NLC")
    v = F.conv1d(x, w, padding="valid", data_format="NLC")
    gx, gw = _grads(paddle, y, x, w)
    return {"y": y, "valid": v, "gx": gx, "gw": gw}


@program(item="fresh")
def f12_conv2d_asymmetric_padding(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 4, 4]))
    w = _t(paddle, _a([1, 1, 2, 2], 1.0, 0.1))
    four = F.conv2d(x, w, padding=[1, 0, 2, 1])
    pairs = F.conv2d(x, w, padding=[[0, 0], [0, 0], [1, 0], [2, 1]])
    gx, = _grads(paddle, four, x)
    return {"four": four, "pairs": pairs, "gx": gx}


@program(item="fresh", differs=([""], PADDING_MODE))
def f12_conv2d_layer_padding_modes(paddle):
    out = {}
    x = _t(paddle, _a([1, 2, 4, 5]))
    for mode in ("zeros", "reflect", "replicate", "circular"):
        conv = paddle.nn.Conv2D(2, 3, 3, padding=1, padding_mode=mode)
        conv.weight.set_value(_a([3, 2, 3, 3], 0.3).astype("float32"))
        conv.bias.set_value(np.array([0.1, 0.2, 0.3], "float32"))
        y = conv(x.astype("float32"))
        y.sum().backward()
        out[mode] = {"y": y, "gw": conv.weight.grad, "gb": conv.bias.grad}
    return out


@program(item="fresh")
def f12_conv2d_shape_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([1, 3, 5, 5])
    return {
        "channels": attempt(F.conv2d, x, paddle.ones([2, 4, 3, 3])),
        "groups": attempt(F.conv2d, x, paddle.ones([2, 1, 3, 3]), groups=2),
        "rank3": attempt(F.conv2d, paddle.ones([3, 5, 5]), paddle.ones([2, 3, 3, 3])),
        "bad_string": attempt(F.conv2d, x, paddle.ones([2, 3, 3, 3]), padding="FULL"),
        "bad_format": attempt(F.conv2d, x, paddle.ones([2, 3, 3, 3]), data_format="NWHC"),
    }


@program(item="fresh")
def f12_conv2d_second_order(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 4, 4]))
    w = _t(paddle, _a([2, 2, 3, 3], 0.5))
    y = F.conv2d(x, w, padding=1)
    gx, = paddle.grad((y * y).sum(), x, create_graph=True)
    gw2, gxx = paddle.grad((gx * gx).sum(), [w, x])
    return {"gx": gx, "gw2": gw2, "gxx": gxx}


@program(item="fresh")
def f12_conv2d_transpose_output_size(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 3, 3]))
    w = _t(paddle, _a([2, 3, 3, 3], 0.5))
    y = F.conv2d_transpose(x, w, stride=2, padding=1)
    y2 = F.conv2d_transpose(x, w, stride=2, padding=1, output_size=[6, 6])
    gx, gw = _grads(paddle, y2, x, w)
    return {"y": y, "y2": y2, "gx": gx, "gw": gw}


@program(item="fresh")
def f12_conv1d_layer_no_bias_int_error(paddle):
    conv = paddle.nn.Conv1D(2, 2, 2, bias_attr=False)
    conv.weight.set_value(_a([2, 2, 2]).astype("float32"))
    x = paddle.to_tensor(_a([1, 2, 4]).astype("float32"), stop_gradient=False)
    y = conv(x)
    y.mean().backward()
    return {"bias": conv.bias is None, "y": y, "gx": x.grad, "gw": conv.weight.grad,
            "n_params": len(conv.parameters()),
            "int_input": attempt(lambda: conv(paddle.ones([1, 2, 4], dtype="int64")).dtype)}


# ---------------------------------------------------------------- pools


@program(item="fresh")
def f12_max_pool2d_grads_and_mask(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 5, 5]))
    y, mask = F.max_pool2d(x, 2, stride=2, return_mask=True)
    gx, = _grads(paddle, y, x)
    return {"y": y, "mask": mask, "gx": gx,
            "ceil": F.max_pool2d(x.detach(), 2, stride=2, ceil_mode=True)}


@program(item="fresh")
def f12_max_pool2d_padding_overlap(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 4, 4]))
    y = F.max_pool2d(x, kernel_size=3, stride=1, padding=1)
    gx, = _grads(paddle, y, x)
    return {"y": y, "gx": gx, "same": F.max_pool2d(x.detach(), 2, 2, padding="SAME").shape}


@program(item="fresh")
def f12_avg_pool2d_exclusive_and_divisor(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 4, 5]))
    ex = F.avg_pool2d(x, 3, stride=2, padding=1)
    inc = F.avg_pool2d(x, 3, stride=2, padding=1, exclusive=False)
    div = F.avg_pool2d(x, 2, divisor_override=3)
    gx, = _grads(paddle, ex + inc, x)
    return {"ex": ex, "inc": inc, "div": div, "gx": gx}


@program(item="fresh")
def f12_pool1d_ceil_and_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 2, 7]))
    mx = F.max_pool1d(x, 3, stride=2, ceil_mode=True)
    av = F.avg_pool1d(x, 3, stride=2, padding=1)
    gx, = _grads(paddle, paddle.concat([mx, av * 0.5], axis=-1), x)
    return {"mx": mx, "av": av, "gx": gx, "floor": F.max_pool1d(x.detach(), 3, 2).shape}


@program(item="fresh")
def f12_adaptive_avg_pool2d_uneven(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 7, 5]))
    y = F.adaptive_avg_pool2d(x, 3)
    y2 = F.adaptive_avg_pool2d(x.detach(), [None, 2])
    gx, = _grads(paddle, y, x)
    layer = paddle.nn.AdaptiveAvgPool2D(1)
    return {"y": y, "y2": y2, "gx": gx, "gap": layer(x.detach())}


@program(item="fresh")
def f12_adaptive_max_pool2d_mask(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 5, 6]))
    y, idx = F.adaptive_max_pool2d(x, [2, 3], return_mask=True)
    gx, = _grads(paddle, y, x)
    return {"y": y, "idx": idx, "gx": gx}


@program(item="fresh")
def f12_adaptive_pool1d(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 10]))
    a = F.adaptive_avg_pool1d(x, 4)
    m = F.adaptive_max_pool1d(x, 3)
    gx, = _grads(paddle, paddle.concat([a, m], axis=-1), x)
    return {"a": a, "m": m, "gx": gx}


@program(item="fresh")
def f12_pool2d_nhwc_and_layers(paddle):
    F = paddle.nn.functional
    xn = _a([1, 4, 4, 3])
    x = _t(paddle, xn)
    y = F.max_pool2d(x, 2, data_format="NHWC")
    ref = F.max_pool2d(paddle.to_tensor(xn.transpose(0, 3, 1, 2)), 2)
    av = paddle.nn.AvgPool2D(2, data_format="NHWC")(x)
    gx, = _grads(paddle, y + av, x)
    return {"y": y, "matches": np.allclose(y.numpy().transpose(0, 3, 1, 2), ref.numpy()),
            "av": av, "gx": gx}


@program(item="fresh")
def f12_pool_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([1, 1, 4, 4])
    return {
        "rank3_pool2d": attempt(F.max_pool2d, paddle.ones([1, 4, 4]), 2),
        "bad_format": attempt(F.avg_pool2d, x, 2, data_format="NCWH"),
        "zero_kernel": attempt(F.max_pool2d, x, 0),
        "adaptive_rank": attempt(F.adaptive_avg_pool2d, paddle.ones([4, 4]), 2),
    }


# ---------------------------------------------------------------- normalization


def _bn2d(paddle, c, **kw):
    bn = paddle.nn.BatchNorm2D(c, **kw)
    bn.weight.set_value(np.linspace(0.5, 1.5, c).astype("float32"))
    bn.bias.set_value(np.linspace(-0.2, 0.2, c).astype("float32"))
    return bn


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_batch_norm2d_train_running_stats(paddle):
    bn = _bn2d(paddle, 3, momentum=0.8)
    x = _t(paddle, _a([4, 3, 2, 2], 2.0) + 1.0, dtype="float32")
    y = bn(x)
    gx, gw, gb = _grads(paddle, y, x, bn.weight, bn.bias)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb, "mean": bn._mean, "var": bn._variance,
            "training": bn.training}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_batch_norm2d_eval_uses_running(paddle):
    bn = _bn2d(paddle, 2)
    x = _t(paddle, _a([3, 2, 2, 2], 1.5) + 0.5, dtype="float32")
    bn(x.detach())
    bn(x.detach() * 2)
    bn.eval()
    y = bn(x)
    gx, gw = _grads(paddle, y, x, bn.weight)
    return {"y": y, "gx": gx, "gw": gw, "mean": bn._mean, "var": bn._variance}


@program(item="fresh", rtol=1e-5, atol=1e-6)
def f12_batch_norm_functional_inplace_stats(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([5, 3]) * 2)
    rm = paddle.to_tensor(np.zeros(3))
    rv = paddle.to_tensor(np.ones(3))
    w = _t(paddle, [1.0, 2.0, 0.5])
    b = _t(paddle, [0.0, 0.1, 0.2])
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.9)
    gx, gw, gb = _grads(paddle, y, x, w, b)
    ev = F.batch_norm(x.detach(), rm, rv, w.detach(), b.detach(), training=False)
    return {"y": y, "rm": rm, "rv": rv, "gx": gx, "gw": gw, "gb": gb, "eval": ev}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_batch_norm1d_ncl_and_nhwc(paddle):
    bn1 = paddle.nn.BatchNorm1D(2)
    x1 = _t(paddle, _a([3, 2, 4]), dtype="float32")
    y1 = bn1(x1)
    g1, = _grads(paddle, y1, x1)
    bn2 = _bn2d(paddle, 3, data_format="NHWC")
    x2 = _t(paddle, _a([2, 2, 2, 3], 1.0, 0.9), dtype="float32")
    y2 = bn2(x2)
    g2, gw2 = _grads(paddle, y2, x2, bn2.weight)
    return {"y1": y1, "g1": g1, "m1": bn1._mean, "y2": y2, "g2": g2, "gw2": gw2,
            "m2": bn2._mean, "v2": bn2._variance}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_batch_norm_use_global_stats(paddle):
    bn = paddle.nn.BatchNorm2D(2, use_global_stats=True)
    bn._mean.set_value(np.array([0.5, -0.5], "float32"))
    bn._variance.set_value(np.array([4.0, 0.25], "float32"))
    x = _t(paddle, _a([2, 2, 1, 3]), dtype="float32")
    y = bn(x)
    gx, = _grads(paddle, y, x)
    return {"y": y, "gx": gx, "mean_after": bn._mean, "training": bn.training}


@program(item="fresh")
def f12_layer_norm_grads(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 4]) * 3)
    w = _t(paddle, _a([12], 0.5) + 1)
    b = _t(paddle, _a([12], 0.1))
    y = F.layer_norm(x, [3, 4], w, b, epsilon=1e-5)
    gx, gw, gb = _grads(paddle, y, x, w, b)
    y1 = F.layer_norm(x.detach(), 4)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb, "last_only": y1}


@program(item="fresh", differs=(["gx", "gxx"], LAYER_NORM_X), rtol=1e-4,
         atol=1e-5)
def f12_layer_norm_layer_second_order(paddle):
    ln = paddle.nn.LayerNorm(4)
    ln.weight.set_value(np.array([1.0, 0.5, 2.0, 1.5], "float32"))
    x = _t(paddle, _a([2, 4]) * 2, dtype="float32")
    y = ln(x)
    gx, = paddle.grad((y ** 3).sum(), x)

    def second():
        g, = paddle.grad((ln(x) ** 3).sum(), x, create_graph=True)
        return paddle.grad(g.sum(), x)[0]
    return {"y": y, "gx": gx, "gxx": attempt(second), "shape": ln.weight.shape}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_group_norm_grads(paddle):
    gn = paddle.nn.GroupNorm(num_groups=2, num_channels=4)
    gn.weight.set_value(np.array([1.0, 2.0, 0.5, 1.5], "float32"))
    gn.bias.set_value(np.array([0.0, 0.1, -0.1, 0.2], "float32"))
    x = _t(paddle, _a([2, 4, 3, 2]) * 2, dtype="float32")
    y = gn(x)
    gx, gw, gb = _grads(paddle, y, x, gn.weight, gn.bias)
    f = paddle.nn.functional.group_norm(x.detach(), 4)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb, "per_channel": f}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_instance_norm_grads(paddle):
    inn = paddle.nn.InstanceNorm2D(3)
    x = _t(paddle, _a([2, 3, 2, 3]) * 2 + 1, dtype="float32")
    y = inn(x)
    gx, gs = _grads(paddle, y, x, inn.scale)
    inn.eval()
    ev = inn(x.detach())
    f = paddle.nn.functional.instance_norm(x.detach()[:, :, 0])
    return {"y": y, "gx": gx, "gscale": gs, "eval_same": np.allclose(ev.numpy(), y.numpy()),
            "f1d": f}


@program(item="fresh")
def f12_norm_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([2, 4, 3])
    return {
        "group_not_divisible": attempt(lambda: paddle.nn.GroupNorm(3, 4)(x)),
        "layer_norm_shape": attempt(F.layer_norm, x, [4, 4]),
        "bn_channels": attempt(lambda: paddle.nn.BatchNorm1D(3)(x)),
        "bn_bad_format": attempt(lambda: paddle.nn.BatchNorm2D(4, data_format="NWC")),
    }


# ---------------------------------------------------------------- dropout


@program(item="fresh")
def f12_dropout_upscale_train_stats(paddle):
    F = paddle.nn.functional
    x = _t(paddle, np.full([40, 50], 3.0), dtype="float32")
    y = F.dropout(x, p=0.4)
    y.sum().backward()
    yn, gn = y.numpy(), x.grad.numpy()
    kept = yn != 0
    return {"shape": y.shape, "dtype": str(y.dtype).split(".")[-1],
            "kept_scaled": bool(np.allclose(yn[kept], 3.0 / 0.6)),
            "frac_ok": bool(abs(kept.mean() - 0.6) < 0.05),
            "grad_matches_mask": bool(np.allclose(gn, kept / 0.6))}


@program(item="fresh")
def f12_dropout_downscale_in_infer(paddle):
    F = paddle.nn.functional
    x = paddle.full([30, 30], 2.0)
    tr = F.dropout(x, p=0.25, mode="downscale_in_infer").numpy()
    ev = F.dropout(x, p=0.25, training=False, mode="downscale_in_infer")
    up_ev = F.dropout(x, p=0.25, training=False)
    return {"train_values": sorted(set(np.round(tr.ravel(), 5).tolist())), "eval": ev,
            "up_eval": up_ev, "frac_ok": bool(abs((tr != 0).mean() - 0.75) < 0.06)}


@program(item="fresh")
def f12_dropout_p_edges(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([3, 4]))
    zero = F.dropout(x, p=0.0)
    one = F.dropout(x, p=1.0)
    (zero.sum() + one.sum()).backward()
    return {"zero": zero, "one": one, "gx": x.grad,
            "bad_p": attempt(F.dropout, x.detach(), p=1.5),
            "bad_mode": attempt(F.dropout, x.detach(), p=0.5, mode="scale")}


@program(item="fresh")
def f12_dropout_axis_and_layer_eval(paddle):
    F = paddle.nn.functional
    x = paddle.ones([8, 20])
    y = F.dropout(x, p=0.5, axis=0).numpy()
    rows_uniform = all(len(set(r.tolist())) == 1 for r in y)
    layer = paddle.nn.Dropout(0.5)
    layer.eval()
    ev = layer(x)
    return {"rows_uniform": rows_uniform, "values": sorted(set(y.ravel().tolist())),
            "eval": ev, "training": layer.training}


@program(item="fresh")
def f12_dropout2d_whole_channels(paddle):
    F = paddle.nn.functional
    x = paddle.ones([6, 10, 3, 3])
    y = F.dropout2d(x, p=0.5).numpy()
    per = y.reshape(60, 9)
    whole = all(len(set(r.tolist())) == 1 for r in per)
    ev = paddle.nn.Dropout2D(0.5)
    ev.eval()
    return {"shape": list(y.shape), "whole_channels": whole,
            "values": sorted(set(y.ravel().tolist())), "eval": ev(x)}


@program(item="fresh")
def f12_alpha_dropout_eval_and_stats(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.random.RandomState(0).randn(200, 100).astype("float32"))
    y = F.alpha_dropout(x, p=0.2)
    ev = F.alpha_dropout(x, p=0.2, training=False)
    yn = y.numpy()
    return {"shape": y.shape, "eval_identity": bool(np.array_equal(ev.numpy(), x.numpy())),
            "mean_ok": bool(abs(yn.mean()) < 0.1), "std_ok": bool(abs(yn.std() - 1) < 0.1),
            "n_distinct_dropped": bool((np.isclose(yn, yn.min())).mean() > 0.1)}


# ---------------------------------------------------------------- interpolate / upsample


@program(item="fresh")
def f12_interpolate_nearest_scale(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 2, 2, 3]))
    y = F.interpolate(x, scale_factor=2, mode="nearest")
    y2 = F.interpolate(x.detach(), size=[3, 5], mode="nearest")
    gx, = _grads(paddle, y, x)
    return {"y": y, "y2": y2, "gx": gx}


@program(item="fresh")
def f12_interpolate_bilinear_align_corners(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 3, 3]))
    a = F.interpolate(x, size=[5, 4], mode="bilinear", align_corners=True)
    b = F.interpolate(x, size=[5, 4], mode="bilinear", align_corners=False)
    c = F.interpolate(x, size=[5, 4], mode="bilinear", align_corners=False, align_mode=1)
    gx, = _grads(paddle, a + b + c, x)
    return {"a": a, "b": b, "c": c, "gx": gx}


@program(item="fresh")
def f12_interpolate_bicubic_and_area(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 1, 4, 4]))
    cub = F.interpolate(x, scale_factor=[1.5, 2], mode="bicubic")
    area = F.interpolate(x, size=[2, 3], mode="area")
    gx, = _grads(paddle, cub, x)
    return {"cub": cub, "area": area, "gx": gx}


@program(item="fresh")
def f12_interpolate_linear_1d_nwc(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 4, 3]))
    y = F.interpolate(x, size=[7], mode="linear", data_format="NWC")
    y2 = F.interpolate(x.detach(), scale_factor=0.5, mode="linear", align_corners=True)
    gx, = _grads(paddle, y, x)
    return {"y": y, "y2": y2, "gx": gx}


@program(item="fresh")
def f12_upsample_layers(paddle):
    x = _t(paddle, _a([1, 1, 2, 2]), dtype="float32")
    up = paddle.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
    nn2 = paddle.nn.UpsamplingNearest2D(scale_factor=2)
    bl = paddle.nn.UpsamplingBilinear2D(size=[3, 3])
    y = up(x) + nn2(x)
    gx, = _grads(paddle, y, x)
    return {"up": up(x), "nn": nn2(x), "bl": bl(x), "gx": gx}


@program(item="fresh")
def f12_interpolate_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([1, 1, 4, 4])
    return {
        "neither": attempt(F.interpolate, x),
        "both": attempt(F.interpolate, x, size=[2, 2], scale_factor=2),
        "linear_on_4d": attempt(F.interpolate, x, size=[8], mode="linear"),
        "bad_mode": attempt(F.interpolate, x, size=[2, 2], mode="cubic"),
        "nearest_align": attempt(F.interpolate, x, size=[2, 2], mode="nearest",
                                 align_corners=True),
    }


# ---------------------------------------------------------------- pad


@program(item="fresh")
def f12_pad_modes_grads(paddle):
    F = paddle.nn.functional
    out = {}
    for mode in ("constant", "reflect", "replicate", "circular"):
        x = _t(paddle, _a([1, 1, 3, 4]))
        y = F.pad(x, [2, 1, 1, 2], mode=mode, value=0.5)
        gx, = _grads(paddle, y, x)
        out[mode] = {"y": y, "gx": gx}
    return out


@program(item="fresh")
def f12_pad_constant_full_length(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3]))
    left = F.pad(x, [1, 0, 0, 2], value=-1.0)
    right = F.pad(x, [1, 0, 0, 2], value=-1.0, pad_from_left_axis=False)
    x3 = paddle.to_tensor(np.arange(6).reshape(1, 2, 3))
    gx, = _grads(paddle, left, x)
    return {"left": left, "right": right, "gx": gx, "int": F.pad(x3, [1, 1], value=9)}


@program(item="fresh")
def f12_pad_nlc_reflect_and_layer(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([1, 4, 2]))
    y = F.pad(x, [2, 1], mode="reflect", data_format="NLC")
    gx, = _grads(paddle, y, x)
    layer = paddle.nn.Pad2D([1, 1, 0, 1], mode="replicate")
    return {"y": y, "gx": gx, "layer": layer(paddle.to_tensor(_a([1, 1, 2, 2]))),
            "zero": paddle.nn.ZeroPad2D(1)(paddle.ones([1, 1, 1, 1]))}


@program(item="fresh")
def f12_pad_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([1, 1, 3, 3])
    return {
        "reflect_too_big": attempt(F.pad, x, [3, 0, 0, 0], mode="reflect"),
        "odd_length": attempt(F.pad, x, [1, 1, 1]),
        "bad_mode": attempt(F.pad, x, [1, 1, 1, 1], mode="edge"),
        "reflect_2d": attempt(F.pad, paddle.ones([3, 3]), [1, 1], mode="reflect"),
    }


# ---------------------------------------------------------------- one_hot, embedding, linear


@program(item="fresh")
def f12_one_hot_shapes_and_errors(paddle):
    F = paddle.nn.functional
    lab = paddle.to_tensor([[1, 0], [3, 2]], dtype="int64")
    oh = F.one_hot(lab, num_classes=4)
    auto = F.one_hot(paddle.to_tensor([0, 2]), num_classes=-1)
    scalar = F.one_hot(paddle.to_tensor(1), 3)
    empty = F.one_hot(paddle.to_tensor(np.zeros([0], "int64")), 3)
    return {"oh": oh, "auto": auto, "scalar": scalar, "empty": empty,
            "float_label": attempt(F.one_hot, paddle.to_tensor([1.0]), 3)}


@program(item="fresh")
def f12_embedding_padding_idx_grads(paddle):
    F = paddle.nn.functional
    w = _t(paddle, _a([5, 3]))
    ids = paddle.to_tensor([[0, 2, 2], [4, 0, 1]])
    y = F.embedding(ids, w, padding_idx=0)
    gw, = _grads(paddle, y, w)
    neg = F.embedding(ids, w.detach(), padding_idx=-1)
    return {"y": y, "gw": gw, "neg": neg,
            "oob": attempt(lambda: F.embedding(paddle.to_tensor([5]), w.detach()).numpy())}


@program(item="fresh")
def f12_embedding_layer_weight_grad(paddle):
    emb = paddle.nn.Embedding(6, 2, padding_idx=1)
    before = emb.weight.numpy()[1].tolist()
    emb.weight.set_value(_a([6, 2]).astype("float32"))
    ids = paddle.to_tensor([1, 3, 3, 5], dtype="int32")
    y = emb(ids)
    (y * y).sum().backward()
    return {"before_pad_row": before, "y": y, "gw": emb.weight.grad,
            "dtype": str(y.dtype).split(".")[-1]}


@program(item="fresh")
def f12_linear_functional_and_layer(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 4]))
    w = _t(paddle, _a([4, 5], 0.5))
    b = _t(paddle, _a([5], 0.1))
    y = F.linear(x, w, b)
    gx, gw, gb = _grads(paddle, y, x, w, b)
    lin = paddle.nn.Linear(4, 2)
    return {"y": y, "gx": gx, "gw": gw, "gb": gb, "layer_w": lin.weight.shape,
            "layer_b": lin.bias.shape, "bad": attempt(F.linear, x.detach(), w.detach().T)}


@program(item="fresh")
def f12_linear_0d_bias_and_1d_input(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [1.0, 2.0, 3.0])
    w = _t(paddle, _a([3, 2]))
    y = F.linear(x, w)
    y.sum().backward()
    return {"y": y, "gx": x.grad, "gw": w.grad}


# ---------------------------------------------------------------- normalize, similarity


@program(item="fresh")
def f12_normalize_p_axis_and_zero(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]])
    y2 = F.normalize(x, axis=1)
    y1 = F.normalize(x, p=1, axis=1)
    y0 = F.normalize(x, axis=0)
    gx, = _grads(paddle, y2 + y1 + y0, x)
    return {"y2": y2, "y1": y1, "y0": y0, "gx": gx}


@program(item="fresh")
def f12_cosine_similarity_broadcast_grads(paddle):
    F = paddle.nn.functional
    a = _t(paddle, _a([3, 4]))
    b = _t(paddle, _a([1, 4], 1.0, 2.0))
    s = F.cosine_similarity(a, b, axis=1)
    ga, gb = _grads(paddle, s, a, b)
    z = F.cosine_similarity(paddle.zeros([2, 3]), paddle.ones([2, 3]), axis=1)
    layer = paddle.nn.CosineSimilarity(axis=0)
    return {"s": s, "ga": ga, "gb": gb, "zero": z, "layer": layer(a.detach(), a.detach())}


@program(item="fresh")
def f12_pairwise_distance_p_keepdim(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([3, 4]))
    y = _t(paddle, _a([3, 4], 0.5, 1.0))
    d2 = F.pairwise_distance(x, y)
    d1 = F.pairwise_distance(x, y, p=1, keepdim=True)
    dinf = F.pairwise_distance(x, y, p=float("inf"))
    gx, gy = _grads(paddle, d2 + d1.squeeze(-1) + dinf, x, y)
    return {"d2": d2, "d1": d1, "dinf": dinf, "gx": gx, "gy": gy}


# ---------------------------------------------------------------- losses


@program(item="fresh")
def f12_mse_l1_smooth_reductions(paddle):
    F = paddle.nn.functional
    out = {}
    for red in ("none", "mean", "sum"):
        x = _t(paddle, _a([2, 3]) * 2)
        lab = _t(paddle, _a([2, 3], 1.0, 2.0), grad=False)
        m = F.mse_loss(x, lab, reduction=red)
        l1 = F.l1_loss(x, lab, reduction=red)
        sm = F.smooth_l1_loss(x, lab, reduction=red, delta=0.5)
        (m.sum() + l1.sum() + sm.sum()).backward()
        out[red] = {"mse": m, "l1": l1, "smooth": sm, "gx": x.grad}
    return out


@program(item="fresh")
def f12_cross_entropy_weight_ignore_index(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, _a([4, 3]) * 2)
    lab = paddle.to_tensor([0, 2, -100, 1])
    w = paddle.to_tensor(np.array([1.0, 2.0, 0.5]))
    mean = F.cross_entropy(logits, lab, weight=w)
    none = F.cross_entropy(logits, lab, weight=w, reduction="none")
    g, = paddle.grad(mean, logits)
    lab2 = paddle.to_tensor([[0], [2], [1], [1]])
    col = F.cross_entropy(logits.detach(), lab2, reduction="sum", ignore_index=1)
    return {"mean": mean, "none": none, "g": g, "col": col}


@program(item="fresh")
def f12_cross_entropy_soft_and_smoothing(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, _a([3, 4]))
    soft = paddle.nn.functional.softmax(paddle.to_tensor(_a([3, 4], 1.0, 2.0)))
    s = F.cross_entropy(logits, soft, soft_label=True)
    lab = paddle.to_tensor([1, 0, 3])
    ls = F.cross_entropy(logits, lab, label_smoothing=0.1)
    noss = F.cross_entropy(F.softmax(logits), lab, use_softmax=False, reduction="none")
    ga, = paddle.grad(s + ls, logits)
    return {"s": s, "ls": ls, "noss": noss, "ga": ga}


@program(item="fresh")
def f12_cross_entropy_axis1_image(paddle):
    F = paddle.nn.functional
    logits = _t(paddle, _a([2, 3, 2, 2]))
    lab = paddle.to_tensor(np.array([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])[:, None])
    loss = F.cross_entropy(logits, lab, axis=1)
    g, = paddle.grad(loss, logits)
    layer = paddle.nn.CrossEntropyLoss(axis=1, reduction="none")
    return {"loss": loss, "g": g, "none_shape": layer(logits.detach(), lab).shape}


@program(item="fresh")
def f12_nll_loss_and_log_softmax(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([4, 3]))
    lp = F.log_softmax(x, axis=1)
    lab = paddle.to_tensor([2, 0, 1, 1])
    w = paddle.to_tensor(np.array([0.2, 1.0, 3.0]))
    mean = F.nll_loss(lp, lab, weight=w)
    summ = F.nll_loss(lp, lab, reduction="sum")
    none = F.nll_loss(lp, lab, reduction="none", ignore_index=1)
    gx, = paddle.grad(mean + summ + none.sum(), x)
    layer = paddle.nn.NLLLoss(weight=w)
    return {"mean": mean, "sum": summ, "none": none, "gx": gx, "layer": layer(lp.detach(), lab)}


@program(item="fresh", differs=([""], NLL_ABORT), isolate=True)
def f12_nll_loss_reduced_ignore_index(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([4, 3]))
    lp = F.log_softmax(x, axis=1)
    lab = paddle.to_tensor([2, 0, 1, 1])
    loss = F.nll_loss(lp, lab, reduction="mean", ignore_index=1)
    gx, = paddle.grad(loss, x)
    return {"loss": loss, "gx": gx}


@program(item="fresh")
def f12_bce_and_logits_pos_weight(paddle):
    F = paddle.nn.functional
    z = _t(paddle, _a([2, 3]) * 3)
    y = paddle.to_tensor(np.array([[1.0, 0.0, 1.0], [0.0, 0.5, 1.0]]))
    pw = paddle.to_tensor(np.array([1.0, 2.0, 0.5]))
    a = F.binary_cross_entropy_with_logits(z, y, pos_weight=pw, reduction="none")
    p = F.sigmoid(z)
    b = F.binary_cross_entropy(p, y, weight=paddle.to_tensor(np.array([1.0, 2.0, 3.0])))
    gz, = paddle.grad(a.sum() + b, z)
    return {"a": a, "b": b, "gz": gz,
            "out_of_range": attempt(lambda: F.binary_cross_entropy(
                paddle.to_tensor([1.5]), paddle.to_tensor([1.0])).numpy())}


@program(item="fresh")
def f12_kl_div_reductions(paddle):
    F = paddle.nn.functional
    x = _t(paddle, np.log(np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])))
    t = paddle.to_tensor(np.array([[0.3, 0.3, 0.4], [0.0, 0.5, 0.5]]))
    out = {r: F.kl_div(x, t, reduction=r) for r in ("none", "mean", "batchmean", "sum")}
    lt = F.kl_div(x, paddle.log(t + 1e-3), reduction="sum", log_target=True)
    g, = paddle.grad(out["batchmean"] + lt, x)
    out.update(lt=lt, g=g)
    return out


@program(item="fresh")
def f12_pairwise_losses(paddle):
    F = paddle.nn.functional
    a = _t(paddle, [0.3, -0.5, 1.2, 0.0])
    b = _t(paddle, [0.1, 0.2, 1.5, 0.0])
    lab = paddle.to_tensor(np.array([1.0, -1.0, -1.0, 1.0]))
    mr = F.margin_ranking_loss(a, b, lab, margin=0.1, reduction="none")
    he = F.hinge_embedding_loss(a, lab, margin=1.0, reduction="sum")
    sm = F.soft_margin_loss(a, lab)
    ga, gb = paddle.grad(mr.sum() + he + sm, [a, b])
    return {"mr": mr, "he": he, "sm": sm, "ga": ga, "gb": gb}


@program(item="fresh")
def f12_cosine_embedding_and_triplet(paddle):
    F = paddle.nn.functional
    x1 = _t(paddle, _a([3, 4]))
    x2 = _t(paddle, _a([3, 4], 1.0, 1.0))
    x3 = _t(paddle, _a([3, 4], 1.0, 2.0))
    lab = paddle.to_tensor(np.array([1, -1, -1], "int64"))
    ce = F.cosine_embedding_loss(x1, x2, lab, margin=0.1)
    tr = F.triplet_margin_loss(x1, x2, x3, margin=1.0, reduction="none")
    trs = F.triplet_margin_loss(x1, x2, x3, swap=True, p=1)
    g1, g2, g3 = paddle.grad(ce + tr.sum() + trs, [x1, x2, x3])
    return {"ce": ce, "tr": tr, "trs": trs, "g1": g1, "g2": g2, "g3": g3}


@program(item="fresh")
def f12_misc_losses(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([3, 4]))
    lab = paddle.to_tensor([1, 3, 0])
    mm = F.multi_margin_loss(x, lab, margin=0.5)
    rate = _t(paddle, [0.5, 1.5, 2.0])
    counts = paddle.to_tensor(np.array([1.0, 0.0, 3.0]))
    po = F.poisson_nll_loss(rate, counts, log_input=False)
    mu = _t(paddle, [0.0, 1.0, 2.0])
    var = _t(paddle, [1.0, 0.5, 2.0])
    ga = F.gaussian_nll_loss(mu, counts, var, reduction="sum")
    g = paddle.grad(mm + po + ga, [x, rate, mu, var], allow_unused=True)
    return {"mm": mm, "po": po, "ga": ga, "g": g}


@program(item="fresh")
def f12_loss_errors(paddle):
    F = paddle.nn.functional
    x = paddle.ones([2, 3])
    return {
        "bad_reduction": attempt(F.mse_loss, x, x, reduction="avg"),
        "ce_label_range": attempt(lambda: F.cross_entropy(x, paddle.to_tensor([0, 5])).numpy()),
        "ce_label_float": attempt(lambda: F.cross_entropy(x, paddle.to_tensor([0.0, 1.0]))
                                  .numpy()),
        "mse_shape": attempt(lambda: F.mse_loss(x, paddle.ones([3, 2])).numpy()),
        "layer_bad_reduction": attempt(paddle.nn.L1Loss, reduction="max"),
    }


# ---------------------------------------------------------------- activations


@program(item="fresh")
def f12_softmax_log_softmax_axes_dtype(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 4]) * 3, dtype="float32")
    s0 = F.softmax(x, axis=0)
    s1 = F.softmax(x, axis=1, dtype="float64")
    ls = F.log_softmax(x, axis=-1)
    gx, = paddle.grad((s0 * s0).sum() + (s1 ** 3).sum() + (ls * ls).sum(), x)
    scalar = F.softmax(paddle.to_tensor(2.0))
    return {"s0": s0, "s1": s1, "ls": ls, "gx": gx, "scalar": scalar,
            "large": F.softmax(paddle.to_tensor([1000.0, 1001.0, 1002.0]))}


@program(item="fresh")
def f12_hard_activations_at_breakpoints(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-4.0, -3.0, -1.0, 0.0, 1.5, 3.0, 4.0])
    hs = F.hardswish(x)
    hsg = F.hardsigmoid(x)
    ht = F.hardtanh(x, -1.0, 1.5)
    r6 = F.relu6(x * 2)
    g = paddle.grad([hs.sum(), hsg.sum(), ht.sum(), r6.sum()], x)
    return {"hs": hs, "hsg": hsg, "ht": ht, "r6": r6, "g": g}


@program(item="fresh", differs=([f"{n}.gg" for n in ("mish", "selu", "softsign", "tanhshrink",
                                                     "log_sigmoid", "gelu")], HIGHER_ORDER))
def f12_smooth_activations_first_second(paddle):
    F = paddle.nn.functional
    out = {}
    for name in ("mish", "selu", "celu", "softsign", "tanhshrink", "log_sigmoid", "silu",
                 "softplus", "elu", "gelu"):
        f = getattr(F, name)
        x = _t(paddle, [-2.0, -0.5, 0.3, 1.7])
        y = f(x)
        g, = paddle.grad(y.sum(), x)

        def second():
            g1, = paddle.grad(f(x).sum(), x, create_graph=True)
            return paddle.grad(g1.sum(), x)[0]
        out[name] = {"y": y, "g": g, "gg": attempt(second)}
    return out


@program(item="fresh")
def f12_activation_params(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-2.0, -0.5, 0.0, 0.5, 1.0, 2.0])
    ys = {"celu": F.celu(x, alpha=0.5), "selu": F.selu(x, scale=2.0, alpha=0.5),
          "thr": F.thresholded_relu(x, threshold=0.5, value=-1.0),
          "leaky": F.leaky_relu(x, 0.2), "elu": F.elu(x, 0.3),
          "softplus": F.softplus(x, beta=2, threshold=3), "hsh": F.hardshrink(x, 0.5),
          "ssh": F.softshrink(x, 0.5)}
    g, = paddle.grad(sum(y.sum() for y in ys.values()), x)
    ys["g"] = g
    return ys


@program(item="fresh")
def f12_glu_axis_and_error(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 4, 3]))
    y = F.glu(x, axis=1)
    gx, = _grads(paddle, y, x)
    return {"y": y, "gx": gx, "last_odd": attempt(lambda: F.glu(x.detach()).shape),
            "layer": paddle.nn.GLU(axis=-2)(x.detach())}


@program(item="fresh")
def f12_prelu_shared_and_per_channel(paddle):
    F = paddle.nn.functional
    x = _t(paddle, _a([2, 3, 2, 2]))
    w1 = _t(paddle, [0.25])
    w3 = _t(paddle, [0.1, 0.2, 0.3])
    y1 = F.prelu(x, w1)
    y3 = F.prelu(x, w3)
    gx, gw1, gw3 = _grads(paddle, y1 + y3, x, w1, w3)
    xh = x.detach().transpose([0, 2, 3, 1])
    nhwc = F.prelu(xh, w3.detach(), data_format="NHWC")
    layer = paddle.nn.PReLU(num_parameters=3, init=0.1)
    return {"y1": y1, "y3": y3, "gx": gx, "gw1": gw1, "gw3": gw3, "nhwc": nhwc,
            "layer_w": layer.parameters()[0], "bad": attempt(F.prelu, x.detach(), w3.detach()[:2])}


@program(item="fresh")
def f12_rrelu_eval_and_train_range(paddle):
    F = paddle.nn.functional
    x = _t(paddle, [-3.0, -1.0, 0.0, 2.0])
    ev = F.rrelu(x, 0.1, 0.3, training=False)
    g, = paddle.grad(ev.sum(), x)
    xt = paddle.full([1000], -1.0)
    tr = F.rrelu(xt, 0.1, 0.3, training=True).numpy()
    layer = paddle.nn.RReLU(0.2, 0.4)
    layer.eval()
    return {"ev": ev, "g": g, "in_range": bool(((tr <= -0.1) & (tr >= -0.3)).all()),
            "varies": bool(tr.std() > 0.01), "layer_eval": layer(x.detach()),
            "bad": attempt(F.rrelu, x.detach(), 0.5, 0.2)}


@program(item="fresh")
def f12_activation_layers_and_int_input(paddle):
    x = paddle.to_tensor([-1.0, 0.5, 2.0])
    layers = {"hardswish": paddle.nn.Hardswish(), "mish": paddle.nn.Mish(),
              "softsign": paddle.nn.Softsign(), "tanhshrink": paddle.nn.Tanhshrink(),
              "logsig": paddle.nn.LogSigmoid(), "thr": paddle.nn.ThresholdedReLU(0.6),
              "celu": paddle.nn.CELU(0.7), "selu": paddle.nn.SELU(),
              "softmax": paddle.nn.Softmax(0), "logsoftmax": paddle.nn.LogSoftmax()}
    out = {k: v(x) for k, v in layers.items()}
    out["int_softmax"] = attempt(lambda: paddle.nn.functional.softmax(
        paddle.to_tensor([1, 2, 3])).dtype)
    out["int_relu"] = attempt(lambda: paddle.nn.functional.relu(paddle.to_tensor([-1, 2])))
    return out


@program(item="fresh")
def f12_activations_empty_and_0d(paddle):
    F = paddle.nn.functional
    e = _t(paddle, np.zeros([0, 3]))
    z = _t(paddle, 0.7)
    ye = F.hardswish(e) + F.mish(e)
    yz = F.selu(z) + F.softsign(z) + F.log_sigmoid(z)
    ye.sum().backward()
    yz.backward()
    return {"ye": ye, "yz": yz, "ge": e.grad, "gz": z.grad,
            "softmax_empty": F.softmax(e.detach(), axis=0)}


# ---------------------------------------------------------------- label_smooth, clipping


@program(item="fresh")
def f12_label_smooth_prior_and_grad(paddle):
    F = paddle.nn.functional
    lab = _t(paddle, np.eye(3)[[0, 2]][None], dtype="float32")
    a = F.label_smooth(lab)
    prior = paddle.to_tensor(np.array([[0.5, 0.3, 0.2]], "float32"))
    b = F.label_smooth(lab, prior_dist=prior, epsilon=0.2)
    g, = paddle.grad((a * a).sum() + b.sum(), lab)
    return {"a": a, "b": b, "g": g}


@program(item="fresh")
def f12_clip_grad_norm_utils(paddle):
    w = paddle.create_parameter([3], "float32")
    b = paddle.create_parameter([2], "float32")
    w.set_value(np.array([1.0, 2.0, 3.0], "float32"))
    b.set_value(np.array([0.5, -1.0], "float32"))
    ((w * w).sum() * 2 + (b ** 3).sum()).backward()
    total = paddle.nn.utils.clip_grad_norm_([w, b], max_norm=1.0)
    w2 = paddle.create_parameter([2], "float32")
    w2.set_value(np.array([0.1, 0.2], "float32"))
    w2.sum().backward()
    small = paddle.nn.utils.clip_grad_norm_(w2, max_norm=5.0, norm_type=1.0)
    return {"total": total, "gw": w.grad, "gb": b.grad, "small": small, "gw2": w2.grad}


@program(item="fresh")
def f12_clip_grad_value_and_inf_norm(paddle):
    w = paddle.create_parameter([4], "float32")
    w.set_value(np.array([-2.0, -0.1, 0.3, 3.0], "float32"))
    (w ** 3).sum().backward()
    paddle.nn.utils.clip_grad_value_([w], clip_value=1.0)
    v = paddle.create_parameter([2], "float32")
    v.set_value(np.array([3.0, -4.0], "float32"))
    (v * v).sum().backward()
    n = paddle.nn.utils.clip_grad_norm_([v], max_norm=2.0, norm_type=float("inf"))
    return {"gw": w.grad, "n": n, "gv": v.grad}


@program(item="fresh")
def f12_clip_by_global_norm_in_optimizer(paddle):
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.array([[1.0, -1.0], [2.0, 0.5]], "float32"))
    lin.bias.set_value(np.array([0.0, 1.0], "float32"))
    clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=0.5)
    opt = paddle.optimizer.SGD(learning_rate=1.0, parameters=lin.parameters(), grad_clip=clip)
    x = paddle.to_tensor(np.array([[1.0, 2.0], [3.0, -1.0]], "float32"))
    lin(x).pow(2).sum().backward()
    raw = [p.grad.numpy().copy() for p in lin.parameters()]
    opt.step()
    return {"raw_w": raw[0], "raw_b": raw[1], "w": lin.weight, "b": lin.bias}


@program(item="fresh")
def f12_clip_by_norm_and_value_in_optimizer(paddle):
    out = {}
    for name, clip in (("norm", paddle.nn.ClipGradByNorm(clip_norm=1.0)),
                       ("value", paddle.nn.ClipGradByValue(max=0.5, min=-0.25))):
        w = paddle.create_parameter([3], "float32")
        w.set_value(np.array([1.0, -2.0, 0.1], "float32"))
        opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w], grad_clip=clip)
        (w * w).sum().backward()
        opt.step()
        out[name] = w.numpy().copy()
    return out


# ---------------------------------------------------------------- a small CNN


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_small_cnn_forward_backward_step(paddle):
    nn = paddle.nn
    model = nn.Sequential(
        nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2),
        nn.Conv2D(4, 4, 3, padding="SAME", groups=2), nn.Hardswish(),
        nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Dropout(0.0), nn.Linear(4, 3))
    trainable = [p for p in model.parameters() if not p.stop_gradient]
    for i, p in enumerate(trainable):
        p.set_value(_a(p.shape, 0.5, 0.2 * i).astype("float32"))
    model[1].weight.set_value(np.array([1.0, 0.8, 1.2, 0.9], "float32"))
    x = paddle.to_tensor(_a([2, 1, 6, 6]).astype("float32"), stop_gradient=False)
    lab = paddle.to_tensor([2, 0])
    opt = paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=model.parameters())
    logits = model(x)
    loss = paddle.nn.functional.cross_entropy(logits, lab)
    loss.backward()
    grads = [p.grad.numpy().copy() for p in trainable]
    opt.step()
    opt.clear_grad()
    model.eval()
    return {"logits": logits, "loss": loss, "gx": x.grad, "grads": grads,
            "after": model(x.detach()), "n_params": len(model.parameters()),
            "n_state": len(model.state_dict()), "n_trainable": len(trainable),
            "running_mean": model[1]._mean}


@program(item="fresh", rtol=1e-4, atol=1e-5)
def f12_sequence_conv1d_model(paddle):
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(7, 4, padding_idx=0)
            self.conv = nn.Conv1D(4, 3, 2, data_format="NLC")
            self.ln = nn.LayerNorm(3)
            self.out = nn.Linear(3, 2)

        def forward(self, ids):
            h = self.ln(nn.functional.gelu(self.conv(self.emb(ids))))
            return self.out(h.max(axis=1))

    net = Net()
    for i, p in enumerate(net.parameters()):
        p.set_value(_a(p.shape, 0.5, 0.3 * i).astype("float32") + (1.0 if i == 3 else 0.0))
    ids = paddle.to_tensor([[1, 4, 6, 0, 0], [2, 2, 3, 5, 1]])
    y = net(ids)
    loss = nn.functional.cross_entropy(y, paddle.to_tensor([1, 0]), reduction="sum")
    loss.backward()
    return {"y": y, "loss": loss, "grads": {n: p.grad for n, p in net.named_parameters()}}
