"""The public names issue 14 adds: distributed recompute, gaussian, framework, jit, ..."""
import numpy as np

from ..harness import attempt
from . import program

W = np.asarray([[0.2, -0.4, 0.1], [0.5, 0.3, -0.2], [-0.1, 0.6, 0.4]], dtype="float32")


def _block(paddle):
    lin = paddle.nn.Linear(3, 3)
    lin.weight.set_value(W)
    lin.bias.set_value(np.asarray([0.1, 0.0, -0.1], dtype="float32"))
    return paddle.nn.Sequential(lin, paddle.nn.Tanh())


@program(item="names")
def fleet_recompute_matches_plain(paddle):
    from_fleet = paddle.distributed.fleet.utils.recompute
    out = {}
    for mode in ("plain", "recompute"):
        block = _block(paddle)
        x = paddle.to_tensor([[1.0, -2.0, 0.5]], stop_gradient=False)
        y = block(x) if mode == "plain" else from_fleet(block, x)
        (y * y).sum().backward()
        out[mode] = {"y": y, "x_grad": x.grad, "w_grad": block[0].weight.grad}
    return out


@program(item="names")
def fleet_recompute_use_reentrant_false(paddle):
    block = _block(paddle)
    x = paddle.to_tensor([[1.0, -2.0, 0.5]], stop_gradient=False)
    y = paddle.distributed.fleet.utils.recompute(block, x, use_reentrant=False)
    y.sum().backward()
    return {"y": y, "x_grad": x.grad, "b_grad": block[0].bias.grad}


@program(item="names")
def incubate_recompute_path(paddle):
    from_dist = paddle.distributed.fleet.recompute.recompute
    block = _block(paddle)
    x = paddle.to_tensor([[0.5, 0.5, 0.5]], stop_gradient=False)
    from_dist(block, x).sum().backward()
    return {"x_grad": x.grad}


@program(item="names")
def distributed_namespace_single_process(paddle):
    d = paddle.distributed
    return {"rank": d.get_rank(), "world": d.get_world_size(),
            "initialized": d.is_initialized()}


def _gaussian(paddle):
    # Paddle keeps gaussian in paddle.tensor.random; opsdk has it at the top as well
    return getattr(paddle, "gaussian", None) or paddle.tensor.random.gaussian


@program(item="names")
def gaussian_shape_dtype_and_stats(paddle):
    g = _gaussian(paddle)([2000, 3], mean=1.0, std=2.0)
    g64 = _gaussian(paddle)([4], dtype="float64")
    return {"shape": list(g.shape), "dtype": str(g.dtype).split(".")[-1],
            "mean_ok": abs(float(g.numpy().mean()) - 1.0) < 0.15,
            "std_ok": abs(float(g.numpy().std()) - 2.0) < 0.15,
            "sg": g.stop_gradient, "d64": str(g64.dtype).split(".")[-1]}


@program(item="names")
def gaussian_backward_has_no_grad(paddle):
    out = _gaussian(paddle)(shape=[20, 30])
    loss = paddle.mean(out)
    res = attempt(loss.backward)
    return {"grad": out.grad, "res": None if res is None else "raised"}


@program(item="names")
def framework_public_names(paddle):
    f = paddle.framework
    names = ("ParamAttr", "CPUPlace", "CUDAPlace", "get_default_dtype", "set_default_dtype",
             "no_grad", "grad", "seed", "in_dynamic_mode", "in_dynamic_or_pir_mode",
             "get_flags", "set_flags", "is_grad_enabled", "set_grad_enabled", "Parameter",
             "use_pir_api", "dtype", "save", "load", "disable_static", "is_parameter",
             "is_persistable", "in_pir_mode", "enable_static")
    return {n: hasattr(f, n) for n in names}


@program(item="names")
def framework_calls(paddle):
    f = paddle.framework
    f.set_flags({"FLAGS_call_stack_level": 3})
    flag = f.get_flags("FLAGS_call_stack_level")
    return {"dtype": f.get_default_dtype(), "dyn": f.in_dynamic_mode(),
            "flag": flag, "grad_enabled": f.is_grad_enabled() if hasattr(f, "is_grad_enabled")
            else paddle.is_grad_enabled(), "same_no_grad": f.no_grad is paddle.no_grad}


@program(item="names")
def framework_param_attr_usable(paddle):
    attr = paddle.framework.ParamAttr(initializer=paddle.nn.initializer.Constant(0.5))
    lin = paddle.nn.Linear(2, 1, weight_attr=attr)
    return {"w": lin.weight}


@program(item="names")
def autograd_namespace_names(paddle):
    a = paddle.autograd
    return {n: hasattr(a, n) for n in ("PyLayer", "PyLayerContext", "backward", "grad",
                                      "no_grad")}


@program(item="names")
def autograd_py_layer_module_path(paddle):
    import importlib
    mod = importlib.import_module(paddle.__name__ + ".autograd.py_layer")
    return {"same": mod.PyLayer is paddle.autograd.PyLayer,
            "ctx": hasattr(mod, "PyLayerContext")}


@program(item="names")
def jit_to_static_runs_eagerly(paddle):
    block = _block(paddle)
    fast = paddle.jit.to_static(block)
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    y = fast(x)
    y.sum().backward()
    return {"y": y, "x_grad": x.grad}


@program(item="names")
def jit_to_static_decorator_on_function(paddle):
    @paddle.jit.to_static
    def f(x):
        return x * x + 1

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = f(x)
    y.sum().backward()
    return {"y": y, "g": x.grad}


@program(item="names")
def nn_utils_clip_grad_module_paths(paddle):
    import importlib
    m = importlib.import_module(paddle.__name__ + ".nn.utils.clip_grad_norm_")
    v = importlib.import_module(paddle.__name__ + ".nn.utils.clip_grad_value_")
    return {"norm": m.clip_grad_norm_ is paddle.nn.utils.clip_grad_norm_,
            "value": v.clip_grad_value_ is paddle.nn.utils.clip_grad_value_}


@program(item="names", differs=(["bfloat16"], "NumPy has no bfloat16, so opsdk has no "
                                             "paddle.bfloat16 (docs/paddle.md)"))
def top_level_names_paddle_code_uses(paddle):
    names = ("assign", "standard_normal", "zeros", "ones", "full", "arange",
             "linspace", "rand", "randn", "randint", "uniform", "normal", "eye", "empty",
             "to_tensor", "grad", "no_grad", "enable_grad", "set_grad_enabled",
             "is_grad_enabled", "seed", "create_parameter", "ParamAttr", "Tensor", "cast",
             "matmul", "concat", "stack", "split", "reshape", "transpose", "squeeze",
             "unsqueeze", "where", "clip", "sum", "mean", "max", "min", "exp", "log", "tanh",
             "sqrt", "square", "abs", "maximum", "minimum", "pow", "multiply", "add",
             "subtract", "divide", "scale", "numel", "shape", "flatten", "expand",
             "broadcast_to", "gather", "index_select", "topk", "sort", "argsort", "cumsum",
             "prod", "einsum", "scatter", "masked_fill", "clone", "allclose", "isclose",
             "equal_all", "logical_and", "save", "load", "set_device", "get_device",
             "is_compiled_with_cuda", "in_dynamic_mode", "disable_static", "enable_static",
             "float32", "float64", "float16", "bfloat16", "int64", "bool", "framework",
             "distributed", "autograd", "nn", "optimizer", "amp", "jit", "static",
             "regularizer", "sign", "sin", "cos", "floor", "ceil", "round", "erf", "rsqrt",
             "reciprocal", "increment", "zeros_like", "ones_like", "full_like", "tile",
             "chunk", "unbind", "flip", "roll", "tril", "triu", "diag", "dot", "bmm",
             "outer", "kron", "norm", "dist", "logsumexp", "var", "std", "median",
             "argmax", "argmin", "any", "all", "nonzero", "masked_select", "take_along_axis",
             "put_along_axis", "unique", "meshgrid", "histogram", "bincount",
             "lerp", "log1p", "expm1", "log2", "log10", "trunc", "frac", "mm", "addmm",
             "stanh", "diff", "amax", "amin", "nansum", "nanmean", "count_nonzero")
    return {n: hasattr(paddle, n) for n in names}


@program(item="names")
def standard_normal_and_scale(paddle):
    s = paddle.standard_normal([3, 2])
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.scale(x, scale=3.0, bias=1.0)
    y.sum().backward()
    return {"shape": list(s.shape), "y": y, "g": x.grad}


@program(item="names")
def save_load_state_dict_round_trip(paddle):
    import os
    import tempfile
    lin = paddle.nn.Linear(3, 2)
    path = os.path.join(tempfile.mkdtemp(), "lin.pdparams")
    paddle.save(lin.state_dict(), path)
    loaded = paddle.load(path)
    other = paddle.nn.Linear(3, 2)
    other.set_state_dict(loaded)
    return {"keys": sorted(loaded), "same_w": bool(np.array_equal(other.weight.numpy(),
                                                                  lin.weight.numpy())),
            "tensor": isinstance(loaded["weight"], paddle.Tensor)}
